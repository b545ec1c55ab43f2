/* ch1.cu: the naive kernel, one thread per element of C. */
#include "harness.h"

__global__ void sgemm_naive(int m, int n, int k, float alpha,
                            const float *a, int lda, const float *b, int ldb,
                            float beta, float *c, int ldc)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float acc = 0.0f;
        for (int p = 0; p < k; p++)
            acc += a[row * lda + p] * b[p * ldb + col];
        float *cij = &c[row * ldc + col];
        *cij = beta == 0.0f ? alpha * acc : alpha * acc + beta * *cij;
    }
}

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
