/* harness.h: the measuring harness of the book (chapter 0). */
#ifndef HARNESS_H
#define HARNESS_H
#include <stddef.h>
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef void gemm_fn(int m, int n, int k, float alpha,
                     const float *a, int lda, const float *b, int ldb,
                     float beta, float *c, int ldc);

struct kernel {
    const char *name;          /* short, for CSV files: "naive" */
    const char *what;          /* one line for the reader */
    gemm_fn *run;              /* enqueues C = alpha AB + beta C */
};

struct chapter {
    int number;
    const char *title;
    const struct kernel *kernels;
    int nkernels;
    gemm_fn *cpu;              /* chapter 0: the serial C version */
    double (*ffma_tflops)(int sms);  /* chapter 0: FFMA ceiling */
};

#define COUNT_OF(x) ((int)(sizeof(x) / sizeof((x)[0])))
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
struct shape { int m, n, k; };
enum { MAX_SHAPES = 64 };

struct options {
    struct shape shapes[MAX_SHAPES];
    int nshapes;
    int reps;                  /* 0: choose from the first timing */
    unsigned long long seed;
    float alpha, beta;
    const char *kernel;        /* NULL: every kernel */
    int pad, check, csv, cpu, ceilings, help;
};
struct verdict {
    double err;                /* ||C - R||_F / ||R||_F */
    double max_err;            /* max |C - R| / max |R| */
    double tol;
    long nonfinite;            /* NaN or Inf elements of C */
    int worst_i, worst_j;      /* where the largest error is */
    int ok;
};
int harness_main(int argc, char **argv, const struct chapter *ch);
void cublas_sgemm(int m, int n, int k, float alpha,
                  const float *a, int lda, const float *b, int ldb,
                  float beta, float *c, int ldc);
void cpu_sgemm(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc);
int parse_options(int argc, char **argv, struct options *o,
                  char *err, size_t errlen);
double tolerance(int k);
double median_ms(float *t, int n);
struct verdict verify(const float *c, int ldc, const double *ref,
                      int m, int n, int k);
void check_cuda(cudaError_t e, const char *call,
                const char *file, int line);
#define CUDA_CHECK(call) check_cuda((call), #call, __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif
#endif
