/* harness.h: the measuring harness of the book (chapter 0). */
#ifndef HARNESS_H
#define HARNESS_H
#include <stddef.h>
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif

enum precision {
    FP32,        /* FP32 inputs, products and sums (CUDA cores) */
    TF32,        /* inputs rounded to TF32 (10-bit mantissa), FP32 sums */
    BF16,        /* inputs stored in BF16 (7-bit mantissa), FP32 sums */
    FP32_3XTF32, /* FP32 accuracy from three TF32 products */
    NPRECISIONS
};
typedef void gemm_fn(int m, int n, int k, float alpha,
                     const float *a, int lda, const float *b, int ldb,
                     float beta, float *c, int ldc);

typedef unsigned short bf16_bits;
typedef void gemm_bf16_fn(int m, int n, int k, float alpha,
                          const bf16_bits *a, int lda,
                          const bf16_bits *b, int ldb,
                          float beta, float *c, int ldc);
struct operands {
    const float *a, *b;
    const bf16_bits *a16, *b16;    /* BF16 copies of A and B, or NULL */
    float *c;
    int lda, ldb, ldc;
};
struct kernel {
    const char *name;          /* short, for CSV files: "naive" */
    const char *what;          /* one line for the reader */
    const char *function;      /* the __global__ function it runs */
    enum precision precision;  /* FP32 unless said */
    gemm_fn *run;              /* enqueues C = alpha AB + beta C */
    gemm_bf16_fn *run_bf16;    /* the same, for a BF16 kernel */
    void (*setup)(int m, int n, int k, const struct operands *set);
    void (*teardown)(void);
    int needs;                 /* compute capability, as 80; 0: any */
    size_t smem;               /* shared memory per block; 0: fits */
    int exact;                 /* needs that one alone (sm_90a's code) */
};

struct chapter {
    int number;                /* from the build: BOOK_CHAPTER */
    const char *target;        /* the GPU it was built for: "sm_90a" */
    const char *title;
    const struct kernel *kernels;
    int nkernels;
    gemm_fn *cpu;              /* chapter 0: the serial C version */
    double (*ffma_tflops)(int sms, int threads_per_sm);
                               /* chapter 0: the FFMA ceiling */
};

#define COUNT_OF(x) ((int)(sizeof(x) / sizeof((x)[0])))
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
#define FUNCTION(...) FUNCTION_(__VA_ARGS__)
#define FUNCTION_(...) #__VA_ARGS__
struct shape { int m, n, k; };
enum { MAX_SHAPES = 64 };

struct options {
    struct shape shapes[MAX_SHAPES];
    int nshapes;
    int reps;                  /* 0: choose from the first timing */
    unsigned long long seed;
    float alpha, beta;
    const char *kernel;        /* NULL: every kernel */
    int pad, check, csv, list, cpu, ceilings, help, parse_only;
    int sms;                   /* --sms, or 0 */
    long smem_limit;           /* --smem-limit, or 0 */
};
struct verdict {
    double err;                /* ||C - R||_F / ||R||_F */
    double max_err;            /* worst element, see the text */
    double tol, tol_max;       /* the bounds for err and max_err */
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
double tolerance(enum precision p, int k);
double tolerance_max(enum precision p, int k);
double median_ms(float *t, int n);
void quartiles(const float *t, int n, double q[2]);
int timed_reps(float first_ms);
void reference_product(int m, int n, int k, const float *a, int lda,
                       const float *b, int ldb, double *out,
                       double *scale);
void fill_random(float *x, size_t count, unsigned long long seed);
void harness_name(const char *argv0);
struct verdict verify(const float *c, int ldc, const double *ref,
                      const double *scale, int m, int n, int k,
                      enum precision p);
void check_cuda(cudaError_t e, const char *call,
                const char *file, int line);
#define CUDA_CHECK(call) check_cuda((call), #call, __FILE__, __LINE__)
int sm_count(void);
size_t smem_limit(void);
int hopper_kernels(void);
void chose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cannot_run(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

#ifdef __cplusplus
}
#endif
#endif
