/* ch2.cu: coalesced loads, threadIdx.x picks the column. */
#include "harness.h"

__global__ void sgemm_coalesced(int m, int n, int k, float alpha,
                                const float *a, int lda, const float *b, int ldb,
                                float beta, float *c, int ldc)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float acc = 0.0f;
        for (int p = 0; p < k; p++)
            acc += a[row * lda + p] * b[p * ldb + col];
        float *cij = &c[row * ldc + col];
        *cij = beta == 0.0f ? alpha * acc : alpha * acc + beta * *cij;
    }
}

static void run_coalesced(int m, int n, int k, float alpha,
                          const float *a, int lda, const float *b, int ldb,
                          float beta, float *c, int ldc)
{
    dim3 block(32, 32);
    dim3 grid(CEIL_DIV(n, 32), CEIL_DIV(m, 32));
    sgemm_coalesced<<<grid, block>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static const struct kernel kernels[] = {
    { .name = "coalesced",
      .what = "one thread per element, threadIdx.x picks the column",
      .function = "sgemm_coalesced", .run = run_coalesced },
};

extern "C" const struct chapter ch2_program = {
    .title = "coalescing global memory",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};
