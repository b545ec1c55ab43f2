/* libspeed.cu: the library's speed at 4096^3 and 8192^3 beside cuBLAS
   of the same precision in the same process (chapter 14's
   microbenchmark).  libspeed [--csv] [--list] [--parse-only]; exit 0:
   every check passed, 1: one failed or a call failed, 2: bad
   arguments, 3: no GPU it can measure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include "harness.h"
#include "sgemmbook.h"

#define FAIL_IF(bad, what, said) do { if (bad) { fprintf(stderr, \
    "libspeed: %s: %s\n", what, said); exit(1); } } while (0)
#define CUDA(call) do { cudaError_t e_ = (call); \
    FAIL_IF(e_ != cudaSuccess, #call, cudaGetErrorString(e_)); } while (0)
#define BLAS(call) do { cublasStatus_t s_ = (call); \
    FAIL_IF(s_ != CUBLAS_STATUS_SUCCESS, #call, cublasGetStatusString(s_)); } while (0)
#define BOOK(call) do { sgemmbook_status s_ = (call); \
    FAIL_IF(s_ != SGEMMBOOK_SUCCESS, #call, sgemmbook_status_string(s_)); } while (0)

enum { MAX_REPS = 200, MAX_SETS = 8 };   /* timed_reps's most */
static int csv;
static char gpu_name[256];
static const char *const precision_word[] = { "fp32", "tf32", "3xtf32", "bf16" };

static const char *from_env(const char *name, const char *none)
{
    const char *v = getenv(name);
    return v && *v ? v : none;
}

#define LIBSPEED_COLUMNS(X)                                                \
    X(chapter, "%d", 14)                  /* the chapter */                \
    X(name, "%s", name)                   /* the measurement */            \
    X(what, "\"%s\"", what)               /* what it is, quoted */         \
    X(gpus, "%d", 1)                      /* GPUs it ran on */             \
    X(ms, "%.4f", med)                    /* median time, ms */            \
    X(ms_q1, "%.4f", qr[0])               /* first quartile */             \
    X(ms_q3, "%.4f", qr[1])               /* third quartile */             \
    X(tflops, "%.2f", flops / (med * 1e9)) /* the product's rate */        \
    X(gbs, "%.2f", bytes / (med * 1e6))   /* A, B and C once / time */     \
    X(pct_cublas, "%.2f", pct)            /* of cuBLAS's median, or 100 */ \
    X(runs, "%d", reps)                   /* timed runs in this process */ \
    X(check, "%s", check)                 /* ok, FAIL or - */              \
    X(gpu, "%s", gpu_name)                /* the GPU's name */             \
    X(date, "%s", date)                   /* the day of the run, UTC */    \
    X(commit, "%s", from_env("BOOK_COMMIT", "unknown")) /* revision */     \
    X(code_hash, "%s", from_env("BOOK_CODE_HASH", "unknown")) /* code */   \
    X(run, "%s", from_env("BOOK_RUN", "1")) /* which of the runs */

static void print_speed(const char *name, const char *what, float *t,
                        int reps, double flops, double bytes, double pct,
                        const char *check)
{
    char date[16];
    const char *sep = "";
    time_t now = time(NULL);
    double med = median_ms(t, reps), qr[2];    /* the harness's; sorts t */
    quartiles(t, reps, qr);
    if (!csv) {
        printf("%-22s %9.4f ms %8.2f TFLOP/s %6.1f %%  %-4s %s\n", name,
               med, flops / (med * 1e9), pct, check, what);
        return;
    }
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
#define VALUE(col, format, value) printf("%s" format, sep, value), sep = ",";
    LIBSPEED_COLUMNS(VALUE)
#undef VALUE
    printf("\n");
}
struct operands_of {
    int n, sets;
    float *a[MAX_SETS], *b[MAX_SETS], *c[MAX_SETS], *ref;
    __nv_bfloat16 *a16[MAX_SETS], *b16[MAX_SETS];
};

__global__ void round_to_bf16(const float *x, __nv_bfloat16 *y, size_t count)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = __float2bfloat16_rn(x[i]);
}

static void make_operands(struct operands_of *o, int n)
{
    int l2;
    size_t count = (size_t)n * n;
    CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    o->n = n;
    o->sets = (int)(3.0 * l2 / (count * 8.0)) + 1;    /* BF16's A, B; C */
    o->sets = o->sets < 2 ? 2 : o->sets > MAX_SETS ? MAX_SETS : o->sets;
    float *host = (float *)malloc(count * 4);
    FAIL_IF(!host, "malloc", "out of host memory");
    CUDA(cudaMalloc((void **)&o->ref, count * 4));
    srand(14);
    for (int s = 0; s < o->sets; s++) {
        float **x[2] = { &o->a[s], &o->b[s] };
        __nv_bfloat16 **y[2] = { &o->a16[s], &o->b16[s] };
        CUDA(cudaMalloc((void **)&o->c[s], count * 4));
        for (int m = 0; m < 2; m++) {
            for (size_t i = 0; i < count; i++)
                host[i] = 2.0f * rand() / RAND_MAX - 1.0f;
            CUDA(cudaMalloc((void **)x[m], count * 4));
            CUDA(cudaMalloc((void **)y[m], count * 2));
            CUDA(cudaMemcpy(*x[m], host, count * 4, cudaMemcpyHostToDevice));
            round_to_bf16<<<1024, 256>>>(*x[m], *y[m], count);
            CUDA(cudaGetLastError());
        }
    }
    free(host);
}

static void free_operands(struct operands_of *o)
{
    for (int s = 0; s < o->sets; s++) {
        CUDA(cudaFree(o->a[s]));
        CUDA(cudaFree(o->b[s]));
        CUDA(cudaFree(o->c[s]));
        CUDA(cudaFree(o->a16[s]));
        CUDA(cudaFree(o->b16[s]));
    }
    CUDA(cudaFree(o->ref));
}
static sgemmbook_status library_product(sgemmbook_handle h, sgemmbook_precision p,
                                        const struct operands_of *o, int s, float *c)
{
    int n = o->n, bf16 = p == SGEMMBOOK_BF16;
    return sgemmbook_gemm(h, p, n, n, n, 1.0f,
                          bf16 ? (const void *)o->a16[s] : o->a[s], n,
                          bf16 ? (const void *)o->b16[s] : o->b[s], n, 0.0f, c, n);
}

static void cublas_product(cublasHandle_t blas, sgemmbook_precision p,
                           const struct operands_of *o, int s, float *c)
{
    const float one = 1.0f, zero = 0.0f;
    int n = o->n, bf16 = p == SGEMMBOOK_BF16;
    cudaDataType in = bf16 ? CUDA_R_16BF : CUDA_R_32F;
    cublasComputeType_t how = p == SGEMMBOOK_TF32
        ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    /* cuBLAS stores by columns: row-major C = AB is C^T = B^T A^T */
    BLAS(cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
                      bf16 ? (const void *)o->b16[s] : o->b[s], in, n,
                      bf16 ? (const void *)o->a16[s] : o->a[s], in, n,
                      &zero, c, CUDA_R_32F, n, how, CUBLAS_GEMM_DEFAULT));
}

struct side {                       /* what launch runs: the library's */
    sgemmbook_handle h;             /* product (h), or cuBLAS's (h NULL) */
    cublasHandle_t blas;
    sgemmbook_precision p;
    const struct operands_of *o;
};

static void launch(const struct side *x, int s)
{
    s %= x->o->sets;
    if (x->h)
        BOOK(library_product(x->h, x->p, x->o, s, x->o->c[s]));
    else
        cublas_product(x->blas, x->p, x->o, s, x->o->c[s]);
}

static int time_side(const struct side *x, float *t)   /* the count timed */
{
    cudaEvent_t e[MAX_REPS + 1];
    int reps;
    for (int i = 0; i <= MAX_REPS; i++)
        CUDA(cudaEventCreate(&e[i]));
    launch(x, 0);
    launch(x, 1);
    CUDA(cudaEventRecord(e[0], 0));
    launch(x, 2);
    CUDA(cudaEventRecord(e[1], 0));
    CUDA(cudaEventSynchronize(e[1]));
    CUDA(cudaEventElapsedTime(&t[0], e[0], e[1]));
    reps = timed_reps(t[0]);
    for (int r = 0; r < reps; r++) {
        CUDA(cudaEventRecord(e[r], 0));
        launch(x, 3 + r);
    }
    CUDA(cudaEventRecord(e[reps], 0));
    CUDA(cudaEventSynchronize(e[reps]));
    for (int r = 0; r < reps; r++)
        CUDA(cudaEventElapsedTime(&t[r], e[r], e[r + 1]));
    for (int i = 0; i <= MAX_REPS; i++)
        CUDA(cudaEventDestroy(e[i]));
    return reps;
}

static int measure(sgemmbook_handle h, cublasHandle_t blas,
                   sgemmbook_precision p, const struct operands_of *o,
                   const char *name, const char *what)
{
    float tl[MAX_REPS], tb[MAX_REPS];
    struct side lib = { h, blas, p, o }, blas_side = { NULL, blas, p, o };
    int n = o->n, rl = time_side(&lib, tl), rb = time_side(&blas_side, tb);
    BOOK(library_product(h, p, o, 0, o->c[0]));    /* the checked products */
    cublas_product(blas, p, o, 0, o->ref);
    size_t count = (size_t)n * n;
    float *c = (float *)malloc(count * 4), *ref = (float *)malloc(count * 4);
    FAIL_IF(!c || !ref, "malloc", "out of host memory");
    CUDA(cudaMemcpy(c, o->c[0], count * 4, cudaMemcpyDeviceToHost));
    CUDA(cudaMemcpy(ref, o->ref, count * 4, cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (size_t i = 0; i < count; i++) {
        double d = (double)c[i] - ref[i];
        num += d * d;
        den += (double)ref[i] * ref[i];
    }
    double tol = p == SGEMMBOOK_TF32 ? 1e-2 : 1e-5;
    int ok = den > 0 && sqrt(num / den) <= tol;    /* a NaN fails too */
    free(c);
    free(ref);
    double flops = 2.0 * n * n * (double)n;
    double bytes = (double)n * n * (2 * (p == SGEMMBOOK_BF16 ? 2 : 4) + 4);
    double pct = 100.0 * median_ms(tb, rb) / median_ms(tl, rl);
    char label[64], blabel[80], bwhat[128];
    snprintf(label, sizeof label, "%s_%s_%d", name, precision_word[p], n);
    snprintf(blabel, sizeof blabel, "%s_cublas", label);
    snprintf(bwhat, sizeof bwhat, "cuBLAS %s, beside %s",
             precision_word[p == SGEMMBOOK_3XTF32 ? SGEMMBOOK_FP32 : p], label);
    print_speed(label, what, tl, rl, flops, bytes, pct, ok ? "ok" : "FAIL");
    print_speed(blabel, bwhat, tb, rb, flops, bytes, 100.0, "-");
    return ok ? 0 : 1;
}
int main(int argc, char **argv)
{
    static const struct { const char *name, *what; int sms; long smem; } way[] = {
        { "hopper", "the library, Hopper's kernels", 0, 0 },
        { "ampere", "the library, the kernels of Ampere", 0, 0 },
        { "a100", "the kernels of Ampere as for an A100 (108 SMs)", 108, 166912 },
        { "rtx3090", "the kernels of Ampere as for an RTX 3090 (82 SMs)", 82, 101376 },
    };
    int major, failed = 0, gpus = 0, list = 0, parse_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--csv") == 0)
            csv = 1;
        else if (strcmp(argv[i], "--list") == 0)
            list = 1;
        else if (strcmp(argv[i], "--parse-only") == 0)
            parse_only = 1;
        else if (strcmp(argv[i], "--help") == 0) {
            printf("usage: libspeed [--csv] [--list] [--parse-only]\n"
                   "  the library at 4096^3 and 8192^3 beside cuBLAS, in each precision\n"
                   "  --csv: the rows of micro-ch14.csv; --list: the rows, unmeasured\n");
            return 0;
        } else {
            fprintf(stderr, "libspeed: %s: not an option (--csv, --list, --parse-only, "
                    "--help)\n", argv[i]);
            return 2;
        }
    }
    if (list) {
        for (int n = 4096; n <= 8192; n *= 2)
            for (int w = 0; w < 4; w++)
                for (int p = 0; p < 4; p++)
                    printf("%s_%s_%d (and _cublas)  %s\n", way[w].name,
                           precision_word[p], n, way[w].what);
        return 0;
    }
    if (parse_only)
        return 0;
    if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
        fprintf(stderr, "libspeed: no CUDA GPU is available\n");
        return 3;
    }
    sgemmbook_handle h[4];
    sgemmbook_status s = sgemmbook_create(&h[0]);
    if (s == SGEMMBOOK_NOT_SUPPORTED || s == SGEMMBOOK_NO_DEVICE) {
        fprintf(stderr, "libspeed: %s\n", sgemmbook_status_string(s));
        return 3;
    }
    FAIL_IF(s != SGEMMBOOK_SUCCESS, "sgemmbook_create", sgemmbook_status_string(s));
    CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    struct cudaDeviceProp prop;
    CUDA(cudaGetDeviceProperties(&prop, 0));
    snprintf(gpu_name, sizeof gpu_name, "%s", prop.name);
    for (int w = 1; w < 4; w++) {
        BOOK(sgemmbook_create(&h[w]));
        BOOK(sgemmbook_set_kernels(h[w], SGEMMBOOK_KERNELS_AMPERE));
        BOOK(sgemmbook_set_limits(h[w], way[w].sms, way[w].smem));
    }
    cublasHandle_t blas;
    BLAS(cublasCreate(&blas));
    if (csv) {
        const char *sep = "";
#define NAME(col, format, value) printf("%s" #col, sep), sep = ",";
        LIBSPEED_COLUMNS(NAME)
#undef NAME
        printf("\n");
    }
    for (int n = 4096; n <= 8192; n *= 2) {
        struct operands_of o;
        make_operands(&o, n);
        for (int w = major == 9 ? 0 : 1; w < 4; w++)
            for (int p = 0; p < 4; p++)
                failed += measure(h[w], blas, (sgemmbook_precision)p,
                                  &o, way[w].name, way[w].what);
        free_operands(&o);
    }
    BLAS(cublasDestroy(blas));
    for (int w = 0; w < 4; w++)
        BOOK(sgemmbook_destroy(h[w]));
    return failed ? 1 : 0;
}
