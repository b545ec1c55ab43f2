/* ch15ozaki.cu: the Ozaki scheme's phases, its INT8 rate and its error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cublasLt.h>
#include "ch15.h"

static const char *progname = "ch15ozaki";
#define BLAS(call) check((call) == CUBLAS_STATUS_SUCCESS, #call, "cuBLAS")

static void check(int ok, const char *what, const char *why)
{
    if (!ok) {
        fprintf(stderr, "%s: %s: %s\n", progname, what, why);
        exit(1);
    }
}

static struct { const char *gpu, *commit, *hash, *run, *driver, *date;
                int sms, clock_mhz, csv, events; } env;

#define OZAKI_COLUMNS(X)                                                  \
    X(chapter, "%d", 15)                  /* the chapter */                \
    X(name, "%s", name)                   /* the measurement */            \
    X(what, "\"%s\"", what)               /* what it is (quoted) */        \
    X(tflops, "%.1f", ops / ms / 1e9)     /* operations / time, 10^12/s */ \
    X(ms, "%.4f", ms)                     /* median time, ms */            \
    X(ms_q1, "%.4f", q[0])                /* first quartile */             \
    X(ms_q3, "%.4f", q[1])                /* third quartile */             \
    X(error, "%.3g", error)               /* against float64, or 0 */      \
    X(runs, "%d", runs)                   /* timed runs in this process */ \
    X(gpu, "%s", env.gpu)                 /* the GPU's name */             \
    X(sms, "%d", env.sms)                 /* its SMs */                    \
    X(clock_mhz, "%d", env.clock_mhz)     /* its top clock, MHz */         \
    X(driver, "%s", env.driver)           /* the CUDA driver */            \
    X(date, "%s", env.date)               /* the day of the run, UTC */    \
    X(commit, "%s", env.commit)           /* source revision */            \
    X(code_hash, "%s", env.hash)          /* the code */                   \
    X(run, "%s", env.run)                 /* which of the runs */

static void header(void)
{
    const char *sep = "";
    #define NAME(n, f, v) printf("%s" #n, sep), sep = ",";
    OZAKI_COLUMNS(NAME)
    #undef NAME
    printf("\n");
}

/* a row; t: the timed runs (sorted here), or NULL for an error alone */
static void put_row(const char *name, const char *what, double ops, float *t,
                int runs, double error)
{
    double ms = 1.0, q[2] = { 1.0, 1.0 };
    const char *sep = "";
    if (t) {
        ms = median_ms(t, runs);
        quartiles(t, runs, q);
    }
    if (env.csv) {
        #define VALUE(n, f, v) printf("%s" f, sep, v), sep = ",";
        OZAKI_COLUMNS(VALUE)
        #undef VALUE
        printf("\n");
    } else {
        printf("%-18s %7.1f T/s %8.4f ms (%.4f-%.4f)  error %.3g  %s\n",
               name, ops / ms / 1e9, ms, q[0], q[1], error, what);
    }
}
__device__ double uniform01(unsigned long long i)
{
    unsigned long long z = i * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return ((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

__global__ void fill_kind(float *x, double *x64, size_t len, double phi,
                          unsigned long long seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < len;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned long long at = seed + 3 * i;
        double u = 2.0 * uniform01(at) - 1.0;
        double g = sqrt(-2.0 * log(1.0 - uniform01(at + 1)))
                 * cos(6.283185307179586 * uniform01(at + 2));
        x[i] = (float)(u * exp(phi * g));
        if (x64)
            x64[i] = x[i];
    }
}

__global__ void fill_bytes(signed char *x, size_t len)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < len;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = (signed char)(256.0 * uniform01(i) - 128.0);
}
static void time_phases(cublasHandle_t blas, int n, const float *a,
                        const float *b, float *c)
{
    enum { REPS = 11, NMOD = 7 };
    static const char *phase[4] = { "scale", "residues", "products",
                                    "rebuild" };
    float ms[5][REPS], fp32[REPS], t;
    cudaEvent_t ev[5];
    char name[64], what[96];
    float one = 1.0f, zero = 0.0f;
    for (int e = 0; e < 5; e++)
        CUDA_CHECK(cudaEventCreate(&ev[e]));
    ozaki_reserve(NMOD, n, n, n);
    for (int r = -1; r < REPS; r++) {
        ozaki_gemm(NMOD, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n, ev);
        CUDA_CHECK(cudaEventSynchronize(ev[4]));
        for (int e = 0; r >= 0 && e < 5; e++)
            CUDA_CHECK(cudaEventElapsedTime(&ms[e][r], ev[e < 4 ? e : 0],
                                       ev[e < 4 ? e + 1 : 4]));
        CUDA_CHECK(cudaEventRecord(ev[0]));
        BLAS(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b,
                         n, a, n, &zero, c, n));
        CUDA_CHECK(cudaEventRecord(ev[1]));
        CUDA_CHECK(cudaEventSynchronize(ev[1]));
        CUDA_CHECK(cudaEventElapsedTime(&t, ev[0], ev[1]));
        if (r >= 0)
            fp32[r] = t;
    }
    double flops = 2.0 * n * n * n, int8_ops = 2.0 * NMOD
        * (CEIL_DIV(n, 256) * 256.0) * (CEIL_DIV(n, 128) * 128.0)
        * (CEIL_DIV(n, 32) * 32.0);
    for (int e = 0; e < 4; e++) {
        snprintf(name, sizeof name, "%s_%d", phase[e], n);
        snprintf(what, sizeof what, "the phase %s of one product with 7 moduli",
                 phase[e]);
        put_row(name, what, e == 2 ? int8_ops : 0.0, ms[e], REPS, 0.0);
    }
    snprintf(name, sizeof name, "ozaki7_%d", n);
    put_row(name, "one product with 7 moduli: all its phases", flops, ms[4],
        REPS, 0.0);
    snprintf(name, sizeof name, "sgemm_%d", n);
    put_row(name, "cuBLAS FP32 in the same run", flops, fp32, REPS, 0.0);
    for (int e = 0; e < 5; e++)
        CUDA_CHECK(cudaEventDestroy(ev[e]));
}
static void time_back_to_back(int n, const float *a, const float *b,
                              float *c)
{
    cudaEvent_t e0, e1;
    float one, *ms;
    char name[64];
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    CUDA_CHECK(cudaEventRecord(e0));
    ozaki_gemm(7, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n, NULL);
    CUDA_CHECK(cudaEventRecord(e1));
    CUDA_CHECK(cudaEventSynchronize(e1));
    CUDA_CHECK(cudaEventElapsedTime(&one, e0, e1));
    int reps = (int)(300.0f / one);
    reps = reps < 5 ? 5 : reps > 400 ? 400 : reps;
    cudaEvent_t *ev = (cudaEvent_t *)malloc((reps + 1) * sizeof *ev);
    ms = (float *)malloc(reps * sizeof *ms);
    if (!ev || !ms) {
        fprintf(stderr, "%s: out of host memory\n", progname);
        exit(3);
    }
    for (int r = 0; r <= reps; r++)
        CUDA_CHECK(cudaEventCreate(&ev[r]));
    CUDA_CHECK(cudaEventRecord(ev[0]));
    for (int r = 0; r < reps; r++) {
        ozaki_gemm(7, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n, NULL);
        CUDA_CHECK(cudaEventRecord(ev[r + 1]));
    }
    CUDA_CHECK(cudaEventSynchronize(ev[reps]));
    for (int r = 0; r < reps; r++)
        CUDA_CHECK(cudaEventElapsedTime(&ms[r], ev[r], ev[r + 1]));
    snprintf(name, sizeof name, "b2b_%d", n);
    put_row(name, "one product with 7 moduli among a third of a second of them",
            2.0 * n * n * n, ms, reps, 0.0);
    for (int r = 0; r <= reps; r++)
        CUDA_CHECK(cudaEventDestroy(ev[r]));
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    free(ev);
    free(ms);
}
static void trace(float *a, float *b, float *c)
{
    static const char *lane[4] = { "exponents", "remainders",
                                   "INT8 products", "rebuilding" };
    cudaEvent_t ev[5];
    float at[5];
    for (int e = 0; e < 5; e++)
        CUDA_CHECK(cudaEventCreate(&ev[e]));
    printf("flow,lane,panel,start_ms,end_ms\n");
    for (int n = 8192; n >= 4096; n /= 2) {
        size_t l = (size_t)n * n;
        fill_kind<<<1024, 256>>>(a, NULL, l, 0.0, 11);
        fill_kind<<<1024, 256>>>(b, NULL, l, 0.0, 13 + 3 * l);
        CUDA_CHECK(cudaGetLastError());
        for (int r = 0; r < 2; r++)
            ozaki_gemm(7, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n, ev);
        CUDA_CHECK(cudaEventSynchronize(ev[4]));
        for (int e = 0; e < 5; e++)
            CUDA_CHECK(cudaEventElapsedTime(&at[e], ev[0], ev[e]));
        for (int e = 0; e < 4; e++)
            printf("n = %d,%s,0,%.4f,%.4f\n", n, lane[e],
                   at[e], at[e + 1]);
    }
    for (int e = 0; e < 5; e++)
        CUDA_CHECK(cudaEventDestroy(ev[e]));
}
#define LT(call) check((call) == CUBLAS_STATUS_SUCCESS, #call, "cuBLASLt")

static void time_lt_int8(int n, void *ws, size_t ws_len)
{
    enum { REPS = 11, ALGOS = 8 };
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatmulPreference_t pref;
    cublasLtMatmulHeuristicResult_t found[ALGOS];
    cublasOperation_t trans = CUBLAS_OP_T;
    int got = 0, alpha = 1, beta = 0, best = 0;
    signed char *x;
    int *y;
    float t[REPS], best_ms = 1e30f, ms;
    cudaEvent_t e0, e1;
    char name[64];
    CUDA_CHECK(cudaMalloc((void **)&x, 2 * (size_t)n * n));
    CUDA_CHECK(cudaMalloc((void **)&y, (size_t)n * n * sizeof(int)));
    fill_bytes<<<1024, 256>>>(x, 2 * (size_t)n * n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    LT(cublasLtCreate(&lt));
    LT(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32I, CUDA_R_32I));
    LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA,
                                      &trans, sizeof trans));
    LT(cublasLtMatrixLayoutCreate(&la, CUDA_R_8I, n, n, n));
    LT(cublasLtMatrixLayoutCreate(&lb, CUDA_R_8I, n, n, n));
    LT(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32I, n, n, n));
    LT(cublasLtMatmulPreferenceCreate(&pref));
    LT(cublasLtMatmulPreferenceSetAttribute(pref,
        CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_len, sizeof ws_len));
    LT(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, ALGOS,
                                      found, &got));
    check(got > 0, "cublasLtMatmulAlgoGetHeuristic", "no INT8 algorithm");
    for (int r = -got; r < REPS; r++) {
        int algo = r < 0 ? r + got : best;
        CUDA_CHECK(cudaEventRecord(e0));
        LT(cublasLtMatmul(lt, op, &alpha, x, la, x + (size_t)n * n, lb,
                          &beta, y, lc, y, lc, &found[algo].algo, ws,
                          ws_len, 0));
        CUDA_CHECK(cudaEventRecord(e1));
        CUDA_CHECK(cudaEventSynchronize(e1));
        CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (r < 0 && ms < best_ms)
            best_ms = ms, best = algo;
        if (r >= 0)
            t[r] = ms;
    }
    snprintf(name, sizeof name, "lt_int8_%d", n);
    put_row(name, "cuBLASLt's INT8 product: the fastest algorithm offered",
        2.0 * n * n * n, t, REPS, 0.0);
    LT(cublasLtMatmulPreferenceDestroy(pref));
    LT(cublasLtMatrixLayoutDestroy(la));
    LT(cublasLtMatrixLayoutDestroy(lb));
    LT(cublasLtMatrixLayoutDestroy(lc));
    LT(cublasLtMatmulDescDestroy(op));
    LT(cublasLtDestroy(lt));
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    CUDA_CHECK(cudaFree(x));
    CUDA_CHECK(cudaFree(y));
}
static double rel_error(const float *c, const double *ref, size_t len,
                        float *host_c, double *host_ref)
{
    double num = 0.0, den = 0.0;
    CUDA_CHECK(cudaMemcpy(host_c, c, len * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(host_ref, ref, len * sizeof(double),
                     cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < len; i++) {
        double d = host_c[i] - host_ref[i];
        num += d * d;
        den += host_ref[i] * host_ref[i];
    }
    return isfinite(num) ? sqrt(num / den) : INFINITY;
}

static void errors(cublasHandle_t blas, int n, float *a, float *b,
                   float *c, double *a64, double *b64, double *ref)
{
    static const double phis[4] = { 0.0, 1.0, 2.0, 4.0 };
    size_t len = (size_t)n * n;
    float *host_c = (float *)malloc(len * sizeof(float));
    double *host_ref = (double *)malloc(len * sizeof(double));
    double one = 1.0, zero = 0.0;
    float fone = 1.0f, fzero = 0.0f;
    char name[64], what[96];
    cudaEvent_t e0, e1;
    float ms;
    check(host_c && host_ref, "malloc", "out of host memory");
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    hopper_reserve(n, n, n, NULL);
    for (int kind = 0; kind < 4; kind++) {
        int phi = (int)phis[kind];
        fill_kind<<<1024, 256>>>(a, a64, len, phis[kind], 1);
        fill_kind<<<1024, 256>>>(b, b64, len, phis[kind], 7 + 3 * len);
        CUDA_CHECK(cudaGetLastError());
        BLAS(cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b64,
                         n, a64, n, &zero, ref, n));
        for (int method = 0; method < 7; method++) {   /* FP32, 3xTF32, 6..10 */
            CUDA_CHECK(cudaEventRecord(e0));
            if (method == 0)
                BLAS(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                                 &fone, b, n, a, n, &fzero, c, n));
            else if (method == 1)
                hopper_3xtf32(n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
            else
                ozaki_gemm(method + 4, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n,
                           NULL);
            CUDA_CHECK(cudaEventRecord(e1));
            CUDA_CHECK(cudaEventSynchronize(e1));
            CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
            if (method < 2) {
                snprintf(name, sizeof name, "err_phi%d_%s", phi,
                         method ? "3xtf32" : "fp32");
                snprintf(what, sizeof what, "%s at phi = %d",
                         method ? "chapter 12's 3xTF32" : "cuBLAS FP32", phi);
            } else {
                snprintf(name, sizeof name, "err_phi%d_%d", phi, method + 4);
                snprintf(what, sizeof what, "the scheme with %d moduli at "
                         "phi = %d", method + 4, phi);
            }
            put_row(name, what, 2.0 * n * n * n, &ms, 1,
                rel_error(c, ref, len, host_c, host_ref));
        }
    }
    hopper_release();
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    free(host_c);
    free(host_ref);
}
int main(int argc, char **argv)
{
    int ndev = 0, driver;
    struct cudaDeviceProp prop;
    char version[32], date[32];
    time_t now = time(NULL);
    harness_name(argv[0]);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            printf("usage: %s [--csv | --events] [--list] [--parse-only]\n"
                   "measures the Ozaki scheme's phases, INT8 rate and error;\n"
                   "--events prints a trace of the phases of one product\n",
                   progname);
            return 0;
        } else if (!strcmp(argv[i], "--csv")) {
            env.csv = 1;
        } else if (!strcmp(argv[i], "--events")) {
            env.events = 1;
        } else if (!strcmp(argv[i], "--list")) {
            printf("phases, INT8 rates, errors\n");
            return 0;
        } else if (strcmp(argv[i], "--parse-only")) {
            fprintf(stderr, "%s: unknown argument '%s' (try --help)\n",
                    progname, argv[i]);
            return 2;
        } else {
            return 0;
        }
    }
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        fprintf(stderr, "%s: no CUDA GPU is available\n", progname);
        return 3;
    }
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major != 9) {
        fprintf(stderr, "%s: wgmma needs a Hopper GPU (compute capability "
                "9.0); the %s is %d.%d\n", progname, prop.name, prop.major,
                prop.minor);
        return 3;
    }
    CUDA_CHECK(cudaDeviceGetAttribute(&env.clock_mhz, cudaDevAttrClockRate, 0));
    CUDA_CHECK(cudaDriverGetVersion(&driver));
    env.clock_mhz /= 1000;
    env.sms = prop.multiProcessorCount;
    env.gpu = prop.name;
    snprintf(version, sizeof version, "cuda-%d.%d", driver / 1000,
             driver % 1000 / 10);
    env.driver = version;
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    env.date = date;
    env.commit = getenv("BOOK_COMMIT");
    env.hash = getenv("BOOK_CODE_HASH");
    env.run = getenv("BOOK_RUN");
    env.commit = env.commit && *env.commit ? env.commit : "unknown";
    env.hash = env.hash && *env.hash ? env.hash : "unknown";
    env.run = env.run && *env.run ? env.run : "1";
    int n = 8192;
    size_t len = (size_t)n * n, ws_len = 64u << 20;
    float *a, *b, *c;
    double *a64, *b64, *ref;
    void *ws;
    cublasHandle_t blas;
    BLAS(cublasCreate(&blas));
    CUDA_CHECK(cudaMalloc((void **)&a, len * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&b, len * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&c, len * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&ws, ws_len));
    if (env.events) {
        trace(a, b, c);
        return 0;
    }
    if (env.csv)
        header();
    for (int size = 4096; size <= 8192; size *= 2) {
        size_t l = (size_t)size * size;
        fill_kind<<<1024, 256>>>(a, NULL, l, 0.0, 11);
        fill_kind<<<1024, 256>>>(b, NULL, l, 0.0, 13 + 3 * l);
        CUDA_CHECK(cudaGetLastError());
        time_phases(blas, size, a, b, c);
        time_back_to_back(size, a, b, c);
    }
    time_lt_int8(4096, ws, ws_len);
    time_lt_int8(8192, ws, ws_len);
    n = 4096, len = (size_t)n * n;
    CUDA_CHECK(cudaMalloc((void **)&a64, len * sizeof(double)));
    CUDA_CHECK(cudaMalloc((void **)&b64, len * sizeof(double)));
    CUDA_CHECK(cudaMalloc((void **)&ref, len * sizeof(double)));
    errors(blas, n, a, b, c, a64, b64, ref);
    ozaki_release();
    BLAS(cublasDestroy(blas));
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(c));
    CUDA_CHECK(cudaFree(ws));
    CUDA_CHECK(cudaFree(a64));
    CUDA_CHECK(cudaFree(b64));
    CUDA_CHECK(cudaFree(ref));
    return 0;
}
