/* ch1.cu: the naive kernel, one thread per element of C. */
#include "harness.h"

/* ---- lab 1, Naive kernel: your code begins here ---- */
__global__ void sgemm_naive(int m, int n, int k, float alpha,
                            const float *a, int lda, const float *b, int ldb,
                            float beta, float *c, int ldc)
{
    /* Lab, chapter 1: one thread per element of C.  run_naive launches
       32 x 32 threads per block and makes x the row.  Find the row and
       the column of C this thread computes; if that element exists,
       take the dot product of that row of A and that column of B
       (leading dimensions lda, ldb) and store
       C[row][col] = alpha * dot + beta * C[row][col] (ldc), reading C
       only when beta is not 0 (it may hold anything then). */
}
/* ---- lab 1, Naive kernel: your code ends here ---- */

static void run_naive(int m, int n, int k, float alpha,
                      const float *a, int lda, const float *b, int ldb,
                      float beta, float *c, int ldc)
{
    dim3 block(32, 32);
    dim3 grid(CEIL_DIV(m, 32), CEIL_DIV(n, 32));
    sgemm_naive<<<grid, block>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static const struct kernel kernels[] = {
    { .name = "naive",
      .what = "one thread per element, threadIdx.x picks the row",
      .function = "sgemm_naive", .run = run_naive },
};

extern "C" const struct chapter ch1_program = {
    .title = "the naive kernel",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};
