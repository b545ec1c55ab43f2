/* ch4.cu: register tiling, a column (1D) or a tile (2D) per thread. */
#include "harness.h"

#define TX (BN / TN)            /* threads along a row of the block */
#define TY (BM / TM)            /* threads along a column */
#define NT (TX * TY)            /* threads in the block */

#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define TN 1

__global__ void __launch_bounds__(NT)
sgemm_tile1d(int m, int n, int k, float alpha,
             const float *a, int lda, const float *b, int ldb,
             float beta, float *c, int ldc)
{
    __shared__ float as[BM][BK], bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float accum[TM][TN] = { { 0.0f } };
    for (int t = 0; t < k; t += BK) {
        #pragma unroll
        for (int r = 0; r < CEIL_DIV(BM, TY); r++)
            #pragma unroll
            for (int s = 0; s < CEIL_DIV(BK, TX); s++) {
                int i = ty + r * TY, j = tx + s * TX;
                if ((BM % TY == 0 || i < BM) && (BK % TX == 0 || j < BK))
                    as[i][j] = row0 + i < m && t + j < k
                               ? a[(row0 + i) * lda + t + j] : 0.0f;
            }
        #pragma unroll
        for (int r = 0; r < CEIL_DIV(BK, TY); r++)
            #pragma unroll
            for (int s = 0; s < CEIL_DIV(BN, TX); s++) {
                int i = ty + r * TY, j = tx + s * TX;
                if ((BK % TY == 0 || i < BK) && (BN % TX == 0 || j < BN))
                    bs[i][j] = t + i < k && col0 + j < n
                               ? b[(t + i) * ldb + col0 + j] : 0.0f;
            }
        __syncthreads();
        /* ---- lab 4, Accumulate outer products: your code begins here ---- */
        /* Lab, chapter 4: thread (tx, ty) computes a TM x TN tile of the
           block's tile of C.  For each step p of the tiles in shared memory
           (p < BK), load into registers the TM values of column p of as and
           the TN values of row p of bs that its tile needs, and add their
           outer product to accum[TM][TN].  Unroll the loops (the sizes are
           constants) so that everything stays in registers.  The line below only lets the
           program compile: replace it. */
        accum[0][0] += as[0][0] * bs[0][0];
        /* ---- lab 4, Accumulate outer products: your code ends here ---- */
        __syncthreads();
    }
    #pragma unroll
    for (int i = 0; i < TM; i++)
        #pragma unroll
        for (int j = 0; j < TN; j++) {
            int row = row0 + ty * TM + i, col = col0 + tx * TN + j;
            float acc = accum[i][j];
            if (row < m && col < n) {
                float *cij = &c[row * ldc + col];
                *cij = beta == 0.0f ? alpha * acc : alpha * acc + beta * *cij;
            }
        }
}

static void run_tile1d(int m, int n, int k, float alpha,
                       const float *a, int lda, const float *b, int ldb,
                       float beta, float *c, int ldc)
{
    dim3 block(TX, TY);
    dim3 grid(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    sgemm_tile1d<<<grid, block>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#undef BM
#undef BN
#undef BK
#undef TM
#undef TN

#define BM 128
#define BN 128
#define BK 16
#define TM 8
#define TN 8

__global__ void __launch_bounds__(NT, 2)
sgemm_tile2d(int m, int n, int k, float alpha,
             const float *a, int lda, const float *b, int ldb,
             float beta, float *c, int ldc)
{
    __shared__ float as[BM][BK], bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float accum[TM][TN] = { { 0.0f } };
    for (int t = 0; t < k; t += BK) {
        #pragma unroll
        for (int r = 0; r < CEIL_DIV(BM, TY); r++)
            #pragma unroll
            for (int s = 0; s < CEIL_DIV(BK, TX); s++) {
                int i = ty + r * TY, j = tx + s * TX;
                if ((BM % TY == 0 || i < BM) && (BK % TX == 0 || j < BK))
                    as[i][j] = row0 + i < m && t + j < k
                               ? a[(row0 + i) * lda + t + j] : 0.0f;
            }
        #pragma unroll
        for (int r = 0; r < CEIL_DIV(BK, TY); r++)
            #pragma unroll
            for (int s = 0; s < CEIL_DIV(BN, TX); s++) {
                int i = ty + r * TY, j = tx + s * TX;
                if ((BK % TY == 0 || i < BK) && (BN % TX == 0 || j < BN))
                    bs[i][j] = t + i < k && col0 + j < n
                               ? b[(t + i) * ldb + col0 + j] : 0.0f;
            }
        __syncthreads();
        /* ---- lab 4, Accumulate outer products: your code begins here ---- */
        /* Lab, chapter 4: thread (tx, ty) computes a TM x TN tile of the
           block's tile of C.  For each step p of the tiles in shared memory
           (p < BK), load into registers the TM values of column p of as and
           the TN values of row p of bs that its tile needs, and add their
           outer product to accum[TM][TN].  Unroll the loops (the sizes are
           constants) so that everything stays in registers.  The line below only lets the
           program compile: replace it. */
        accum[0][0] += as[0][0] * bs[0][0];
        /* ---- lab 4, Accumulate outer products: your code ends here ---- */
        __syncthreads();
    }
    #pragma unroll
    for (int i = 0; i < TM; i++)
        #pragma unroll
        for (int j = 0; j < TN; j++) {
            int row = row0 + ty * TM + i, col = col0 + tx * TN + j;
            float acc = accum[i][j];
            if (row < m && col < n) {
                float *cij = &c[row * ldc + col];
                *cij = beta == 0.0f ? alpha * acc : alpha * acc + beta * *cij;
            }
        }
}

static void run_tile2d(int m, int n, int k, float alpha,
                       const float *a, int lda, const float *b, int ldb,
                       float beta, float *c, int ldc)
{
    dim3 block(TX, TY);
    dim3 grid(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    sgemm_tile2d<<<grid, block>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#undef BM
#undef BN
#undef BK
#undef TM
#undef TN

static const struct kernel kernels[] = {
    { .name = "tile1d",
      .what = "64x64 block tile, 8x1 results per thread",
      .function = "sgemm_tile1d", .run = run_tile1d },
    { .name = "tile2d",
      .what = "128x128 block tile, 8x8 results per thread",
      .function = "sgemm_tile2d", .run = run_tile2d },
};

extern "C" const struct chapter ch4_program = {
    .title = "register tiling",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};
