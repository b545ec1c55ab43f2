/* ch3.cu: shared-memory tiling. */
#include "harness.h"

enum { TILE = 32 };

__global__ void sgemm_smem(int m, int n, int k, float alpha,
                           const float *a, int lda, const float *b, int ldb,
                           float beta, float *c, int ldc)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[ty][tx] = row < m && t + tx < k ? a[row * lda + t + tx] : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(t + ty) * ldb + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE; p++)
            acc += as[ty][p] * bs[p][tx];
        __syncthreads();
    }
    if (row < m && col < n) {
        float *cij = &c[row * ldc + col];
        *cij = beta == 0.0f ? alpha * acc : alpha * acc + beta * *cij;
    }
}

static void run_smem(int m, int n, int k, float alpha,
                     const float *a, int lda, const float *b, int ldb,
                     float beta, float *c, int ldc)
{
    dim3 block(TILE, TILE);
    dim3 grid(CEIL_DIV(n, TILE), CEIL_DIV(m, TILE));
    sgemm_smem<<<grid, block>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static const struct kernel kernels[] = {
    { .name = "smem",
      .what = "32x32 tiles of A and B staged in shared memory",
      .function = "sgemm_smem", .run = run_smem },
};

extern "C" const struct chapter ch3_program = {
    .title = "shared-memory tiling",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};
