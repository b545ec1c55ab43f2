/* ch5.cu: loads that follow a flat thread index. */
#include "ch5.h"

#define TX (BN / TN)            /* threads along a row of the block */
#define TY (BM / TM)            /* threads along a column */
#define NT (TX * TY)            /* threads in the block */

#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define TN 1

__global__ void __launch_bounds__(NT)
sgemm_remap1d(int m, int n, int k, float alpha,
              const float *a, int lda, const float *b, int ldb,
              float beta, float *c, int ldc)
{
    static_assert(NT % BK == 0 && BM % (NT / BK) == 0,
                  "the threads must cover the A tile in whole rows");
    static_assert(NT % BN == 0 && BK % (NT / BN) == 0,
                  "the threads must cover the B tile in whole rows");
    __shared__ float as[BM][BK], bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float accum[TM][TN] = { { 0.0f } };
    int tid = ty * TX + tx;
    int arow = tid / BK, acol = tid % BK;
    int brow = tid / BN, bcol = tid % BN;
    for (int t = 0; t < k; t += BK) {
        /* ---- lab 5, Load the tiles with a flat thread index: your code begins here ---- */
        /* Lab, chapter 5: copy the BM x BK tile of A (from row row0, column
           t) into as and the BK x BN tile of B (from row t, column col0) into
           bs, zeros outside the matrices.  The block's NT threads are one
           flat row of loaders: thread tid copies the element (arow, acol) of
           A's tile and (brow, bcol) of B's, found above, then the same
           columns NT / BK rows further down for A, NT / BN rows down for B,
           until the tiles are full.  The lines below only let the program
           compile: replace them. */
        as[arow][acol] = 0.0f;
        bs[brow][bcol] = 0.0f;
        /* ---- lab 5, Load the tiles with a flat thread index: your code ends here ---- */
        __syncthreads();
        #pragma unroll
        for (int p = 0; p < BK; p++) {
            float ra[TM], rb[TN];
            #pragma unroll
            for (int i = 0; i < TM; i++)
                ra[i] = as[ty * TM + i][p];
            #pragma unroll
            for (int j = 0; j < TN; j++)
                rb[j] = bs[p][tx * TN + j];
            #pragma unroll
            for (int i = 0; i < TM; i++)
                #pragma unroll
                for (int j = 0; j < TN; j++)
                    accum[i][j] += ra[i] * rb[j];
        }
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

static void run_remap1d(int m, int n, int k, float alpha,
                        const float *a, int lda, const float *b, int ldb,
                        float beta, float *c, int ldc)
{
    dim3 block(TX, TY);
    dim3 grid(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    sgemm_remap1d<<<grid, block>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
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
sgemm_remap2d(int m, int n, int k, float alpha,
              const float *a, int lda, const float *b, int ldb,
              float beta, float *c, int ldc)
{
    static_assert(NT % BK == 0 && BM % (NT / BK) == 0,
                  "the threads must cover the A tile in whole rows");
    static_assert(NT % BN == 0 && BK % (NT / BN) == 0,
                  "the threads must cover the B tile in whole rows");
    __shared__ float as[BM][BK], bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float accum[TM][TN] = { { 0.0f } };
    int tid = ty * TX + tx;
    int arow = tid / BK, acol = tid % BK;
    int brow = tid / BN, bcol = tid % BN;
    for (int t = 0; t < k; t += BK) {
        /* ---- lab 5, Load the tiles with a flat thread index: your code begins here ---- */
        /* Lab, chapter 5: copy the BM x BK tile of A (from row row0, column
           t) into as and the BK x BN tile of B (from row t, column col0) into
           bs, zeros outside the matrices.  The block's NT threads are one
           flat row of loaders: thread tid copies the element (arow, acol) of
           A's tile and (brow, bcol) of B's, found above, then the same
           columns NT / BK rows further down for A, NT / BN rows down for B,
           until the tiles are full.  The lines below only let the program
           compile: replace them. */
        as[arow][acol] = 0.0f;
        bs[brow][bcol] = 0.0f;
        /* ---- lab 5, Load the tiles with a flat thread index: your code ends here ---- */
        __syncthreads();
        #pragma unroll
        for (int p = 0; p < BK; p++) {
            float ra[TM], rb[TN];
            #pragma unroll
            for (int i = 0; i < TM; i++)
                ra[i] = as[ty * TM + i][p];
            #pragma unroll
            for (int j = 0; j < TN; j++)
                rb[j] = bs[p][tx * TN + j];
            #pragma unroll
            for (int i = 0; i < TM; i++)
                #pragma unroll
                for (int j = 0; j < TN; j++)
                    accum[i][j] += ra[i] * rb[j];
        }
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

void run_remap2d(int m, int n, int k, float alpha,
                 const float *a, int lda, const float *b, int ldb,
                 float beta, float *c, int ldc)
{
    dim3 block(TX, TY);
    dim3 grid(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    sgemm_remap2d<<<grid, block>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#undef BM
#undef BN
#undef BK
#undef TM
#undef TN

static const struct kernel kernels[] = {
    { .name = "remap1d",
      .what = "ch4's 1D kernel, loads by flat thread index",
      .function = "sgemm_remap1d", .run = run_remap1d },
    { .name = "remap2d",
      .what = "ch4's 2D kernel, loads by flat thread index",
      .function = "sgemm_remap2d", .run = run_remap2d },
};

extern "C" const struct chapter ch5_program = {
    .title = "index rearrangement",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};
