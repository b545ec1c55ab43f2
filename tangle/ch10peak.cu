/* ch10peak.cu: the rate of mma.sync on operands held in registers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cuda_runtime.h>
#include "ch10.h"

#define CHECK(call) check((call), #call)
static const char *progname = "ch10peak";

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s: %s\n", progname, what, cudaGetErrorString(e));
        exit(e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver
             ? 3 : 1);
    }
}

template <int BF16>
__global__ void mma_peak(int iters, float *out)
{
    unsigned a[4], b[2];
    float d[8][4] = { { 0.0f } };
    for (int e = 0; e < 4; e++)
        a[e] = threadIdx.x * 4 + e;
    b[0] = threadIdx.x;
    b[1] = threadIdx.x + 1;
    for (int i = 0; i < iters; i++)
        #pragma unroll
        for (int j = 0; j < 8; j++)
            if (BF16)
                mma_bf16(d[j], a, b);
            else
                mma_tf32(d[j], a, b);
    float sum = 0.0f;
    for (int j = 0; j < 8; j++)
        sum += d[j][0] + d[j][1] + d[j][2] + d[j][3];
    if (sum == 1.0f)              /* never: it keeps the sums alive */
        out[0] = sum;
}

static int cmp_double(const void *x, const void *y)
{
    double u = *(const double *)x, v = *(const double *)y;
    return u < v ? -1 : u > v;
}

enum { RUNS = 21 };               /* timed launches of each ceiling */

/* TFLOP/s of RUNS launches: median, lowest, highest */
static void time_peak(int bf16, int sms, float *out, double tf[3])
{
    enum { WARPS = 16, ITERS = 8192 };
    double flops = 2.0 * 16 * 8 * (bf16 ? 16 : 8) * 8 * ITERS
                   * WARPS * sms;
    double got[RUNS];
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    for (int r = -3; r < RUNS; r++) {      /* three warm-up launches */
        float ms;
        CHECK(cudaEventRecord(e0));
        if (bf16)
            mma_peak<1><<<sms * WARPS / 4, 128>>>(ITERS, out);
        else
            mma_peak<0><<<sms * WARPS / 4, 128>>>(ITERS, out);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 0)
            got[r] = flops / (ms * 1e9);
    }
    qsort(got, RUNS, sizeof got[0], cmp_double);
    tf[0] = got[RUNS / 2];
    tf[1] = got[0];
    tf[2] = got[RUNS - 1];
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
}

#define PEAK_COLUMNS(X)                                                    \
    X(chapter, "%d", 10)                  /* the chapter */                \
    X(name, "%s", peak_name[bf16])        /* the ceiling's name */         \
    X(what, "%s", peak_what[bf16])        /* the instruction it times */   \
    X(tflops, "%.1f", tf[0])              /* median of the runs */         \
    X(tflops_min, "%.1f", tf[1])          /* slowest run */                \
    X(tflops_max, "%.1f", tf[2])          /* fastest run */                \
    X(runs, "%d", RUNS)                   /* timed runs in this process */ \
    X(gpu, "%s", prop.name)               /* the GPU's name */             \
    X(sms, "%d", sms)                     /* its SMs */                    \
    X(clock_mhz, "%d", clock_khz / 1000)  /* its boost clock */            \
    X(driver, "%s", version)              /* the driver's CUDA version */  \
    X(date, "%s", date)                   /* the day of the run, UTC */    \
    X(commit, "%s", commit)               /* source revision */            \
    X(code_hash, "%s", hash)              /* the code */                   \
    X(run, "%s", run)                     /* which of the runs */

static const char *peak_name[2] = { "mma_tf32", "mma_bf16" };
static const char *peak_what[2] = { "mma.sync m16n8k8 TF32 with FP32 sums",
                                    "mma.sync m16n8k16 BF16 with FP32 sums" };

int main(int argc, char **argv)
{
    int csv = 0, list = 0, parse_only = 0, n = 0, sms;
    struct cudaDeviceProp prop;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            printf("usage: %s [--csv] [--list] [--parse-only]\nmeasures "
                   "mma.sync m16n8k8 TF32 and m16n8k16 BF16 on operands "
                   "in registers\n", progname);
            return 0;
        } else if (!strcmp(argv[i], "--csv")) {
            csv = 1;
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
    if (parse_only)
        return 0;
    if (list) {
        for (int i = 0; i < 2; i++)
            printf("%-9s %s\n", peak_name[i], peak_what[i]);
        return 0;
    }
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "%s: no CUDA GPU is available (%s)\n", progname,
                cudaGetErrorString(cudaGetDeviceCount(&n)));
        return 3;
    }
    CHECK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 8) {
        fprintf(stderr, "%s: mma.sync with TF32 and BF16 needs compute "
                "capability 8.0; the %s is %d.%d\n", progname, prop.name,
                prop.major, prop.minor);
        return 3;
    }
    float *out;
    int clock_khz, driver;
    char date[32], version[32];
    time_t now = time(NULL);
    const char *commit = getenv("BOOK_COMMIT");
    const char *hash = getenv("BOOK_CODE_HASH");
    const char *run = getenv("BOOK_RUN"), *sep = "";
    commit = commit && *commit ? commit : "unknown";
    hash = hash && *hash ? hash : "unknown";
    run = run && *run ? run : "1";
    sms = prop.multiProcessorCount;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    CHECK(cudaDriverGetVersion(&driver));
    snprintf(version, sizeof version, "cuda-%d.%d", driver / 1000,
             driver % 1000 / 10);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    CHECK(cudaMalloc((void **)&out, sizeof(float)));
    if (csv) {
    #define NAME(name, format, value) printf("%s" #name, sep), sep = ",";
        PEAK_COLUMNS(NAME)
    #undef NAME
        printf("\n");
    }
    for (int bf16 = 0; bf16 < 2; bf16++) {
        double tf[3];
        time_peak(bf16, sms, out, tf);
        if (csv) {
            sep = "";
    #define VALUE(name, format, value) printf("%s" format, sep, value), sep = ",";
            PEAK_COLUMNS(VALUE)
    #undef VALUE
            printf("\n");
        } else {
            printf("%-9s %6.1f TFLOP/s (%.1f-%.1f over %d runs)  %s\n",
                   peak_name[bf16], tf[0], tf[1], tf[2], (int)RUNS,
                   peak_what[bf16]);
        }
    }
    CHECK(cudaFree(out));
    return 0;
}
