/* ch16nccl.cu: the cuts on every GPU of the machine, one process each. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ch16.h"

static const char *progname = "ch16nccl";
static int csv, events;
static char gpu_name[256];
enum { MAX_RANKS = 8, MAX_REPS = 16, SEED = 16, STALL_S = 900 };

static int count_gpus(int *major)
{
    int fd[2], v[2] = { 0, 0 };
    if (pipe(fd))
        return 0;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct cudaDeviceProp prop;
        int n = 0;
        close(fd[0]);
        if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0) {
            v[0] = n;
            v[1] = 90;                 /* every GPU must be an sm_90 */
            for (int d = 0; d < n; d++)
                if (cudaGetDeviceProperties(&prop, d) != cudaSuccess)
                    v[0] = 0;
                else if (prop.major * 10 + prop.minor != 90)
                    v[1] = prop.major * 10 + prop.minor;
        }
        _exit(write(fd[1], v, sizeof v) == sizeof v ? 0 : 1);
    }
    close(fd[1]);
    if (pid < 0 || read(fd[0], v, sizeof v) != sizeof v)
        v[0] = 0;
    close(fd[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    *major = v[1];
    return v[0];
}
static void stalled(int sig)
{
    static const char msg[] = "ch16nccl: a rank made no progress for "
        "900 s (collectives that do not match?): stopping\n";
    ssize_t r = write(2, msg, sizeof msg - 1);
    (void)sig, (void)r;
    _exit(3);
}
static int rank_main(int rank, int size, ncclUniqueId id);

static int run_ranks(int size)
{
    int fd[MAX_RANKS][2], worst = 0, left = size;
    pid_t pid[MAX_RANKS];
    for (int r = 0; r < size; r++)
        if (pipe(fd[r])) {
            fprintf(stderr, "%s: no pipe\n", progname);
            return 3;
        }
    fflush(NULL);
    for (int r = 0; r < size; r++) {
        pid[r] = fork();
        if (pid[r] == 0) {
            ncclUniqueId id;
            if (r == 0) {
                NCCL_CHECK(ncclGetUniqueId(&id));
                for (int q = 1; q < size; q++)
                    if (write(fd[q][1], &id, sizeof id) != sizeof id)
                        exit(3);
            } else if (read(fd[r][0], &id, sizeof id) != sizeof id) {
                exit(3);
            }
            for (int q = 0; q < size; q++)
                close(fd[q][0]), close(fd[q][1]);
            exit(rank_main(r, size, id));
        }
    }
    for (int q = 0; q < size; q++)
        close(fd[q][0]), close(fd[q][1]);
    while (left > 0) {
        int st, code;
        pid_t w = wait(&st);
        if (w < 0)
            break;
        left--;
        code = WIFEXITED(st) ? WEXITSTATUS(st) : 3;
        if (code && !worst)
            for (int q = 0; q < size; q++)
                if (pid[q] != w)
                    kill(pid[q], SIGKILL);
        worst = code > worst ? code : worst;
    }
    return worst;
}
__host__ __device__ static inline float entry(unsigned which, unsigned i,
                                              unsigned j)
{
    unsigned h = i * 0x9E3779B1u ^ j * 0x85EBCA77u ^ which * 0xC2B2AE3Du
                 ^ SEED;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return (float)((int)(h % 129) - 64) / 64.0f;
}

__global__ void fill(void *x, int bf16, int rows, int cols, int ld,
                     int row0, int col0, unsigned which)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = blockIdx.y; i < rows && j < cols; i += gridDim.y) {
        float v = entry(which, row0 + i, col0 + j);
        size_t at = (size_t)i * ld + j;
        if (bf16)
            ((bf16_bits *)x)[at] = (bf16_bits)(__float_as_uint(v) >> 16);
        else
            ((float *)x)[at] = v;
    }
}

struct block { void *p; int rows, cols, ld, row0, col0; };
struct mats { struct block a, b, c; };

static void make_block(struct block *x, size_t elem, int rows, int cols,
                       int row0, int col0, unsigned which, int bf16)
{
    x->rows = rows, x->cols = cols, x->ld = cols > 0 ? cols : 1;
    x->row0 = row0, x->col0 = col0;
    CUDA_CHECK(cudaMalloc(&x->p, elem * ((size_t)rows * x->ld + 1)));
    if (rows > 0 && cols > 0)
        fill<<<dim3(CEIL_DIV(cols, 256), rows < 65535 ? rows : 65535),
               256>>>(x->p, bf16, rows, cols, x->ld, row0, col0, which);
    CUDA_CHECK(cudaGetLastError());
}
static struct mats share_mats(struct team *t, struct cut c, int whole,
                              int m, int n, int k)
{
    struct mats x;
    int bf = c.precision == BF16, p = t->size;
    size_t e = bf ? 2 : 4;
    struct share rm = share_of(m, p, t->rank), cn = share_of(n, p, t->rank);
    struct share ks = share_of(k, p, t->rank);
    if (whole) {
        int me = t->rank == 0;
        make_block(&x.a, e, me ? m : 0, k, 0, 0, 0, bf);
        make_block(&x.b, e, me ? k : 0, n, 0, 0, 1, bf);
        make_block(&x.c, 4, me ? m : 0, n, 0, 0, 2, 0);
    } else if (c.kind == SPLIT_N) {
        make_block(&x.a, e, rm.count, k, rm.first, 0, 0, bf);
        make_block(&x.b, e, k, cn.count, 0, cn.first, 1, bf);
        make_block(&x.c, 4, m, cn.count, 0, cn.first, 2, 0);
    } else {
        make_block(&x.a, e, m, ks.count, 0, ks.first, 0, bf);
        make_block(&x.b, e, ks.count, n, ks.first, 0, 1, bf);
        make_block(&x.c, 4, rm.count, n, rm.first, 0, 2, 0);
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    return x;
}

static void free_mats(struct mats *x)
{
    CUDA_CHECK(cudaFree(x->a.p));
    CUDA_CHECK(cudaFree(x->b.p));
    CUDA_CHECK(cudaFree(x->c.p));
}
static long check_share(struct cut c, const struct block *cb, int k,
                        float alpha, float beta, const float *c0,
                        const float *got, int every)
{
    long wrong = 0;
    unsigned long long lcg = 0x16ull + cb->row0 * 7919ull + cb->col0;
    long count = (long)cb->rows * cb->cols, n = every ? count : 64;
    for (long s = 0; s < n && count > 0; s++) {
        long at = every ? s : (long)((lcg = lcg * 6364136223846793005ull
                                      + 1442695040888963407ull) >> 33)
                                  % count;
        int i = (int)(at / cb->cols), j = (int)(at % cb->cols);
        double r = 0, scale = 0;
        for (int l = 0; l < k; l++) {
            double x = (double)entry(0, cb->row0 + i, l)
                       * entry(1, l, cb->col0 + j);
            r += x;
            scale += fabs(x);
        }
        double old = beta != 0.0f ? c0[(size_t)i * cb->ld + j] : 0.0;
        r = alpha * r + beta * old;
        scale = fabs(alpha) * scale + fabs(beta * old);
        double x = got[(size_t)i * cb->ld + j];
        if (!(fabs(x - r) <= tolerance_max(c.precision, k) * scale))
            wrong++;
    }
    return wrong;
}
static long long *one_count;   /* a number on the GPU, for collectives */

static long long reduce_ranks(struct team *t, long long v, ncclRedOp_t op)
{
    CUDA_CHECK(cudaMemcpy(one_count, &v, sizeof v, cudaMemcpyHostToDevice));
    NCCL_CHECK(ncclAllReduce(one_count, one_count, 1, ncclInt64, op,
                             t->comm, t->link));
    CUDA_CHECK(cudaStreamSynchronize(t->link));
    CUDA_CHECK(cudaMemcpy(&v, one_count, sizeof v, cudaMemcpyDeviceToHost));
    return v;
}

static long sum_ranks(struct team *t, long v)
{
    return (long)reduce_ranks(t, v, ncclSum);
}

static void run_cut(struct team *t, struct cut c, int whole,
                    const struct mats *x, int m, int n, int k, float alpha,
                    float beta)
{
    if (!whole)
        cut_product(t, c, m, n, k, alpha, x->a.p, x->a.ld, x->b.p, x->b.ld,
                    beta, (float *)x->c.p, x->c.ld);
    else if (t->rank == 0 && c.precision == BF16)
        gemm_bf16(m, n, k, alpha, (const bf16_bits *)x->a.p, x->a.ld,
                  (const bf16_bits *)x->b.p, x->b.ld, beta,
                  (float *)x->c.p, x->c.ld);
    else if (t->rank == 0)
        gemm_fp32(m, n, k, alpha, (const float *)x->a.p, x->a.ld,
                  (const float *)x->b.p, x->b.ld, beta, (float *)x->c.p,
                  x->c.ld);
    CUDA_CHECK(cudaGetLastError());
}

static long checked_run(struct team *t, struct cut c, int whole,
                        const struct mats *x, int m, int n, int k,
                        float alpha, float beta, int every)
{
    size_t bytes = sizeof(float) * (size_t)x->c.rows * x->c.ld;
    float *c0 = (float *)malloc(bytes + 4), *got = (float *)malloc(bytes + 4);
    if (!c0 || !got)
        exit(3);
    CUDA_CHECK(cudaMemcpy(c0, x->c.p, bytes, cudaMemcpyDeviceToHost));
    if (beta == 0.0f)
        CUDA_CHECK(cudaMemset(x->c.p, 0xff, bytes));
    run_cut(t, c, whole, x, m, n, k, alpha, beta);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, x->c.p, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(x->c.p, c0, bytes, cudaMemcpyHostToDevice));
    long wrong = check_share(c, &x->c, k, alpha, beta, c0, got, every);
    free(c0);
    free(got);
    return sum_ranks(t, wrong);
}
struct timing { double ms, q[2]; int runs; };

static struct timing time_cut(struct team *t, struct cut c, int whole,
                              const struct mats *x, int m, int n, int k)
{
    float ms[MAX_REPS], *dev;
    cudaEvent_t e0, e1;
    struct timing r;
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    CUDA_CHECK(cudaMalloc(&dev, sizeof ms));
    run_cut(t, c, whole, x, m, n, k, 1.0f, 0.0f);          /* warm-up */
    CUDA_CHECK(cudaDeviceSynchronize());
    int reps = 5;
    for (int i = 0; i < reps; i++) {
        sum_ranks(t, 0);                                   /* line up */
        CUDA_CHECK(cudaEventRecord(e0, 0));
        run_cut(t, c, whole, x, m, n, k, 1.0f, 0.0f);
        CUDA_CHECK(cudaEventRecord(e1, 0));
        CUDA_CHECK(cudaEventSynchronize(e1));
        CUDA_CHECK(cudaEventElapsedTime(&ms[i], e0, e1));
        if (i == 0 && reduce_ranks(t, (long long)(ms[0] * 1000), ncclMax)
                      < 50 * 1000)
            reps = MAX_REPS;   /* short runs: more of them, on every rank */
    }
    CUDA_CHECK(cudaMemcpy(dev, ms, sizeof(float) * reps,
                          cudaMemcpyHostToDevice));
    NCCL_CHECK(ncclAllReduce(dev, dev, reps, ncclFloat, ncclMax, t->comm,
                             t->link));
    CUDA_CHECK(cudaStreamSynchronize(t->link));
    CUDA_CHECK(cudaMemcpy(ms, dev, sizeof(float) * reps,
                          cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dev));
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    r.ms = median_ms(ms, reps);
    quartiles(ms, reps, r.q);
    r.runs = reps;
    return r;
}
static const char *from_env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : "unknown";
}

static const char *run_number(void)
{
    const char *v = getenv("BOOK_RUN");
    return v && *v ? v : "1";
}

#define NCCL_COLUMNS(X)                                                    \
    X(chapter, "%d", 16)                  /* the chapter */                \
    X(name, "%s", name)                   /* the measurement */            \
    X(what, "\"%s\"", what)               /* what it is, quoted */         \
    X(gpus, "%d", gpus)                   /* GPUs it ran on */             \
    X(ms, "%.4f", t.ms)                   /* median time, ms */            \
    X(ms_q1, "%.4f", t.q[0])              /* first quartile */             \
    X(ms_q3, "%.4f", t.q[1])              /* third quartile */             \
    X(tflops, "%.2f", tflops)             /* the product's rate */         \
    X(gbs, "%.2f", gbs)                   /* bytes a GPU received / time */ \
    X(runs, "%d", t.runs)                 /* timed runs in this process */ \
    X(check, "%s", check)                 /* ok, FAIL or - */              \
    X(gpu, "%s", gpu_name)                /* the GPU's name */             \
    X(date, "%s", date)                   /* the day of the run, UTC */    \
    X(commit, "%s", from_env("BOOK_COMMIT")) /* source revision */         \
    X(code_hash, "%s", from_env("BOOK_CODE_HASH")) /* the code */          \
    X(run, "%s", run_number())            /* which of the runs */

static void print_header(void)
{
    const char *sep = "";
#define NAME(name, format, value) printf("%s" #name, sep), sep = ",";
    NCCL_COLUMNS(NAME)
#undef NAME
    printf("\n");
}

static void print_row(const char *name, const char *what, int gpus,
                      struct timing t, double flops, double bytes,
                      const char *check)
{
    double tflops = flops / (t.ms * 1e9), gbs = bytes / (t.ms * 1e6);
    char date[16];
    const char *sep = "";
    time_t now = time(NULL);
    if (!csv) {
        printf("%-24s %10.4f ms %9.2f TFLOP/s %8.2f GB/s  %-4s %s\n", name,
               t.ms, tflops, gbs, check, what);
        fflush(stdout);
        return;
    }
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
#define VALUE(name, format, value) printf("%s" format, sep, value), sep = ",";
    NCCL_COLUMNS(VALUE)
#undef VALUE
    printf("\n");
    fflush(stdout);
}
static int check_shapes(struct team *t)
{
    static const int shapes[][3] = {
        { 1, 1, 1 }, { 1, 7, 9 }, { 5, 6, 1 }, { 4, 1, 3 }, { 33, 31, 65 },
        { 257, 255, 513 }, { 128, 96, 300 },
    };
    int bad = 0;
    alarm(STALL_S);
    for (int s = 0; s < COUNT_OF(shapes); s++)
        for (int kind = 0; kind < 2; kind++)
            for (int pr = 0; pr < 2; pr++)
                for (int pieces = 1; pieces <= 3; pieces += 2) {
                    int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
                    struct cut c = { kind ? SPLIT_K : SPLIT_N,
                                     pr ? BF16 : FP32, pieces,
                                     LINK_AND_MATH };
                    team_reserve(t, c, m, n, k);
                    struct mats x = share_mats(t, c, 0, m, n, k);
                    long wrong = checked_run(t, c, 0, &x, m, n, k, 1.5f,
                                             -0.5f, 1)
                                 + checked_run(t, c, 0, &x, m, n, k, 1.0f,
                                               0.0f, 1);
                    free_mats(&x);
                    if (wrong && t->rank == 0)
                        fprintf(stderr, "%s: split %s %s at %dx%dx%d, %d "
                                "pieces, %d GPUs: %ld wrong elements\n",
                                progname, kind ? "K" : "N",
                                pr ? "BF16" : "FP32", m, n, k, pieces,
                                t->size, wrong);
                    bad += wrong != 0;
                }
    return bad;
}
static int measure(struct team *t, const char *name, const char *what,
                   struct cut c, int whole, int m, int n, int k,
                   double bytes)
{
    struct operands none = { 0 };
    alarm(STALL_S);
    if (!whole)
        team_reserve(t, c, m, n, k);
    else if (t->rank == 0)
        gemm_reserve(m, n, k, &none);
    struct mats x = share_mats(t, c, whole, m, n, k);
    int both = c.steps == LINK_AND_MATH;     /* else: no product to check */
    long wrong = both ? checked_run(t, c, whole, &x, m, n, k, 1.0f, 0.0f, 0)
                      : 0;
    struct timing tm = time_cut(t, c, whole, &x, m, n, k);
    free_mats(&x);
    if (t->rank == 0)
        print_row(name, what, whole ? 1 : t->size, tm,
                  c.steps == LINK_ONLY ? 0 : 2.0 * m * n * k,
                  c.steps == MATH_ONLY ? 0 : bytes,
                  !both ? "-" : wrong ? "FAIL" : "ok");
    return wrong != 0;
}

static int measure_cut(struct team *t, enum cut_kind kind, enum precision pr,
                       int m, int n, int k, const char *tag)
{
    int p = t->size, bad = 0, pieces = pieces_for(m, n, k, p);
    const char *pn = pr == BF16 ? "bf16" : "fp32";
    char name[64], what[128];
    double s = pr == BF16 ? 2 : 4;
    double bytes = kind == SPLIT_N ? (p - 1.0) / p * m * k * s
                                   : (p - 1.0) / p * m * n * 4.0;
    struct cut c = { kind, pr, pieces, LINK_AND_MATH };
    static const char *part[] = { "", "_whole", "_link", "_math" };
    for (int v = 0; v < 4; v++) {
        if (v >= 1 && p == 1)
            break;          /* one GPU: no communication to take apart */
        c.chunks = v == 1 ? 1 : pieces;
        c.steps = v == 2 ? LINK_ONLY : v == 3 ? MATH_ONLY : LINK_AND_MATH;
        snprintf(name, sizeof name, "%c%d_%s_%s%s",
                 kind == SPLIT_N ? 'n' : 'k', p, pn, tag, part[v]);
        snprintf(what, sizeof what, "split %c on %d GPUs, %s, %dx%dx%d, "
                 "%d piece%s%s", kind == SPLIT_N ? 'N' : 'K', p, pn, m, n, k,
                 c.chunks, c.chunks > 1 ? "s" : "",
                 v == 2 ? (kind == SPLIT_N ? ", communication alone"
                           : ", communication and finishing alone")
                 : v == 3 ? ", products alone" : "");
        bad += measure(t, name, what, c, 0, m, n, k, bytes);
    }
    return bad;
}

static int measure_all(struct team *t)
{
    static const struct { int m, n, k; const char *tag; } sizes[] = {
        { 16384, 16384, 16384, "16384" }, { 32768, 32768, 32768, "32768" },
        { 4096, 1024, 65536, "long" },
    };
    int bad = 0;
    if (t->rank == 0 && csv)
        print_header();
    for (int pr = 0; pr < 2; pr++)
        for (int s = 0; s < COUNT_OF(sizes); s++) {
            enum precision prec = pr ? BF16 : FP32;
            int m = sizes[s].m, n = sizes[s].n, k = sizes[s].k;
            char name[64], what[128];
            struct cut one = { SPLIT_N, prec, 1, LINK_AND_MATH };
            snprintf(name, sizeof name, "one_%s_%s", pr ? "bf16" : "fp32",
                     sizes[s].tag);
            snprintf(what, sizeof what, "chapter 14's dispatcher on one GPU, "
                     "%s, %dx%dx%d", pr ? "bf16" : "fp32", m, n, k);
            bad += measure(t, name, what, one, 1, m, n, k, 0);
            bad += measure_cut(t, SPLIT_N, prec, m, n, k, sizes[s].tag);
            if (s == 2)
                bad += measure_cut(t, SPLIT_K, prec, m, n, k, sizes[s].tag);
        }
    return bad;
}
static int trace(struct team *t)
{
    int m = 16384, n = 16384, k = 16384, p = t->size;
    struct cut c = { SPLIT_N, BF16, pieces_for(m, n, k, p), LINK_AND_MATH };
    enum { PER = 2 * 2 * MAX_CHUNKS };
    float mine[PER] = { 0 }, *all, *dev;
    team_reserve(t, c, m, n, k);
    struct mats x = share_mats(t, c, 0, m, n, k);
    alarm(STALL_S);
    run_cut(t, c, 0, &x, m, n, k, 1.0f, 0.0f);
    CUDA_CHECK(cudaDeviceSynchronize());
    sum_ranks(t, 0);
    run_cut(t, c, 0, &x, m, n, k, 1.0f, 0.0f);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int l = 0; l < 2; l++)
        for (int e = 0; e < 2; e++)
            for (int j = 0; j < c.chunks; j++)
                CUDA_CHECK(cudaEventElapsedTime(&mine[(l * 2 + e) * MAX_CHUNKS
                                                     + j],
                                                t->start, t->ev[l][e][j]));
    all = (float *)malloc(sizeof(float) * PER * p);
    CUDA_CHECK(cudaMalloc(&dev, sizeof(float) * PER * p));
    if (!all)
        exit(3);
    CUDA_CHECK(cudaMemcpy(dev + t->rank * PER, mine, sizeof mine,
                          cudaMemcpyHostToDevice));
    NCCL_CHECK(ncclAllGather(dev + t->rank * PER, dev, PER, ncclFloat,
                             t->comm, t->link));
    CUDA_CHECK(cudaStreamSynchronize(t->link));
    CUDA_CHECK(cudaMemcpy(all, dev, sizeof(float) * PER * p,
                          cudaMemcpyDeviceToHost));
    if (t->rank == 0) {
        printf("flow,lane,panel,start_ms,end_ms\n");
        for (int q = 0; q < p; q++)
            for (int l = 0; l < 2; l++)
                for (int j = 0; j < c.chunks; j++) {
                    const float *at = all + q * PER + l * 2 * MAX_CHUNKS;
                    printf("GPU %d,%s,%d,%.4f,%.4f\n", q,
                           l == LINK_LANE ? "all-gather" : "multiply", j,
                           at[j], at[MAX_CHUNKS + j]);
                }
    }
    free(all);
    CUDA_CHECK(cudaFree(dev));
    free_mats(&x);
    return 0;
}
static int rank_main(int rank, int size, ncclUniqueId id)
{
    ncclComm_t comm;
    struct team t;
    struct cudaDeviceProp prop;
    int bad;
    signal(SIGALRM, stalled);
    CUDA_CHECK(cudaSetDevice(rank));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, rank));
    snprintf(gpu_name, sizeof gpu_name, "%s", prop.name);
    NCCL_CHECK(ncclCommInitRank(&comm, size, id, rank));
    team_join(&t, comm);
    CUDA_CHECK(cudaMalloc(&one_count, sizeof(long long)));
    bad = check_shapes(&t);
    if (!bad)
        bad = events ? trace(&t) : measure_all(&t);
    CUDA_CHECK(cudaFree(one_count));
    team_leave(&t);
    NCCL_CHECK(ncclCommDestroy(comm));
    return bad ? 1 : 0;
}
int main(int argc, char **argv)
{
    int list = 0, parse_only = 0, major = 0, n;
    harness_name(argv[0]);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            printf("usage: %s [--csv | --events] [--list] [--parse-only]\n"
                   "runs chapter 16's cuts on every GPU of this machine, "
                   "one process each:\nchecks every rank's share, then "
                   "times the cuts against one GPU (--csv: as CSV);\n"
                   "--events prints the trace of an overlapped product\n",
                   progname);
            return 0;
        } else if (!strcmp(argv[i], "--csv")) {
            csv = 1;
        } else if (!strcmp(argv[i], "--events")) {
            events = 1;
        } else if (!strcmp(argv[i], "--list")) {
            list = 1;
        } else if (!strcmp(argv[i], "--parse-only")) {
            parse_only = 1;
        } else {
            fprintf(stderr, "%s: unknown argument '%s' (try --help)\n",
                    progname, argv[i]);
            return 2;
        }
    }
    if (csv && events) {
        fprintf(stderr, "%s: --csv and --events print different files; "
                "give one\n", progname);
        return 2;
    }
    if (parse_only)
        return 0;
    if (list) {
        printf("checks  split N and K at 7 small shapes, FP32 and BF16, "
               "1 and 3 pieces, every element\n"
               "one_*   chapter 14's dispatcher on one GPU\n"
               "nP_*    split N on P GPUs (_whole: one piece, _link: the "
               "communication alone,\n        _math: the products alone)\n"
               "kP_*    split K on P GPUs, at 4096x1024x65536\n");
        return 0;
    }
    n = count_gpus(&major);
    if (n == 0) {
        fprintf(stderr, "%s: no CUDA GPU is available\n", progname);
        return 3;
    }
    if (major != 90) {
        fprintf(stderr, "%s: chapter 14's dispatcher is built for compute "
                "capability 9.0; a GPU here is %d.%d\n", progname,
                major / 10, major % 10);
        return 3;
    }
    setenv("NCCL_NVLS_ENABLE", "0", 0);   /* no NVLink multicast */
    return run_ranks(n < MAX_RANKS ? n : MAX_RANKS);
}
