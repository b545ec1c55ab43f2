/* libspeed.cu: the library's speed at 4096^3 and 8192^3 beside cuBLAS
   of the same precision in the same process (chapter 14's
   microbenchmark).  libspeed [--csv]; exit 0: every check passed,
   1: one failed, 2: bad arguments, 3: no GPU it can measure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include "sgemmbook.h"

#define FAIL_IF(bad, what, said) do { if (bad) { fprintf(stderr, \
    "libspeed: %s: %s\n", what, said); exit(3); } } while (0)
#define CUDA(call) do { cudaError_t e_ = (call); \
    FAIL_IF(e_ != cudaSuccess, #call, cudaGetErrorString(e_)); } while (0)
#define BLAS(call) do { cublasStatus_t s_ = (call); \
    FAIL_IF(s_ != CUBLAS_STATUS_SUCCESS, #call, cublasGetStatusString(s_)); } while (0)
#define BOOK(call) do { sgemmbook_status s_ = (call); \
    FAIL_IF(s_ != SGEMMBOOK_SUCCESS, #call, sgemmbook_status_string(s_)); } while (0)

enum { REPS = 15 };
static int csv;
static const char *const precision_word[] = { "fp32", "tf32", "3xtf32", "bf16" };
static char gpu_name[256];

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
    X(ms, "%.4f", q[1])                   /* median time, ms */            \
    X(ms_q1, "%.4f", q[0])                /* first quartile */             \
    X(ms_q3, "%.4f", q[2])                /* third quartile */             \
    X(tflops, "%.2f", flops / (q[1] * 1e9)) /* the product's rate */       \
    X(gbs, "%.2f", bytes / (q[1] * 1e6))  /* A, B and C once / time */     \
    X(runs, "%d", REPS)                   /* timed runs in this process */ \
    X(check, "%s", check)                 /* ok or FAIL */                 \
    X(gpu, "%s", gpu_name)                /* the GPU's name */             \
    X(date, "%s", date)                   /* the day of the run, UTC */    \
    X(commit, "%s", from_env("BOOK_COMMIT", "unknown")) /* revision */     \
    X(code_hash, "%s", from_env("BOOK_CODE_HASH", "unknown")) /* code */   \
    X(run, "%s", from_env("BOOK_RUN", "1")) /* which of the runs */

static int by_value(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

static void print_speed(const char *name, const char *what, float *t,
                      double flops, double bytes, const char *check)
{
    double q[3];
    char date[16];
    const char *sep = "";
    time_t now = time(NULL);
    qsort(t, REPS, sizeof *t, by_value);
    for (int i = 0; i < 3; i++)             /* quartiles and median */
        q[i] = t[(REPS - 1) * (i + 1) / 4];
    if (!csv) {
        printf("%-22s %9.4f ms %8.2f TFLOP/s  %-4s %s\n", name, q[1],
               flops / (q[1] * 1e9), check, what);
        return;
    }
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
#define VALUE(col, format, value) printf("%s" format, sep, value), sep = ",";
    LIBSPEED_COLUMNS(VALUE)
#undef VALUE
    printf("\n");
}

__global__ void round_to_bf16(const float *x, __nv_bfloat16 *y, size_t count)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = __float2bfloat16_rn(x[i]);
}
struct operands_of { const void *a, *b; float *c, *ref; int n; };

static void cublas_product(cublasHandle_t blas, sgemmbook_precision p,
                           const struct operands_of *o)
{
    const float one = 1.0f, zero = 0.0f;
    int n = o->n;     /* by columns: C^T = B^T A^T */
    cudaDataType in = p == SGEMMBOOK_BF16 ? CUDA_R_16BF : CUDA_R_32F;
    cublasComputeType_t how = p == SGEMMBOOK_TF32
        ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    BLAS(cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, o->b,
                      in, n, o->a, in, n, &zero, o->ref, CUDA_R_32F, n, how,
                      CUBLAS_GEMM_DEFAULT));
}

static int measure(sgemmbook_handle h, cublasHandle_t blas,
                   sgemmbook_precision p, const struct operands_of *o,
                   const char *name, const char *what)
{
    float tl[REPS], tb[REPS];
    int n = o->n;
    sgemmbook_status s = sgemmbook_gemm(h, p, n, n, n, 1.0f, o->a, n, o->b, n,
                                        0.0f, o->c, n);
    if (s == SGEMMBOOK_NOT_SUPPORTED)
        return 0;                           /* no row: not on these kernels */
    FAIL_IF(s != SGEMMBOOK_SUCCESS, "sgemmbook_gemm", sgemmbook_status_string(s));
    cublas_product(blas, p, o);             /* both warmed up */
    cudaEvent_t e[2];
    CUDA(cudaEventCreate(&e[0]));
    CUDA(cudaEventCreate(&e[1]));
    for (int r = 0; r < REPS; r++) {
        CUDA(cudaEventRecord(e[0], 0));
        BOOK(sgemmbook_gemm(h, p, n, n, n, 1.0f, o->a, n, o->b, n, 0.0f, o->c, n));
        CUDA(cudaEventRecord(e[1], 0));
        CUDA(cudaEventSynchronize(e[1]));
        CUDA(cudaEventElapsedTime(&tl[r], e[0], e[1]));
        CUDA(cudaEventRecord(e[0], 0));
        cublas_product(blas, p, o);
        CUDA(cudaEventRecord(e[1], 0));
        CUDA(cudaEventSynchronize(e[1]));
        CUDA(cudaEventElapsedTime(&tb[r], e[0], e[1]));
    }
    size_t count = (size_t)n * n;
    float *c = (float *)malloc(count * 4), *ref = (float *)malloc(count * 4);
    FAIL_IF(!c || !ref, "malloc", "out of host memory");
    CUDA(cudaMemcpy(c, o->c, count * 4, cudaMemcpyDeviceToHost));
    CUDA(cudaMemcpy(ref, o->ref, count * 4, cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (size_t i = 0; i < count; i++) {
        double d = (double)c[i] - ref[i];
        num += d * d;
        den += (double)ref[i] * ref[i];
    }
    double tol = p == SGEMMBOOK_TF32 || p == SGEMMBOOK_BF16 ? 1e-2 : 1e-5;
    int ok = den > 0 && sqrt(num / den) <= tol;    /* a NaN fails too */
    free(c);
    free(ref);
    double flops = 2.0 * n * n * (double)n;
    double bytes = (double)n * n * (2 * (p == SGEMMBOOK_BF16 ? 2 : 4) + 4);
    char label[64], blabel[80], bwhat[128];
    snprintf(label, sizeof label, "%s_%s_%d", name, precision_word[p], n);
    snprintf(blabel, sizeof blabel, "%s_cublas", label);
    snprintf(bwhat, sizeof bwhat, "cuBLAS %s, beside %s",
             precision_word[p == SGEMMBOOK_3XTF32 ? SGEMMBOOK_FP32 : p], label);
    print_speed(label, what, tl, flops, bytes, ok ? "ok" : "FAIL");
    print_speed(blabel, bwhat, tb, flops, bytes, ok ? "ok" : "FAIL");
    CUDA(cudaEventDestroy(e[0]));
    CUDA(cudaEventDestroy(e[1]));
    return ok ? 0 : 1;
}
int main(int argc, char **argv)
{
    static const struct { const char *name, *what; int ampere, sms; long smem; } way[] = {
        { "hopper", "the library, chapter 14's kernels", 0, 0, 0 },
        { "ampere", "the library, the kernels of Ampere", 1, 0, 0 },
        { "a100", "the kernels of Ampere as for an A100 (108 SMs)", 1, 108, 166912 },
        { "rtx3090", "the kernels of Ampere as for an RTX 3090 (82 SMs)", 1, 82, 101376 },
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
                    if (w == 0 || p != SGEMMBOOK_3XTF32)
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
        size_t count = (size_t)n * n;
        float *host = (float *)malloc(count * 4), *a32, *b32, *c, *ref;
        __nv_bfloat16 *a16, *b16;
        FAIL_IF(!host, "malloc", "out of host memory");
        CUDA(cudaMalloc((void **)&a32, count * 4));
        CUDA(cudaMalloc((void **)&b32, count * 4));
        CUDA(cudaMalloc((void **)&c, count * 4));
        CUDA(cudaMalloc((void **)&ref, count * 4));
        CUDA(cudaMalloc((void **)&a16, count * 2));
        CUDA(cudaMalloc((void **)&b16, count * 2));
        srand(14);
        for (int m = 0; m < 2; m++) {
            for (size_t i = 0; i < count; i++)
                host[i] = 2.0f * rand() / RAND_MAX - 1.0f;
            CUDA(cudaMemcpy(m ? b32 : a32, host, count * 4, cudaMemcpyHostToDevice));
        }
        free(host);
        round_to_bf16<<<1024, 256>>>(a32, a16, count);
        round_to_bf16<<<1024, 256>>>(b32, b16, count);
        CUDA(cudaGetLastError());
        for (int w = major == 9 ? 0 : 1; w < 4; w++)
            for (int p = 0; p < 4; p++) {
                int bf16 = p == SGEMMBOOK_BF16;
                struct operands_of o = { bf16 ? (const void *)a16 : a32,
                                         bf16 ? (const void *)b16 : b32, c, ref, n };
                failed += measure(h[w], blas, (sgemmbook_precision)p, &o,
                                  way[w].name, way[w].what);
            }
        CUDA(cudaFree(a32));
        CUDA(cudaFree(b32));
        CUDA(cudaFree(a16));
        CUDA(cudaFree(b16));
        CUDA(cudaFree(c));
        CUDA(cudaFree(ref));
    }
    BLAS(cublasDestroy(blas));
    for (int w = 0; w < 4; w++)
        BOOK(sgemmbook_destroy(h[w]));
    return failed ? 1 : 0;
}
