/* ch13job.cu: the link, allocations, panels, small products and the
   CPU, and a trace of the whole job. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ch13.h"

static const char *progname = "ch13job";

struct timing { double ms, q[2]; int runs; };

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static struct timing summarize(float *t, int reps)
{
    struct timing r;
    r.ms = median_ms(t, reps);
    quartiles(t, reps, r.q);
    r.runs = reps;
    return r;
}

typedef void step_fn(void *arg);

static struct timing time_gpu(step_fn *f, void *arg, int reps)
{
    float t[64];
    cudaEvent_t e[65];
    reps = reps > 64 ? 64 : reps;
    f(arg);                                  /* warm-up */
    for (int i = 0; i <= reps; i++)
        CUDA_CHECK(cudaEventCreate(&e[i]));
    for (int i = 0; i < reps; i++) {
        CUDA_CHECK(cudaEventRecord(e[i], 0));
        f(arg);
    }
    CUDA_CHECK(cudaEventRecord(e[reps], 0));
    CUDA_CHECK(cudaEventSynchronize(e[reps]));
    CUDA_CHECK(cudaGetLastError());
    for (int i = 0; i < reps; i++)
        CUDA_CHECK(cudaEventElapsedTime(&t[i], e[i], e[i + 1]));
    for (int i = 0; i <= reps; i++)
        CUDA_CHECK(cudaEventDestroy(e[i]));
    return summarize(t, reps);
}
static int csv;
static char gpu_name[256];

#define JOB_COLUMNS(X)                                                     \
    X(chapter, "%d", 13)                  /* the chapter */                \
    X(name, "%s", name)                   /* the measurement */            \
    X(what, "%s", what)                   /* what it is */                 \
    X(ms, "%.4f", t.ms)                   /* median time, ms */            \
    X(ms_q1, "%.4f", t.q[0])              /* first quartile */             \
    X(ms_q3, "%.4f", t.q[1])              /* third quartile */             \
    X(gbs, "%.2f", gbs)                   /* bytes moved / time, GB/s */   \
    X(runs, "%d", t.runs)                 /* timed runs in this process */ \
    X(check, "%s", check)                 /* ok, FAIL or - */              \
    X(gpu, "%s", gpu_name)                /* the GPU's name */             \
    X(date, "%s", date)                   /* the day of the run, UTC */    \
    X(commit, "%s", from_env("BOOK_COMMIT")) /* source revision */         \
    X(code_hash, "%s", from_env("BOOK_CODE_HASH")) /* the code */          \
    X(run, "%s", run_number())            /* which of the runs */

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

static void print_header(void)
{
    const char *sep = "";
#define NAME(name, format, value) printf("%s" #name, sep), sep = ",";
    JOB_COLUMNS(NAME)
#undef NAME
    printf("\n");
}

static void print_row(const char *name, const char *what,
                      struct timing t, double bytes, const char *check)
{
    double gbs = bytes > 0 ? bytes / (t.ms * 1e6) : 0;
    if (!csv) {
        printf("%-16s %10.4f ms  %7.2f GB/s  %-6s %s\n", name, t.ms, gbs,
               check, what);
        fflush(stdout);
        return;
    }
    char date[16];
    const char *sep = "";
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
#define VALUE(name, format, value) printf("%s" format, sep, value), sep = ",";
    JOB_COLUMNS(VALUE)
#undef VALUE
    printf("\n");
    fflush(stdout);
}
struct copy_arg { void *dst, *src, *dst2, *src2; size_t bytes; };

static void copy_one(void *p)
{
    struct copy_arg *c = (struct copy_arg *)p;
    CUDA_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDefault,
                               0));
}

static void copy_both(void *p)
{
    struct copy_arg *c = (struct copy_arg *)p;
    static cudaStream_t s[2];
    static cudaEvent_t go, done[2];
    if (!s[0]) {
        unsigned f = cudaEventDisableTiming;
        CUDA_CHECK(cudaEventCreateWithFlags(&go, f));
        for (int i = 0; i < 2; i++) {
            CUDA_CHECK(cudaStreamCreateWithFlags(&s[i],
                                                 cudaStreamNonBlocking));
            CUDA_CHECK(cudaEventCreateWithFlags(&done[i], f));
        }
    }
    CUDA_CHECK(cudaEventRecord(go, 0));
    for (int i = 0; i < 2; i++) {
        CUDA_CHECK(cudaStreamWaitEvent(s[i], go, 0));
        CUDA_CHECK(cudaMemcpyAsync(i ? c->dst2 : c->dst,
                                   i ? c->src2 : c->src, c->bytes,
                                   cudaMemcpyDefault, s[i]));
        CUDA_CHECK(cudaEventRecord(done[i], s[i]));
        CUDA_CHECK(cudaStreamWaitEvent(0, done[i], 0));
    }
}

static void measure_link(void)
{
    size_t bytes = (size_t)64 << 20;
    void *dev, *dev2, *pinned, *pinned2, *pageable = malloc(bytes);
    if (!pageable)
        exit(3);
    memset(pageable, 1, bytes);
    CUDA_CHECK(cudaMalloc(&dev, bytes));
    CUDA_CHECK(cudaMalloc(&dev2, bytes));
    CUDA_CHECK(cudaMallocHost(&pinned, bytes));
    CUDA_CHECK(cudaMallocHost(&pinned2, bytes));
    memset(pinned, 1, bytes);
    struct copy_arg c[5] = { { dev, pageable }, { pageable, dev },
                             { dev, pinned }, { pinned, dev },
                             { dev, pinned, pinned2, dev2 } };
    const char *name[5] = { "h2d_pageable", "d2h_pageable", "h2d_pinned",
                            "d2h_pinned", "both_pinned" };
    const char *what[5] = { "64 MiB in from pageable memory",
                            "64 MiB out to pageable memory",
                            "64 MiB in from pinned memory",
                            "64 MiB out to pinned memory",
                            "64 MiB in and 64 MiB out at once" };
    for (int i = 0; i < 5; i++) {
        c[i].bytes = bytes;
        struct timing t = time_gpu(i < 4 ? copy_one : copy_both, &c[i], 15);
        print_row(name[i], what[i], t, i < 4 ? bytes : 2.0 * bytes, "-");
    }
    CUDA_CHECK(cudaFree(dev));
    CUDA_CHECK(cudaFree(dev2));
    CUDA_CHECK(cudaFreeHost(pinned));
    CUDA_CHECK(cudaFreeHost(pinned2));
    free(pageable);
}
static void measure_alloc(int n)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float t[3][7];
    for (int r = 0; r < 7; r++) {
        void *p[3];
        double t0 = wall_ms();
        for (int i = 0; i < 3; i++) {
            if (!(p[i] = malloc(bytes)))
                exit(3);
            memset(p[i], 0, bytes);
        }
        t[0][r] = (float)(wall_ms() - t0);
        for (int i = 0; i < 3; i++)
            free(p[i]);
        t0 = wall_ms();
        for (int i = 0; i < 3; i++)
            CUDA_CHECK(cudaMallocHost(&p[i], bytes));
        t[1][r] = (float)(wall_ms() - t0);
        for (int i = 0; i < 3; i++)
            CUDA_CHECK(cudaFreeHost(p[i]));
        t0 = wall_ms();
        for (int i = 0; i < 3; i++)
            CUDA_CHECK(cudaMalloc(&p[i], bytes));
        t[2][r] = (float)(wall_ms() - t0);
        for (int i = 0; i < 3; i++)
            CUDA_CHECK(cudaFree(p[i]));
    }
    const char *kind[3] = { "pageable", "pinned", "device" };
    const char *what[3] = { "malloc and first touch of A and B and C",
                            "cudaMallocHost of A and B and C",
                            "cudaMalloc of A and B and C" };
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "alloc_%s_%d", kind[i], n);
        print_row(name, what[i], summarize(t[i], 7), 0, "-");
    }
}
struct panel_arg { struct job j; int panels; };

static void panel_job(void *p)
{
    struct panel_arg *a = (struct panel_arg *)p;
    job_overlap(&a->j, a->panels, NULL);
}

static struct job make_job(int m, int n, int k, int pinned)
{
    struct job j = { m, n, k, k, n, n, 1.0f, 0.0f };
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    float *h[4];
    for (int i = 0; i < 4; i++) {
        size_t c = i == 0 ? na : i == 1 ? nb : nc;
        if (pinned)
            CUDA_CHECK(cudaMallocHost((void **)&h[i], c * sizeof(float)));
        else if (!(h[i] = (float *)malloc(c * sizeof(float))))
            exit(3);
    }
    fill_random(h[0], na, 11);
    fill_random(h[1], nb, 12);
    fill_random(h[2], nc, 13);
    j.ha = h[0];  j.hb = h[1];  j.hc0 = h[2];  j.hc = h[3];
    CUDA_CHECK(cudaMalloc((void **)&j.da, na * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&j.db, nb * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&j.dc, nc * sizeof(float)));
    return j;
}

static void free_job(struct job *j, int pinned)
{
    float *h[4] = { (float *)j->ha, (float *)j->hb, (float *)j->hc0,
                    j->hc };
    for (int i = 0; i < 4; i++)
        if (pinned)
            CUDA_CHECK(cudaFreeHost(h[i]));
        else
            free(h[i]);
    CUDA_CHECK(cudaFree(j->da));
    CUDA_CHECK(cudaFree(j->db));
    CUDA_CHECK(cudaFree(j->dc));
}

static int same_product(const float *x, const float *y, size_t count,
                        int k)
{
    double d = 0, s = 0;
    for (size_t i = 0; i < count; i++) {
        double e = (double)x[i] - y[i];
        if (!isfinite(y[i]) || !isfinite(x[i]))
            return 0;
        d += e * e;
        s += (double)x[i] * x[i];
    }
    return sqrt(d) <= 1e-6 * sqrt((double)k) * sqrt(s);
}

static int measure_panels(int n)
{
    static const int counts[] = { 1, 2, 4, 8, 16, 32 };
    struct panel_arg a = { make_job(n, n, n, 1), 1 };
    size_t nc = (size_t)n * n;
    float *first = (float *)malloc(nc * sizeof(float));
    int failures = 0;
    if (!first)
        exit(3);
    for (int i = 0; i < COUNT_OF(counts); i++) {
        char name[32], what[64];
        a.panels = counts[i];
        memset(a.j.hc, 0xff, nc * sizeof(float));       /* poison */
        struct timing t = time_gpu(panel_job, &a, 15);
        CUDA_CHECK(cudaDeviceSynchronize());
        if (i == 0)
            memcpy(first, a.j.hc, nc * sizeof(float));
        const char *ck = same_product(first, a.j.hc, nc, n) ? "ok"
                                                            : "FAIL";
        failures += ck[0] == 'F';
        snprintf(name, sizeof name, "panels_%d_%d", n, counts[i]);
        snprintf(what, sizeof what, "the overlapped job with %d panels",
                 counts[i]);
        print_row(name, what, t, 12.0 * n * n, ck);
    }
    free(first);
    free_job(&a.j, 1);
    return failures;
}
struct batch {
    int s, count;
    float *ha, *hb, *hc;          /* pinned: count products, back to back */
    float *da, *db, *dc;
};

struct cpu_share { const struct batch *b; int first, step; };

static void *cpu_products(void *p)
{
    const struct cpu_share *w = (const struct cpu_share *)p;
    const struct batch *b = w->b;
    size_t e = (size_t)b->s * b->s;
    for (int i = w->first; i < b->count; i += w->step)
        cpu_sgemm(b->s, b->s, b->s, 1.0f, b->ha + i * e, b->s,
                  b->hb + i * e, b->s, 0.0f, b->hc + i * e, b->s);
    return NULL;
}

static void cpu_batch(const struct batch *b, int threads)
{
    pthread_t t[256];
    struct cpu_share w[256];
    for (int i = 0; i < threads; i++) {
        w[i].b = b;
        w[i].first = i;
        w[i].step = threads;
        if (pthread_create(&t[i], NULL, cpu_products, &w[i]) != 0) {
            fprintf(stderr, "%s: cannot start a thread\n", progname);
            exit(3);
        }
    }
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
}
struct batch_arg { const struct batch *b; int how; };
enum { PER_PRODUCT, WHOLE_BATCH, RESIDENT };

static void gpu_batch(void *p)
{
    const struct batch_arg *w = (const struct batch_arg *)p;
    const struct batch *b = w->b;
    size_t e = (size_t)b->s * b->s, bytes = e * b->count * sizeof(float);
    cudaMemcpyKind in = cudaMemcpyHostToDevice;
    if (w->how == WHOLE_BATCH) {
        CUDA_CHECK(cudaMemcpyAsync(b->da, b->ha, bytes, in, 0));
        CUDA_CHECK(cudaMemcpyAsync(b->db, b->hb, bytes, in, 0));
    }
    for (int i = 0; i < b->count; i++) {
        struct job j = { b->s, b->s, b->s, b->s, b->s, b->s, 1.0f, 0.0f,
                         b->ha + i * e, b->hb + i * e, NULL, b->hc + i * e,
                         b->da + i * e, b->db + i * e, b->dc + i * e };
        if (w->how == PER_PRODUCT) {
            job_serial(&j, 1, NULL);
            CUDA_CHECK(cudaStreamSynchronize(0));
        } else {
            run_tuned(j.m, j.n, j.k, 1.0f, j.da, j.lda, j.db, j.ldb, 0.0f,
                      j.dc, j.ldc);
        }
    }
    if (w->how == WHOLE_BATCH)
        CUDA_CHECK(cudaMemcpyAsync(b->hc, b->dc, bytes,
                                   cudaMemcpyDeviceToHost, 0));
}
static const char *check_batch(const struct batch *b)
{
    int s = b->s;
    size_t e = (size_t)s * s;
    double *ref = (double *)malloc(e * sizeof(double));
    double *scale = (double *)malloc(e * sizeof(double));
    int ok = ref && scale;
    for (int t = 0; ok && t < 2; t++) {
        size_t i = t ? b->count - 1 : 0;
        double d = 0, r2 = 0;
        reference_product(s, s, s, b->ha + i * e, s, b->hb + i * e, s, ref,
                          scale);
        for (size_t x = 0; x < e; x++) {
            double c = b->hc[i * e + x];
            d += (c - ref[x]) * (c - ref[x]);
            r2 += ref[x] * ref[x];
        }
        ok = sqrt(d) <= 1e-6 * sqrt((double)s) * sqrt(r2);
    }
    free(ref);
    free(scale);
    return ok ? "ok" : "FAIL";
}
static int measure_small(int s, int threads)
{
    struct batch b = { s };
    size_t e = (size_t)s * s;
    int failures = 0;
    b.count = (int)((64 << 20) / (2 * e * sizeof(float)));
    b.count = b.count < 8 ? 8 : b.count > 4096 ? 4096 : b.count;
    size_t bytes = e * b.count * sizeof(float);
    CUDA_CHECK(cudaMallocHost((void **)&b.ha, bytes));
    CUDA_CHECK(cudaMallocHost((void **)&b.hb, bytes));
    CUDA_CHECK(cudaMallocHost((void **)&b.hc, bytes));
    CUDA_CHECK(cudaMalloc((void **)&b.da, bytes));
    CUDA_CHECK(cudaMalloc((void **)&b.db, bytes));
    CUDA_CHECK(cudaMalloc((void **)&b.dc, bytes));
    fill_random(b.ha, e * b.count, 21 + s);
    fill_random(b.hb, e * b.count, 22 + s);
    {
        float t[2][5];
        struct batch few = b;
        few.count = 1;
        double t0 = wall_ms();
        cpu_batch(&few, 1);
        double one = wall_ms() - t0;
        few.count = (int)(500 / (one + 1e-3)) + 1;
        few.count = few.count > b.count ? b.count : few.count;
        for (int r = 0; r < 3; r++) {
            t0 = wall_ms();
            cpu_batch(&few, 1);
            t[0][r] = (float)((wall_ms() - t0) / few.count);
            t0 = wall_ms();
            cpu_batch(&b, threads);
            t[1][r] = (float)((wall_ms() - t0) / b.count);
        }
        char nm[32];
        snprintf(nm, sizeof nm, "cpu_%d", s);
        print_row(nm, "serial C version per product", summarize(t[0], 3), 0,
                  "-");
        snprintf(nm, sizeof nm, "cpumt_%d", s);
        print_row(nm, "the C version on every core per product",
                  summarize(t[1], 3), 0, "-");
    }
    static const char *name[3] = { "job", "batch", "resident" };
    static const char *what[3] = {
        "pinned job per product waiting for each",
        "one copy in; a launch per product; one copy out",
        "a launch per product on data on the GPU" };
    for (int how = PER_PRODUCT; how <= RESIDENT; how++) {
        struct batch_arg w = { &b, how };
        char nm[32];
        memset(b.hc, 0xff, e * b.count * sizeof(float));      /* poison */
        if (how == RESIDENT)      /* its results stay on the GPU */
            CUDA_CHECK(cudaMemset(b.dc, 0xff, e * b.count * sizeof(float)));
        struct timing t = time_gpu(gpu_batch, &w, 5);
        CUDA_CHECK(cudaDeviceSynchronize());
        if (how == RESIDENT)
            CUDA_CHECK(cudaMemcpy(b.hc, b.dc, e * b.count * sizeof(float),
                                  cudaMemcpyDeviceToHost));
        const char *ck = check_batch(&b);
        failures += ck[0] == 'F';
        t.ms /= b.count;  t.q[0] /= b.count;  t.q[1] /= b.count;
        snprintf(nm, sizeof nm, "%s_%d", name[how], s);
        print_row(nm, what[how], t, how == RESIDENT ? 0 : 12.0 * e, ck);
    }
    CUDA_CHECK(cudaFreeHost(b.ha));
    CUDA_CHECK(cudaFreeHost(b.hb));
    CUDA_CHECK(cudaFreeHost(b.hc));
    CUDA_CHECK(cudaFree(b.da));
    CUDA_CHECK(cudaFree(b.db));
    CUDA_CHECK(cudaFree(b.dc));
    return failures;
}
#define EVENT_COLUMNS(X)                                                   \
    X(flow, "%s", flow)                   /* serial or overlapped */       \
    X(lane, "%s", lane[t->lane[i]])       /* copy in, multiply, copy out */\
    X(panel, "%d", t->panel[i])           /* the panel, -1 for B */        \
    X(start_ms, "%.4f", s)                /* from the first step, ms */    \
    X(end_ms, "%.4f", e)                  /* (the step's end) */

static void print_trace(const char *flow, struct trace *t)
{
    static const char *lane[3] = { "copy in", "multiply", "copy out" };
    float s, e;
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < t->steps; i++) {
        const char *sep = "";
        CUDA_CHECK(cudaEventElapsedTime(&s, t->start[0], t->start[i]));
        CUDA_CHECK(cudaEventElapsedTime(&e, t->start[0], t->stop[i]));
#define VALUE(name, format, value) printf("%s" format, sep, value), sep = ",";
        EVENT_COLUMNS(VALUE)
#undef VALUE
        printf("\n");
    }
}

static void trace_jobs(void)
{
    static struct trace t;
    struct job j = make_job(4096, 4096, 4096, 1);
    for (int i = 0; i < MAX_STEPS; i++) {
        CUDA_CHECK(cudaEventCreate(&t.start[i]));
        CUDA_CHECK(cudaEventCreate(&t.stop[i]));
    }
    const char *sep = "";
#define NAME(name, format, value) printf("%s" #name, sep), sep = ",";
    EVENT_COLUMNS(NAME)
#undef NAME
    printf("\n");
    for (int f = 0; f < 2; f++) {
        for (int r = 0; r < 2; r++) {      /* a warm-up, then the trace */
            t.steps = 0;
            if (f == 0)
                job_serial(&j, 1, r ? &t : NULL);
            else
                job_overlap(&j, panels_for(j.m), r ? &t : NULL);
        }
        print_trace(f == 0 ? "serial" : "overlapped", &t);
    }
    free_job(&j, 1);
}
int main(int argc, char **argv)
{
    int n = 0, events = 0, failures = 0;
    struct cudaDeviceProp prop;
    harness_name(argv[0]);
    int list = 0, parse_only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            printf("usage: %s [--csv | --events] [--list] [--parse-only]\n"
                   "measures the link, allocations, the overlapped job's "
                   "panels, and small\nproducts on the CPU and the GPU; "
                   "--events prints a trace of a 4096^3 job\n", progname);
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
        printf("link      64 MiB each way, pageable and pinned (h2d_*, d2h_*,"
               " both_pinned)\n"
               "alloc     allocating and freeing 1024^2 and 4096^2 floats "
               "(alloc_*)\n"
               "panels    the overlapped job at 1024^3 and 4096^3, 1 to 32 "
               "panels (panels_*)\n"
               "small     32^3 to 512^3 on the CPU and the GPU (cpu_*, "
               "cpumt_*, job_*,\n          batch_*, resident_*)\n");
        return 0;
    }
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "%s: no CUDA GPU is available (%s)\n", progname,
                cudaGetErrorString(cudaGetDeviceCount(&n)));
        return 3;
    }
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 8) {
        fprintf(stderr, "%s: chapter 9's kernel needs compute capability "
                "8.0; the %s is %d.%d\n", progname, prop.name, prop.major,
                prop.minor);
        return 3;
    }
    snprintf(gpu_name, sizeof gpu_name, "%s", prop.name);
    if (events) {
        trace_jobs();
        return 0;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cores < 1 ? 1 : cores > 256 ? 256 : (int)cores;
    if (csv)
        print_header();
    measure_link();
    measure_alloc(1024);
    measure_alloc(4096);
    failures += measure_panels(1024);
    failures += measure_panels(4096);
    for (int s = 32; s <= 512; s *= 2)
        failures += measure_small(s, threads);
    return failures ? 1 : 0;
}
