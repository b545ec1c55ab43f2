/* harness.c: the measuring harness of the book (chapter 0). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cublas_v2.h>
#include "harness.h"

enum {
    EXIT_WRONG = 1,   /* a kernel computed a wrong result */
    EXIT_USAGE = 2,   /* bad command line, or a size that cannot fit */
    EXIT_CUDA = 3     /* no GPU, or a CUDA or cuBLAS call failed */
};

static const char *progname = "harness";
void harness_name(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    progname = slash ? slash + 1 : argv0;
}
void check_cuda(cudaError_t e, const char *call,
                const char *file, int line)
{
    if (e == cudaSuccess)
        return;
    fprintf(stderr, "%s: CUDA error: %s (%s) in %s at %s:%d\n",
            progname, cudaGetErrorString(e), cudaGetErrorName(e),
            call, file, line);
    exit(EXIT_CUDA);
}

static void check_cublas(cublasStatus_t s, const char *call, int line)
{
    if (s == CUBLAS_STATUS_SUCCESS)
        return;
    fprintf(stderr, "%s: cuBLAS error: %s in %s at line %d\n",
            progname, cublasGetStatusString(s), call, line);
    exit(EXIT_CUDA);
}
#define CUBLAS_CHECK(call) check_cublas((call), #call, __LINE__)
static int bad(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return 2;
}

static int read_long(const char *flag, const char *s, long lo,
                     long hi, long *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return bad(err, errlen, "%s: '%s' is not a whole number "
                   "from %ld to %ld", flag, s, lo, hi);
    *out = v;
    return 0;
}

static int read_float(const char *flag, const char *s, float *out,
                      char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite((float)v))
        return bad(err, errlen, "%s: '%s' is not a finite number",
                   flag, s);
    *out = (float)v;
    return 0;
}
static int read_sizes(const char *list, struct options *o,
                      char *err, size_t errlen)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        long s;
        if (read_long("--size", tok, 1, INT_MAX, &s, err, errlen))
            return 2;
        if (o->nshapes == MAX_SHAPES)
            return bad(err, errlen, "at most %d sizes", MAX_SHAPES);
        o->shapes[o->nshapes++] = (struct shape){ s, s, s };
    }
    if (o->nshapes == 0)
        return bad(err, errlen, "--size: '%s' has no size", list);
    return 0;
}
static int too_big(long rows, long cols, int pad)
{
    return (double)rows * (double)(cols + pad) > (double)INT_MAX;
}

static int check_shape(struct shape s, int pad, char *err,
                       size_t errlen)
{
    if (s.m > 65535 * 32 || s.n > 65535 * 32)
        return bad(err, errlen, "%dx%dx%d: M and N may be at most "
                   "65535 * 32 = 2097120", s.m, s.n, s.k);
    if (too_big(s.m, s.k, pad) || too_big(s.k, s.n, pad)
        || too_big(s.m, s.n, pad))
        return bad(err, errlen, "%dx%dx%d: a matrix would have more "
                   "than 2^31-1 elements, beyond 32-bit indexing",
                   s.m, s.n, s.k);
    return 0;
}

int parse_options(int argc, char **argv, struct options *o,
                  char *err, size_t errlen)
{
    long m = 0, n = 0, k = 0;
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->alpha = 1.0f;
    o->check = 1;
    err[0] = '\0';
    for (int i = 1; i < argc; i++) {
        char flag[64];
        const char *arg = argv[i], *value = NULL, *eq = strchr(arg, '=');
        size_t flen = eq && arg[0] == '-' && arg[1] == '-'
                      ? (size_t)(eq - arg) : strlen(arg);
        if (flen >= sizeof flag)
            flen = sizeof flag - 1;
        memcpy(flag, arg, flen);
        flag[flen] = '\0';
        if (eq && flen < strlen(arg))
            value = eq + 1;
        #define NEED_VALUE()                                                  \
            do {                                                              \
                if (!value && i + 1 < argc)                                   \
                    value = argv[++i];                                        \
                if (!value)                                                   \
                    return bad(err, errlen, "%s needs a value", flag);        \
            } while (0)
        if (!strcmp(flag, "--help") || !strcmp(flag, "-h")) {
            o->help = 1;
            return 1;
        } else if (!strcmp(flag, "--size")) {
            NEED_VALUE();
            if (read_sizes(value, o, err, errlen))
                return 2;
        } else if (!strcmp(flag, "-m") || !strcmp(flag, "-n")
                   || !strcmp(flag, "-k")) {
            long *dim = flag[1] == 'm' ? &m : flag[1] == 'n' ? &n : &k;
            NEED_VALUE();
            if (read_long(flag, value, 1, INT_MAX, dim, err, errlen))
                return 2;
        } else if (!strcmp(flag, "--reps")) {
            long r;
            NEED_VALUE();
            if (read_long(flag, value, 1, 100000, &r, err, errlen))
                return 2;
            o->reps = (int)r;
        } else if (!strcmp(flag, "--seed")) {
                   long s;
                   NEED_VALUE();
                   if (read_long(flag, value, 0, LONG_MAX, &s, err, errlen))
                       return 2;
                   o->seed = (unsigned long long)s;
               } else if (!strcmp(flag, "--alpha") || !strcmp(flag, "--beta")) {
                   NEED_VALUE();
                   if (read_float(flag, value, flag[2] == 'a' ? &o->alpha : &o->beta,
                                  err, errlen))
                       return 2;
               } else if (!strcmp(flag, "--pad")) {
                   long p;
                   NEED_VALUE();
                   if (read_long(flag, value, 0, 1024, &p, err, errlen))
                       return 2;
                   o->pad = (int)p;
               } else if (!strcmp(flag, "--kernel")) {
                   NEED_VALUE();
                   o->kernel = value;
               } else if (!strcmp(flag, "--sms")) {
                   long v;
                   NEED_VALUE();
                   if (read_long(flag, value, 1, 100000, &v, err, errlen))
                       return 2;
                   o->sms = (int)v;
               } else if (!strcmp(flag, "--smem-limit")) {
                   NEED_VALUE();
                   if (read_long(flag, value, 1024, 1L << 30, &o->smem_limit, err,
                                 errlen))
                       return 2;
               } else if (!strcmp(flag, "--no-check") && !value) {
                   o->check = 0;
               } else if (!strcmp(flag, "--csv") && !value) {
                   o->csv = 1;
               } else if (!strcmp(flag, "--list") && !value) {
                   o->list = 1;
               } else if (!strcmp(flag, "--cpu") && !value) {
                   o->cpu = 1;
               } else if (!strcmp(flag, "--ceilings") && !value) {
                   o->ceilings = 1;
               } else if (!strcmp(flag, "--parse-only") && !value) {
                   o->parse_only = 1;
               } else {
                   return bad(err, errlen, "unknown option '%s' (try --help)", arg);
               }
    }
    if (m || n || k) {
        if (!m || !n || !k)
            return bad(err, errlen, "-m, -n and -k go together");
        if (o->nshapes == MAX_SHAPES)
            return bad(err, errlen, "at most %d sizes", MAX_SHAPES);
        o->shapes[o->nshapes++] = (struct shape){ m, n, k };
    }
    if (o->nshapes == 0) {
        static const int gpu[] = { 512, 1024, 4096 }, cpu[] = { 256, 512 };
        const int *def = o->cpu ? cpu : gpu;
        int count = o->cpu ? COUNT_OF(cpu) : COUNT_OF(gpu);
        for (int i = 0; i < count; i++)
            o->shapes[o->nshapes++] = (struct shape){ def[i], def[i],
                                                      def[i] };
    }
    for (int i = 0; i < o->nshapes; i++)
        if (check_shape(o->shapes[i], o->pad, err, errlen))
            return 2;
    return 0;
}
static unsigned long long splitmix64(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void fill_random(float *x, size_t count, unsigned long long seed)
{
    for (size_t i = 0; i < count; i++) {
        double r = (double)(splitmix64(&seed) >> 40);  /* 24 bits */
        x[i] = (float)((r + 0.5) / 8388608.0 - 1.0);
    }
}
struct gpu {
    char name[256], driver[64], cuda[16];
    int sms, clock_mhz, major, minor, fp32_lanes;
    int regs_per_sm, threads_per_sm, blocks_per_sm;
    size_t l2_bytes, mem_bytes;
    size_t smem_per_sm, smem_per_block, smem_optin, smem_reserved;
    double peak_tflops;
};

static int fp32_lanes_per_sm(int major, int minor)
{
    if (major == 7 || (major == 8 && minor == 0)
        || (major == 6 && minor == 0))
        return 64;
    return 128;
}

static void read_driver_version(char *out, size_t len)
{
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    char line[512], *p = NULL, *save, *w;
    int v = 0;
    if (f && fgets(line, sizeof line, f))
        p = strstr(line, "Kernel Module");
    if (f)
        fclose(f);
    for (w = p ? strtok_r(p, " \t\n", &save) : NULL; w;
         w = strtok_r(NULL, " \t\n", &save))
        if (*w >= '0' && *w <= '9' && strchr(w, '.')) {
            snprintf(out, len, "%s", w);
            return;
        }
    CUDA_CHECK(cudaDriverGetVersion(&v));
    snprintf(out, len, "cuda-%d.%d", v / 1000, v % 1000 / 10);
}

static void gpu_open(struct gpu *g)
{
    int count = 0, khz = 0, rt = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        fprintf(stderr, "%s: no CUDA GPU is available (%s)\n",
                progname, e != cudaSuccess ? cudaGetErrorString(e)
                                           : "no devices");
        exit(EXIT_CUDA);
    }
    struct cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
    CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    CUDA_CHECK(cudaRuntimeGetVersion(&rt));
    snprintf(g->name, sizeof g->name, "%s", p.name);
    snprintf(g->cuda, sizeof g->cuda, "%d.%d", rt / 1000, rt % 1000 / 10);
    read_driver_version(g->driver, sizeof g->driver);
    g->sms = p.multiProcessorCount;
    g->clock_mhz = khz / 1000;
    g->major = p.major;
    g->minor = p.minor;
    g->l2_bytes = (size_t)p.l2CacheSize;
    g->mem_bytes = p.totalGlobalMem;
    g->fp32_lanes = fp32_lanes_per_sm(p.major, p.minor);
    g->peak_tflops = 2.0 * g->sms * g->fp32_lanes * g->clock_mhz * 1e6
                     / 1e12;
    g->regs_per_sm = p.regsPerMultiprocessor;
    g->threads_per_sm = p.maxThreadsPerMultiProcessor;
    g->blocks_per_sm = p.maxBlocksPerMultiProcessor;
    g->smem_per_sm = p.sharedMemPerMultiprocessor;
    g->smem_per_block = p.sharedMemPerBlock;
    g->smem_optin = p.sharedMemPerBlockOptin;
    g->smem_reserved = p.reservedSharedMemPerBlock;
}
static int gpu_can_run(const struct gpu *g, const char *target)
{
    int sm = 0, have = g->major * 10 + g->minor;
    char suffix = '\0';
    if (sscanf(target, "sm_%d%c", &sm, &suffix) < 1)
        return 1;
    int exact = suffix == 'a';
    if (exact ? have == sm : have >= sm)
        return 1;
    fprintf(stderr, "%s: built for %s, which needs a GPU of compute "
            "capability %s%d.%d; the %s is %d.%d\n", progname, target,
            exact ? "" : "at least ", sm / 10, sm % 10, g->name,
            g->major, g->minor);
    return 0;
}
static int the_sms;          /* what sm_count answers, once known */
static size_t the_smem;      /* what smem_limit answers, once known */
static char emulated[64];    /* "sms 82 smem 101376", or empty */

int sm_count(void)
{
    if (!the_sms) {
        int dev;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&the_sms,
                   cudaDevAttrMultiProcessorCount, dev));
    }
    return the_sms;
}

size_t smem_limit(void)
{
    if (!the_smem) {
        int dev, bytes;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&bytes,
                   cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        the_smem = (size_t)bytes;
    }
    return the_smem;
}

int hopper_kernels(void)
{
    int dev, major, minor;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    return major == 9 && minor == 0;    /* sm_90a's code runs there alone */
}

static int emulate(const struct gpu *g, const struct options *o)
{
    if (o->sms > g->sms || (size_t)o->smem_limit > g->smem_optin) {
        fprintf(stderr, "%s: the %s has %d SMs and %zu bytes of shared "
                "memory per block; --sms and --smem-limit may only "
                "ask for less\n", progname, g->name, g->sms,
                g->smem_optin);
        return 0;
    }
    the_sms = o->sms ? o->sms : g->sms;
    the_smem = o->smem_limit ? (size_t)o->smem_limit : g->smem_optin;
    if (o->sms || o->smem_limit)
        snprintf(emulated, sizeof emulated, "sms %d smem %zu", the_sms,
                 the_smem);
    return 1;
}
static int runs_here(const struct chapter *ch, const struct gpu *g,
                     const struct kernel *kn, char *why, size_t len)
{
    int built = 0, have = g->major * 10 + g->minor;
    if (sscanf(ch->target, "sm_%d", &built) == 1 && built < have)
        have = built;
    if (kn->exact ? kn->needs != g->major * 10 + g->minor : kn->needs > have) {
        snprintf(why, len, "its instructions need compute capability "
                 "%d.%d, and this program runs %d.%d code",
                 kn->needs / 10, kn->needs % 10, have / 10, have % 10);
        return 0;
    }
    if (kn->smem > smem_limit()) {
        snprintf(why, len, "it needs %zu KiB of shared memory per "
                 "block, this GPU allows %zu KiB%s", kn->smem / 1024,
                 smem_limit() / 1024, emulated[0] ? " (--smem-limit)"
                                                  : "");
        return 0;
    }
    return 1;
}
static cublasHandle_t blas;

static void blas_open(void)
{
    CUBLAS_CHECK(cublasCreate(&blas));
    CUBLAS_CHECK(cublasSetMathMode(blas, CUBLAS_DEFAULT_MATH));
}

static void cublas_gemm(cublasComputeType_t compute, cudaDataType_t in,
                        int m, int n, int k, float alpha, const void *a, int lda,
                        const void *b, int ldb, float beta, float *c, int ldc)
{
    CUBLAS_CHECK(cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N,
                              n, m, k, &alpha, b, in, ldb, a, in, lda,
                              &beta, c, CUDA_R_32F, ldc, compute,
                              CUBLAS_GEMM_DEFAULT));
}

void cublas_sgemm(int m, int n, int k, float alpha,
                  const float *a, int lda, const float *b, int ldb,
                  float beta, float *c, int ldc)
{
    cublas_gemm(CUBLAS_COMPUTE_32F, CUDA_R_32F, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
static void cublas_tf32(int m, int n, int k, float alpha,
                        const float *a, int lda, const float *b, int ldb,
                        float beta, float *c, int ldc)
{
    cublas_gemm(CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F,
                m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static void cublas_bf16(int m, int n, int k, float alpha,
                        const bf16_bits *a, int lda,
                        const bf16_bits *b, int ldb,
                        float beta, float *c, int ldc)
{
    cublas_gemm(CUBLAS_COMPUTE_32F, CUDA_R_16BF, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static const struct kernel baseline[NPRECISIONS] = {
    [FP32] = { .name = "cublas", .run = cublas_sgemm },
    [TF32] = { .name = "cublas_tf32", .precision = TF32,
               .run = cublas_tf32 },
    [BF16] = { .name = "cublas_bf16", .precision = BF16,
               .run_bf16 = cublas_bf16 },
    [FP32_3XTF32] = { .name = "cublas", .run = cublas_sgemm },
};

static const char *const precision_name[NPRECISIONS] = {
    [FP32] = "fp32", [TF32] = "tf32", [BF16] = "bf16",
    [FP32_3XTF32] = "3xtf32",
};
void cpu_sgemm(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc)
{
    for (int row = 0; row < m; row++)
        for (int col = 0; col < n; col++) {
            float acc = 0.0f;
            for (int p = 0; p < k; p++)
                acc += a[row * lda + p] * b[p * ldb + col];
            float *cij = &c[row * ldc + col];
            *cij = beta == 0.0f ? alpha * acc : alpha * acc + beta * *cij;
        }
}
void reference_product(int m, int n, int k, const float *a, int lda,
                       const float *b, int ldb, double *out,
                       double *scale)
{
    for (size_t i = 0; i < (size_t)m * n; i++)
        out[i] = scale[i] = 0.0;
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++) {
            double aip = a[(size_t)i * lda + p];
            const float *brow = b + (size_t)p * ldb;
            double *orow = out + (size_t)i * n, *srow = scale + (size_t)i * n;
            for (int j = 0; j < n; j++) {
                double t = aip * brow[j];
                orow[j] += t;
                srow[j] += t * t;
            }
        }
    for (size_t i = 0; i < (size_t)m * n; i++)
        scale[i] = sqrt(scale[i]);
}
static double input_roundoff(enum precision p)
{
    return p == TF32 ? ldexp(1.0, -11) : p == BF16 ? ldexp(1.0, -8) : 0;
}

double tolerance(enum precision p, int k)
{
    return 4 * input_roundoff(p)
           + ldexp(fmax(64.0, 16.0 * sqrt((double)k)), -24);
}

double tolerance_max(enum precision p, int k)
{
    return tolerance(p, k) + 12 * input_roundoff(p);
}
struct verdict verify(const float *c, int ldc, const double *ref,
                      const double *scale, int m, int n, int k,
                      enum precision prec)
{
    struct verdict v = { 0, 0, tolerance(prec, k),
                         tolerance_max(prec, k), 0, 0, 0, 0 };
    double num = 0, den = 0, worst = -1, refmax = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            size_t ij = (size_t)i * n + j;
            double x = c[(size_t)i * ldc + j], r = ref[ij];
            double d = isfinite(x) ? fabs(x - r) : INFINITY;
            if (!isfinite(x))
                v.nonfinite++;
            else
                num += d * d;
            den += r * r;
            refmax = fmax(refmax, fabs(r));
            if (scale)
                d /= scale[ij];
            if (d > worst) {
                worst = d;
                v.worst_i = i;
                v.worst_j = j;
            }
        }
    v.err = den > 0 ? sqrt(num / den) : sqrt(num);
    v.max_err = scale ? worst : refmax > 0 ? worst / refmax : worst;
    v.ok = v.nonfinite == 0 && v.err <= v.tol && v.max_err <= v.tol_max;
    return v;
}
enum { MAX_SETS = 256 };

struct bufset {
    float *a, *b, *c;
    bf16_bits *a16, *b16;      /* only when a BF16 kernel will run */
};

struct problem {
    struct shape s;
    int lda, ldb, ldc, nsets, bf16;
    struct bufset set[MAX_SETS];
    float *c0;                 /* device: the initial C for beta != 0 */
    float *host_a, *host_b, *host_c0, *host_c;
    bf16_bits *host_a16, *host_b16;
    double *ref0, *ref;        /* alpha AB, and alpha AB + beta C0 */
    double *scale0, *scale;    /* their elements' scales */
};

static size_t set_bytes(const struct problem *p)
{
    size_t ab = (size_t)p->s.m * p->lda + (size_t)p->s.k * p->ldb;
    return sizeof(float) * (ab + (size_t)p->s.m * p->ldc)
           + (p->bf16 ? sizeof(bf16_bits) * ab : 0);
}

static int choose_sets(const struct problem *p, const struct gpu *g)
{
    size_t free_b, total_b, per = set_bytes(p);
    size_t extra = sizeof(float) * (size_t)p->s.m * p->ldc
                    + sizeof(double) * ((size_t)p->s.m * p->s.k
                                        + (size_t)p->s.k * p->s.n
                                        + (size_t)p->s.m * p->s.n);
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    double room = 0.8 * (double)free_b - (double)extra;
    if (room < 2.0 * per) {
        fprintf(stderr, "%s: %dx%dx%d needs %.1f GiB of GPU memory; "
                "%.1f GiB are free\n", progname, p->s.m, p->s.n, p->s.k,
                (2.0 * per + extra) / 1073741824.0,
                free_b / 1073741824.0);
        exit(EXIT_USAGE);
    }
    double want = ceil(2.5 * (double)g->l2_bytes / (double)per);
    double fit = floor(room / (double)per);
    want = want < 2 ? 2 : want > MAX_SETS ? MAX_SETS : want;
    return (int)(want < fit ? want : fit);
}
static bf16_bits to_bf16(float x)
{
    unsigned int u;
    memcpy(&u, &x, sizeof u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (bf16_bits)(u >> 16);
}

static void round_to_bf16(const float *x, bf16_bits *y, size_t count)
{
    for (size_t i = 0; i < count; i++)
        y[i] = to_bf16(x[i]);
}
static void *host_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "%s: out of host memory (%zu bytes)\n",
                progname, bytes);
        exit(EXIT_CUDA);
    }
    return p;
}

static void problem_init(struct problem *p, struct shape s,
                         const struct options *o, const struct gpu *g,
                         int bf16)
{
    memset(p, 0, sizeof *p);
    p->s = s;
    p->lda = s.k + o->pad;
    p->ldb = s.n + o->pad;
    p->ldc = s.n + o->pad;
    p->bf16 = bf16;
    p->nsets = choose_sets(p, g);
    size_t na = (size_t)s.m * p->lda, nb = (size_t)s.k * p->ldb;
    size_t nc = (size_t)s.m * p->ldc;
    p->host_a = host_alloc(na * sizeof(float));
    p->host_b = host_alloc(nb * sizeof(float));
    p->host_c0 = host_alloc(nc * sizeof(float));
    p->host_c = host_alloc(nc * sizeof(float));
    if (bf16) {
        p->host_a16 = host_alloc(na * sizeof(bf16_bits));
        p->host_b16 = host_alloc(nb * sizeof(bf16_bits));
    }
    fill_random(p->host_c0, nc, o->seed * 7919 + 3);
    CUDA_CHECK(cudaMalloc((void **)&p->c0, nc * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(p->c0, p->host_c0, nc * sizeof(float),
                          cudaMemcpyHostToDevice));
    for (int i = p->nsets - 1; i >= 0; i--) {
        struct bufset *t = &p->set[i];
        fill_random(p->host_a, na, o->seed * 7919 + 2 * (unsigned)i + 5);
        fill_random(p->host_b, nb, o->seed * 7919 + 2 * (unsigned)i + 6);
        CUDA_CHECK(cudaMalloc((void **)&t->a, na * sizeof(float)));
        CUDA_CHECK(cudaMalloc((void **)&t->b, nb * sizeof(float)));
        CUDA_CHECK(cudaMalloc((void **)&t->c, nc * sizeof(float)));
        CUDA_CHECK(cudaMemcpy(t->a, p->host_a, na * sizeof(float),
                              cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(t->b, p->host_b, nb * sizeof(float),
                              cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(t->c, p->c0, nc * sizeof(float),
                              cudaMemcpyDeviceToDevice));
        if (bf16) {
            round_to_bf16(p->host_a, p->host_a16, na);
            round_to_bf16(p->host_b, p->host_b16, nb);
            CUDA_CHECK(cudaMalloc((void **)&t->a16, na * sizeof(bf16_bits)));
            CUDA_CHECK(cudaMalloc((void **)&t->b16, nb * sizeof(bf16_bits)));
            CUDA_CHECK(cudaMemcpy(t->a16, p->host_a16, na * sizeof(bf16_bits),
                                  cudaMemcpyHostToDevice));
            CUDA_CHECK(cudaMemcpy(t->b16, p->host_b16, nb * sizeof(bf16_bits),
                                  cudaMemcpyHostToDevice));
        }
    }
}
static void widen(const float *x, int rows, int cols, int ld,
                  double *y, int square)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            double v = x[(size_t)i * ld + j];
            y[(size_t)i * cols + j] = square ? v * v : v;
        }
}

static void dgemm_to_host(const struct problem *p, const double *a,
                          const double *b, double *c, double *out)
{
    int m = p->s.m, n = p->s.n, k = p->s.k;
    const double one = 1.0, zero = 0.0;
    CUBLAS_CHECK(cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k,
                             &one, b, n, a, k, &zero, c, n));
    CUDA_CHECK(cudaMemcpy(out, c, sizeof(double) * (size_t)m * n,
                          cudaMemcpyDeviceToHost));
}

static void gpu_reference(const struct problem *p, double *prod,
                          double *scale)
{
    int m = p->s.m, n = p->s.n, k = p->s.k;
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    double *ha = host_alloc(na * sizeof(double));
    double *hb = host_alloc(nb * sizeof(double));
    double *a, *b, *c;
    CUDA_CHECK(cudaMalloc((void **)&a, na * sizeof(double)));
    CUDA_CHECK(cudaMalloc((void **)&b, nb * sizeof(double)));
    CUDA_CHECK(cudaMalloc((void **)&c, nc * sizeof(double)));
    for (int square = 0; square <= 1; square++) {
        widen(p->host_a, m, k, p->lda, ha, square);
        widen(p->host_b, k, n, p->ldb, hb, square);
        CUDA_CHECK(cudaMemcpy(a, ha, na * sizeof(double),
                              cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(b, hb, nb * sizeof(double),
                              cudaMemcpyHostToDevice));
        dgemm_to_host(p, a, b, c, square ? scale : prod);
    }
    for (size_t i = 0; i < nc; i++)
        scale[i] = sqrt(scale[i]);
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(c));
    free(ha);
    free(hb);
}

static void problem_references(struct problem *p, float alpha,
                               float beta)
{
    int m = p->s.m, n = p->s.n;
    size_t nr = (size_t)m * n;
    p->ref0 = host_alloc(nr * sizeof(double));
    p->ref = host_alloc(nr * sizeof(double));
    p->scale0 = host_alloc(nr * sizeof(double));
    p->scale = host_alloc(nr * sizeof(double));
    gpu_reference(p, p->ref0, p->scale0);
    for (size_t i = 0; i < nr; i++) {
        double c0 = (double)beta * p->host_c0[i / n * p->ldc + i % n];
        p->ref0[i] *= alpha;
        p->ref[i] = p->ref0[i] + c0;
        p->scale0[i] *= fabs(alpha);
        p->scale[i] = p->scale0[i] + fabs(c0);
    }
}
static void problem_free(struct problem *p)
{
    for (int i = 0; i < p->nsets; i++) {
        CUDA_CHECK(cudaFree(p->set[i].a));
        CUDA_CHECK(cudaFree(p->set[i].b));
        CUDA_CHECK(cudaFree(p->set[i].c));
        CUDA_CHECK(cudaFree(p->set[i].a16));
        CUDA_CHECK(cudaFree(p->set[i].b16));
    }
    CUDA_CHECK(cudaFree(p->c0));
    free(p->host_a);
    free(p->host_b);
    free(p->host_c0);
    free(p->host_c);
    free(p->host_a16);
    free(p->host_b16);
    free(p->ref0);
    free(p->ref);
    free(p->scale0);
    free(p->scale);
}
static void run_on_set(const struct kernel *kn, const struct problem *p,
                       int i, float alpha, float beta)
{
    const struct bufset *s = &p->set[i % p->nsets];
    if (kn->precision == BF16)
        kn->run_bf16(p->s.m, p->s.n, p->s.k, alpha, s->a16, p->lda,
                     s->b16, p->ldb, beta, s->c, p->ldc);
    else
        kn->run(p->s.m, p->s.n, p->s.k, alpha, s->a, p->lda, s->b,
                p->ldb, beta, s->c, p->ldc);
}
static char choice[160];
static int choosing;

void chose(const char *fmt, ...)
{
    va_list ap;
    if (!choosing)
        return;
    va_start(ap, fmt);
    vsnprintf(choice, sizeof choice, fmt, ap);
    va_end(ap);
}
void cannot_run(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", progname);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(EXIT_CUDA);
}
static double now_ms(void);

static double setup_kernel(const struct kernel *kn,
                           const struct problem *p)
{
    if (!kn->setup)
        return 0.0;
    double t0 = now_ms();
    for (int i = 0; i < p->nsets; i++) {
        const struct bufset *s = &p->set[i];
        struct operands ops = { s->a, s->b, s->a16, s->b16, s->c,
                                p->lda, p->ldb, p->ldc };
        kn->setup(p->s.m, p->s.n, p->s.k, &ops);
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    return (now_ms() - t0) / p->nsets;
}
static struct verdict check_once(const struct kernel *kn,
                                 struct problem *p, float alpha,
                                 float beta, const double *ref,
                                 const double *scale)
{
    struct bufset *s = &p->set[0];
    size_t cbytes = sizeof(float) * (size_t)p->s.m * p->ldc;
    if (beta == 0.0f)
        CUDA_CHECK(cudaMemset(s->c, 0xff, cbytes));   /* NaN */
    else
        CUDA_CHECK(cudaMemcpy(s->c, p->c0, cbytes,
                              cudaMemcpyDeviceToDevice));
    run_on_set(kn, p, 0, alpha, beta);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(p->host_c, s->c, cbytes,
                          cudaMemcpyDeviceToHost));
    return verify(p->host_c, p->ldc, ref, scale, p->s.m, p->s.n,
                  p->s.k, kn->precision);
}

static struct verdict check_kernel(const struct kernel *kn,
                                   struct problem *p, float alpha,
                                   float beta)
{
    struct verdict v = check_once(kn, p, alpha, 0.0f, p->ref0,
                                  p->scale0);
    if (beta != 0.0f) {
        struct verdict w = check_once(kn, p, alpha, beta, p->ref,
                                      p->scale);
        if (v.ok && (!w.ok || w.err > v.err))
            v = w;
    }
    return v;
}
static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

double median_ms(float *t, int n)
{
    qsort(t, n, sizeof *t, cmp_float);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}
void quartiles(const float *t, int n, double q[2])
{
    for (int j = 0; j < 2; j++) {
        double x = (j ? 0.75 : 0.25) * (n - 1);
        int i = (int)x;
        q[j] = i + 1 < n ? t[i] + (x - i) * (t[i + 1] - t[i]) : t[i];
    }
}
int timed_reps(float first_ms)
{
    int reps = (int)(300.0 / (first_ms > 1e-3f ? first_ms : 1e-3f));
    return reps < 5 ? 5 : reps > 200 ? 200 : reps;
}
static double time_kernel(const struct kernel *kn,
                          const struct problem *p, float alpha,
                          float beta, int reps, double q[2])
{
    enum { MAX_REPS = 100000 };
    cudaEvent_t e[2];
    float first;
    CUDA_CHECK(cudaEventCreate(&e[0]));
    CUDA_CHECK(cudaEventCreate(&e[1]));
    for (int i = 0; i < 2; i++)
        run_on_set(kn, p, i, alpha, beta);
    CUDA_CHECK(cudaEventRecord(e[0], 0));
    run_on_set(kn, p, 2, alpha, beta);
    CUDA_CHECK(cudaEventRecord(e[1], 0));
    CUDA_CHECK(cudaEventSynchronize(e[1]));
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventElapsedTime(&first, e[0], e[1]));
    if (reps <= 0)
        reps = timed_reps(first);
    if (reps > MAX_REPS)
        reps = MAX_REPS;
    cudaEvent_t *ev = host_alloc(sizeof(cudaEvent_t) * (reps + 1));
    float *t = host_alloc(sizeof(float) * reps);
    for (int i = 0; i <= reps; i++)
        CUDA_CHECK(cudaEventCreate(&ev[i]));
    for (int i = 0; i < reps; i++) {
        CUDA_CHECK(cudaEventRecord(ev[i], 0));
        run_on_set(kn, p, 3 + i, alpha, beta);
    }
    CUDA_CHECK(cudaEventRecord(ev[reps], 0));
    CUDA_CHECK(cudaEventSynchronize(ev[reps]));
    CUDA_CHECK(cudaGetLastError());
    for (int i = 0; i < reps; i++)
        CUDA_CHECK(cudaEventElapsedTime(&t[i], ev[i], ev[i + 1]));
    double median = median_ms(t, reps);
    if (q)
        quartiles(t, reps, q);
    for (int i = 0; i <= reps; i++)
        CUDA_CHECK(cudaEventDestroy(ev[i]));
    free(ev);
    free(t);
    CUDA_CHECK(cudaEventDestroy(e[0]));
    CUDA_CHECK(cudaEventDestroy(e[1]));
    return median;
}
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double time_cpu(gemm_fn *run, struct problem *p, float alpha,
                       float beta, int reps, double q[2])
{
    float t[64];
    run(p->s.m, p->s.n, p->s.k, alpha, p->host_a, p->lda, p->host_b,
        p->ldb, beta, p->host_c, p->ldc);
    double t0 = now_ms();
    run(p->s.m, p->s.n, p->s.k, alpha, p->host_a, p->lda, p->host_b,
        p->ldb, beta, p->host_c, p->ldc);
    double first = now_ms() - t0;
    if (reps <= 0)
        reps = first > 100 ? 3 : (int)(300 / (first + 1e-3)) + 3;
    reps = reps > 64 ? 64 : reps;
    for (int i = 0; i < reps; i++) {
        t0 = now_ms();
        run(p->s.m, p->s.n, p->s.k, alpha, p->host_a, p->lda, p->host_b,
            p->ldb, beta, p->host_c, p->ldc);
        t[i] = (float)(now_ms() - t0);
    }
    double median = median_ms(t, reps);
    quartiles(t, reps, q);
    return median;
}
struct report_row {
    const struct kernel *kn;
    struct shape s;
    double ms, cublas_ms, setup_ms;
    double q[2], cublas_q[2];  /* first and third quartiles of the times */
    struct verdict v;
    int checked;
    char choice[160];          /* what the launch chose, or empty */
};

static const char *env_or(const char *name, const char *dflt)
{
    const char *v = getenv(name);
    return v && *v ? v : dflt;
}

#define REPORT_COLUMNS(X)                                                  \
    X(chapter, "%d", ch->number)          /* the chapter's number */       \
    X(kernel, "%s", r->kn->name)          /* the kernel's name */          \
    X(precision, "%s", precision_name[prec]) /* fp32, tf32, bf16, ... */   \
    X(m, "%d", r->s.m)                    /* rows of A and C */            \
    X(n, "%d", r->s.n)                    /* columns of B and C */         \
    X(k, "%d", r->s.k)                    /* columns of A, rows of B */    \
    X(alpha, "%g", o->alpha)              /* C = alpha A B + beta C */     \
    X(beta, "%g", o->beta)                /* (see alpha) */                \
    X(ms, "%.4f", r->ms)                  /* median time, ms */            \
    X(tflops, "%.4f", tf)                 /* 2MNK / ms */                  \
    X(baseline, "%s", baseline[prec].name) /* cuBLAS routine, same run */  \
    X(cublas_ms, "%.4f", r->cublas_ms)    /* its median time, ms */        \
    X(cublas_tflops, "%.4f", cf)          /* its rate */                   \
    X(pct_cublas, "%.2f", 100 * tf / cf)  /* tflops / cublas_tflops, % */  \
    X(pct_peak, "%s", prec == FP32 ? peak : "") /* of the FP32 peak, % */  \
    X(error, "%s", err)                   /* relative error vs float64 */  \
    X(max_error, "%s", maxerr)            /* worst element's error */      \
    X(ref, "%s", r->checked ? "fp64" : "-") /* the reference */            \
    X(check, "%s", verdict)               /* ok, FAIL or skipped */        \
    X(setup_ms, "%.4f", r->setup_ms)      /* setup per buffer set, ms */   \
    X(gpu, "%s", g->name)                 /* the GPU's name */             \
    X(sms, "%d", g->sms)                  /* its SMs (or --sms) */         \
    X(clock_mhz, "%d", g->clock_mhz)      /* its boost clock */            \
    X(driver, "%s", g->driver)            /* the driver's version */       \
    X(cuda, "%s", g->cuda)                /* the runtime's version */      \
    X(date, "%s", date)                   /* the day of the run, UTC */    \
    X(commit, "%s", env_or("BOOK_COMMIT", "unknown")) /* source revision */\
    X(code_hash, "%s", env_or("BOOK_CODE_HASH", "unknown")) /* the code */ \
    X(ms_q1, "%.4f", r->q[0])             /* first quartile of the times */\
    X(ms_q3, "%.4f", r->q[1])             /* third quartile */             \
    X(cublas_ms_q1, "%.4f", r->cublas_q[0]) /* cuBLAS's first quartile */  \
    X(cublas_ms_q3, "%.4f", r->cublas_q[1]) /* and third */                \
    X(emulated, "%s", emulated)           /* --sms/--smem-limit, or empty */\
    X(choice, "%s", r->choice)            /* what the launch chose */      \
    X(run, "%s", env_or("BOOK_RUN", "1")) /* which of the runs */
static void print_header(const struct chapter *ch, const struct gpu *g,
                         int csv)
{
    if (csv) {
        const char *sep = "";
#define NAME(name, format, value) printf("%s" #name, sep), sep = ",";
        REPORT_COLUMNS(NAME)
#undef NAME
        printf("\n");
        return;
    }
    printf("Chapter %d: %s\n", ch->number, ch->title);
    printf("GPU: %s, %d SMs, %d MHz, FP32 peak %.1f TFLOP/s\n\n",
           g->name, g->sms, g->clock_mhz, g->peak_tflops);
    printf("%6s %6s %6s  %-10s %-6s %9s %8s %8s %7s %6s %8s  %s\n",
           "M", "N", "K", "kernel", "prec", "ms", "TFLOP/s", "cuBLAS",
           "%cuBLAS", "%peak", "error", "check");
}
static void print_row(const struct chapter *ch, const struct gpu *g,
                      const struct options *o, const struct report_row *r)
{
    double flop = 2.0 * r->s.m * r->s.n * r->s.k;
    double tf = flop / (r->ms * 1e9), cf = flop / (r->cublas_ms * 1e9);
    enum precision prec = r->kn->precision;
    const char *verdict = !r->checked ? "skipped"
                          : r->v.ok ? "ok" : "FAIL";
    char err[32] = "-", maxerr[32] = "-", peak[32] = "-";
    if (r->checked) {
        snprintf(err, sizeof err, "%.1e", r->v.err);
        snprintf(maxerr, sizeof maxerr, "%.1e", r->v.max_err);
    }
    if (prec == FP32)
        snprintf(peak, sizeof peak, "%.2f", 100 * tf / g->peak_tflops);
    if (o->csv) {
        char date[16];
        const char *sep = "";
        time_t now = time(NULL);
        strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
        #define VALUE(name, format, value) printf("%s" format, sep, value), sep = ",";
        REPORT_COLUMNS(VALUE)
        #undef VALUE
        printf("\n");
    } else {
        printf("%6d %6d %6d  %-10s %-6s %9.3f %8.2f %8.2f %6.1f%% %5.5s%% "
               "%8s  %s", r->s.m, r->s.n, r->s.k, r->kn->name,
               precision_name[prec], r->ms, tf, cf, 100 * tf / cf, peak,
               err, verdict);
        printf("\n");
        if (r->choice[0])
            printf("%22s chose: %s\n", "", r->choice);
    }
    fflush(stdout);
}
static double copy_tbs(void)
{
    size_t bytes = (size_t)1 << 30;
    float *x, *y, ms[10];
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaMalloc((void **)&x, bytes));
    CUDA_CHECK(cudaMalloc((void **)&y, bytes));
    CUDA_CHECK(cudaMemset(x, 1, bytes));
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    for (int i = -2; i < 10; i++) {      /* two warm-up copies */
        CUDA_CHECK(cudaEventRecord(e0, 0));
        CUDA_CHECK(cudaMemcpy(y, x, bytes, cudaMemcpyDeviceToDevice));
        CUDA_CHECK(cudaEventRecord(e1, 0));
        CUDA_CHECK(cudaEventSynchronize(e1));
        if (i >= 0)
            CUDA_CHECK(cudaEventElapsedTime(&ms[i], e0, e1));
    }
    CUDA_CHECK(cudaFree(x));
    CUDA_CHECK(cudaFree(y));
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    return 2.0 * bytes / (median_ms(ms, 10) * 1e-3) / 1e12;
}
#define CEILING_COLUMNS(X)                                                 \
    X(gpu, "%s", g->name)                 /* the GPU's name */             \
    X(sms, "%d", g->sms)                  /* its SMs */                    \
    X(clock_mhz, "%d", g->clock_mhz)      /* its boost clock */            \
    X(l2_mb, "%.0f", g->l2_bytes / 1e6)   /* L2 cache, MB */               \
    X(mem_gb, "%.1f", g->mem_bytes / 1073741824.0) /* memory, GiB */       \
    X(peak_fp32_tflops, "%.1f", g->peak_tflops) /* datasheet FP32 peak */  \
    X(ffma_tflops, "%.1f", ffma)          /* FFMA measured */              \
    X(copy_tbs, "%.2f", copy)             /* device copy, TB/s */          \
    X(cublas_tflops, "%.1f", cublas)      /* cuBLAS SGEMM at 4096^3 */     \
    X(cublas_size, "%d", 4096)            /* (its size) */                 \
    X(driver, "%s", g->driver)            /* the driver's version */       \
    X(cuda, "%s", g->cuda)                /* the runtime's version */      \
    X(date, "%s", date)                   /* the day of the run, UTC */    \
    X(commit, "%s", env_or("BOOK_COMMIT", "unknown")) /* source revision */\
    X(code_hash, "%s", env_or("BOOK_CODE_HASH", "unknown")) /* the code */ \
    X(fp32_lanes, "%d", g->fp32_lanes)    /* FP32 lanes per SM */          \
    X(regs_per_sm, "%d", g->regs_per_sm)  /* registers per SM */           \
    X(threads_per_sm, "%d", g->threads_per_sm) /* threads per SM */        \
    X(blocks_per_sm, "%d", g->blocks_per_sm) /* blocks per SM */           \
    X(smem_per_sm, "%zu", g->smem_per_sm) /* shared memory per SM */       \
    X(smem_per_block, "%zu", g->smem_per_block) /* per block */            \
    X(smem_per_block_optin, "%zu", g->smem_optin) /* per block, opted in */\
    X(smem_reserved_per_block, "%zu", g->smem_reserved) /* by the system */

static int measure_ceilings(const struct chapter *ch,
                            const struct gpu *g, const struct options *o)
{
    struct problem p;
    struct shape s = { 4096, 4096, 4096 };
    problem_init(&p, s, o, g, 0);
    double ms = time_kernel(&baseline[FP32], &p, 1.0f, 0.0f, o->reps,
                            NULL);
    problem_free(&p);
    double cublas = 2.0 * 4096.0 * 4096.0 * 4096.0 / (ms * 1e9);
    double ffma = ch->ffma_tflops(g->sms, g->threads_per_sm);
    double copy = copy_tbs();
    char date[16];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    if (o->csv) {
        const char *sep = "";
    #define NAME(name, format, value) printf("%s" #name, sep), sep = ",";
        CEILING_COLUMNS(NAME)
    #undef NAME
        sep = "\n";
    #define VALUE(name, format, value) printf("%s" format, sep, value), sep = ",";
        CEILING_COLUMNS(VALUE)
    #undef VALUE
        printf("\n");
    } else {
        printf("%s: %d SMs at %d MHz, L2 %.0f MB\n", g->name, g->sms,
               g->clock_mhz, g->l2_bytes / 1e6);
        printf("FP32 peak (datasheet) %6.1f TFLOP/s\n", g->peak_tflops);
        printf("FFMA measured         %6.1f TFLOP/s\n", ffma);
        printf("cuBLAS SGEMM 4096^3   %6.1f TFLOP/s\n", cublas);
        printf("device copy           %6.2f TB/s (read + write)\n", copy);
        printf("ridge point           %6.1f FLOP/byte\n",
               g->peak_tflops / copy);
        printf("per SM: %d registers, %d threads, %d blocks, %zu KiB of "
               "shared memory\n", g->regs_per_sm, g->threads_per_sm,
               g->blocks_per_sm, g->smem_per_sm / 1024);
    }
    return 0;
}
static int selected(const struct options *o, const struct kernel *kn)
{
    return !o->kernel || !strcmp(o->kernel, kn->name);
}

static int run_shape(const struct chapter *ch, const struct gpu *g,
                     const struct options *o, struct shape s)
{
    struct problem p;
    double base_ms[NPRECISIONS] = { 0 }, base_q[NPRECISIONS][2];
    int failures = 0, bf16 = 0;
    for (int i = 0; i < ch->nkernels; i++)
        bf16 |= selected(o, &ch->kernels[i])
                && ch->kernels[i].precision == BF16;
    problem_init(&p, s, o, g, bf16 && !o->cpu);
    if (o->check)
        problem_references(&p, o->alpha, o->beta);
    if (o->cpu) {
        static const struct kernel cpu = { .name = "cpu" };
        struct report_row r = { .kn = &cpu, .s = s, .checked = o->check };
        r.cublas_ms = time_kernel(&baseline[FP32], &p, o->alpha, o->beta,
                                  o->reps, r.cublas_q);
        r.ms = time_cpu(ch->cpu, &p, o->alpha, 0.0f, o->reps, r.q);
        if (o->check)
            r.v = verify(p.host_c, p.ldc, p.ref0, p.scale0, s.m, s.n, s.k,
                         FP32);
        print_row(ch, g, o, &r);
        if (o->check && !r.v.ok) {
            fprintf(stderr, "%s: %s at %dx%dx%d: WRONG: error %.2e (tolerance "
                    "%.1e), worst element %.2e (tolerance %.1e) at C[%d][%d], "
                    "%ld not finite\n", progname, r.kn->name, s.m, s.n, s.k,
                    r.v.err, r.v.tol, r.v.max_err, r.v.tol_max, r.v.worst_i,
                    r.v.worst_j, r.v.nonfinite);
            failures++;
        }
    } else {
        for (int i = 0; i < ch->nkernels; i++) {
            const struct kernel *kn = &ch->kernels[i];
            if (selected(o, kn)) {
                enum precision prec = kn->precision;
                struct report_row r = { .kn = kn, .s = s, .checked = o->check };
                if (base_ms[prec] == 0)
                    base_ms[prec] = time_kernel(&baseline[prec], &p, o->alpha,
                                                o->beta, o->reps, base_q[prec]);
                r.cublas_ms = base_ms[prec];
                r.cublas_q[0] = base_q[prec][0];
                r.cublas_q[1] = base_q[prec][1];
                r.setup_ms = setup_kernel(kn, &p);
                choice[0] = '\0';
                choosing = 1;
                if (o->check)
                    r.v = check_kernel(kn, &p, o->alpha, o->beta);
                choosing = 0;
                snprintf(r.choice, sizeof r.choice, "%s", choice);
                r.ms = time_kernel(kn, &p, o->alpha, o->beta, o->reps, r.q);
                if (kn->teardown)
                    kn->teardown();
                print_row(ch, g, o, &r);
                if (o->check && !r.v.ok) {
                    fprintf(stderr, "%s: %s at %dx%dx%d: WRONG: error %.2e (tolerance "
                            "%.1e), worst element %.2e (tolerance %.1e) at C[%d][%d], "
                            "%ld not finite\n", progname, r.kn->name, s.m, s.n, s.k,
                            r.v.err, r.v.tol, r.v.max_err, r.v.tol_max, r.v.worst_i,
                            r.v.worst_j, r.v.nonfinite);
                    failures++;
                }
            }
        }
    }
    problem_free(&p);
    return failures;
}
static void usage(const struct chapter *ch, FILE *f);

int harness_main(int argc, char **argv, const struct chapter *ch)
{
    struct options o;
    char err[256];
    harness_name(argv[0]);
    int rc = parse_options(argc, argv, &o, err, sizeof err);
    if (rc == 1) {
        if (!o.parse_only)
            usage(ch, stdout);
        return 0;
    }
    for (int i = 0; i < ch->nkernels; i++) {
        const struct kernel *kn = &ch->kernels[i];
        if (!(kn->precision == BF16 ? kn->run_bf16 != NULL : kn->run != NULL)) {
            fprintf(stderr, "%s: kernel '%s' has no launch function for %s "
                    "(.%s)\n", progname, kn->name,
                    precision_name[kn->precision],
                    kn->precision == BF16 ? "run_bf16" : "run");
            return EXIT_USAGE;
        }
    }
    if (rc == 0 && o.cpu && !ch->cpu)
        rc = bad(err, sizeof err, "--cpu is only available in ch0");
    if (rc == 0 && o.ceilings && !ch->ffma_tflops)
        rc = bad(err, sizeof err, "--ceilings is only available in ch0");
    if (rc == 0 && o.kernel) {
        int found = 0;
        for (int i = 0; i < ch->nkernels; i++)
            found |= !strcmp(o.kernel, ch->kernels[i].name);
        if (!found)
            rc = bad(err, sizeof err, "no kernel '%s' in this chapter "
                     "(try --help)", o.kernel);
    }
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", progname, err);
        return EXIT_USAGE;
    }
    if (o.parse_only)
        return 0;
    if (o.list) {
        for (int i = 0; i < ch->nkernels; i++) {
            const struct kernel *kn = &ch->kernels[i];
            printf("%s\t%s\t%s\t%s\t%d\n", kn->name,
                   precision_name[kn->precision], kn->function ? kn->function : "-",
                   kn->what, kn->needs);
        }
        return 0;
    }
    struct gpu g;
    struct chapter here = *ch;
    int failures = 0;
    gpu_open(&g);
    if (!gpu_can_run(&g, ch->target))
        return EXIT_CUDA;
    if (!emulate(&g, &o))
        return EXIT_USAGE;
    blas_open();
    if (o.ceilings)
        return measure_ceilings(ch, &g, &o);
    struct kernel *runnable = (struct kernel *)malloc(
        (ch->nkernels + 1) * sizeof *runnable);
    if (!runnable) {
        fprintf(stderr, "%s: out of host memory\n", progname);
        return EXIT_CUDA;
    }
    here.kernels = runnable;
    here.nkernels = 0;
    for (int i = 0; i < ch->nkernels; i++) {
        const struct kernel *kn = &ch->kernels[i];
        char why[200];
        if (selected(&o, kn) && !runs_here(ch, &g, kn, why, sizeof why))
            fprintf(o.csv ? stderr : stdout, "%s: leaving out %s: %s\n",
                    progname, kn->name, why);
        else
            runnable[here.nkernels++] = *kn;
    }
    print_header(ch, &g, o.csv);
    for (int i = 0; i < o.nshapes; i++)
        failures += run_shape(&here, &g, &o, o.shapes[i]);
    free(runnable);
    CUBLAS_CHECK(cublasDestroy(blas));
    if (failures && !o.csv)
        printf("\n%d check(s) FAILED\n", failures);
    return failures ? EXIT_WRONG : 0;
}
static void usage(const struct chapter *ch, FILE *f)
{
    fprintf(f, "usage: %s [options]\n"
            "Chapter %d: %s. Measures C = alpha*A*B + beta*C (row-major"
            " fp32)\nagainst cuBLAS in the same precision.\n\n"
            "  --size S[,S...]  square sizes (default 512,1024,4096)\n"
            "  -m M -n N -k K   one problem of any shape\n"
            "  --reps R         timed runs (default: about 0.3 s)\n"
            "  --seed X         random seed (default 1)\n"
            "  --alpha A        (default 1)\n"
            "  --beta B         (default 0)\n"
            "  --kernel NAME    only this kernel\n"
            "  --pad P          pad each leading dimension by P\n"
            "  --sms N          choose tiles as for N SMs\n"
            "  --smem-limit B   ... and B bytes of shared memory\n"
            "  --no-check       skip verification\n"
            "  --csv            CSV output\n"
            "  --list           list the kernels (tab-separated)\n"
            "  --parse-only     check the options, exit 0 (or 2)\n",
            progname, ch->number, ch->title);
    if (ch->cpu)
        fprintf(f, "  --cpu            time the serial C version\n"
                "  --ceilings       measure FFMA, copy and cuBLAS\n");
    fprintf(f, "\nKernels:\n");
    for (int i = 0; i < ch->nkernels; i++)
        fprintf(f, "  %-10s %-6s %s\n", ch->kernels[i].name,
                precision_name[ch->kernels[i].precision],
                ch->kernels[i].what);
    fprintf(f, "\nBuilt for %s.\n", ch->target);
    fprintf(f, "\nExit: 0 ok, 1 wrong result, 2 bad usage, "
            "3 CUDA error or no GPU.\n");
}
