/* ch3.cu: shared-memory tiling. */
#include "harness.h"

/* ---- lab 3, Shared-memory tiled kernel: your code begins here ---- */
enum { TILE = 32 };

__global__ void sgemm_smem(int m, int n, int k, float alpha,
                           const float *a, int lda, const float *b, int ldb,
                           float beta, float *c, int ldc)
{
    /* Lab, chapter 3: a block of TILE x TILE threads computes a
       TILE x TILE tile of C.  Walk along K in steps of TILE: each
       thread copies one element of A's tile and one of B's into
       shared memory (zero outside the matrices), the block waits,
       each thread adds its row of the A tile times its column of the
       B tile, and the block waits again before the next copy.  Then
       store alpha * sum + beta * C as chapter 1 does. */
}
/* ---- lab 3, Shared-memory tiled kernel: your code ends here ---- */

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
