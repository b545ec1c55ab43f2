/* ch6.cu: 128-bit loads and stores, A transposed in shared memory. */
#include "ch6.h"

#define TX (BN / TN)            /* threads along a row of the block */
#define TY (BM / TM)            /* threads along a column */
#define NT (TX * TY)            /* threads in the block */

#define BM 128
#define BN 128
#define BK 16
#define TM 8
#define TN 8

#define APAD 0
#define AT(p, r) ast[p][r]
#define BT(p, c) bs[p][c]
#define TROW(i) (ty * TM + (i))
#define TCOL(j) (tx * TN + (j))

__global__ void __launch_bounds__(NT, 2)
sgemm_float4(int m, int n, int k, float alpha,
             const float *a, int lda, const float *b, int ldb,
             float beta, float *c, int ldc)
{
    static_assert(BK % 4 == 0 && BN % 4 == 0 && TM % 4 == 0 && TN % 4 == 0,
                  "rows of tiles must be whole float4s");
    static_assert((BM * BK / 4) % NT == 0 && (BK * BN / 4) % NT == 0,
                  "the threads must cover each tile in whole passes");
    __shared__ __align__(16) float ast[BK][BM + APAD];
    __shared__ __align__(16) float bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float accum[TM][TN] = { { 0.0f } };
    int tid = ty * TX + tx;
    int inside = row0 + BM <= m && col0 + BN <= n;
    for (int t = 0; t < k; t += BK) {
        if (inside && t + BK <= k) {
            #pragma unroll
            for (int i = 0; i < BM * BK / 4; i += NT) {
                int r = (i + tid) / (BK / 4), q = (i + tid) % (BK / 4) * 4;
                float4 v = *(const float4 *)&a[(row0 + r) * lda + t + q];
                AT(q, r) = v.x;
                AT(q + 1, r) = v.y;
                AT(q + 2, r) = v.z;
                AT(q + 3, r) = v.w;
            }
            #pragma unroll
            for (int i = 0; i < BK * BN / 4; i += NT) {
                int r = (i + tid) / (BN / 4), q = (i + tid) % (BN / 4) * 4;
                *(float4 *)&BT(r, q) =
                    *(const float4 *)&b[(t + r) * ldb + col0 + q];
            }
        } else {
            #pragma unroll
            for (int i = 0; i < BM * BK / 4; i += NT) {
                int r = (i + tid) / (BK / 4), q = (i + tid) % (BK / 4) * 4;
                float4 v = load4(a, lda, row0 + r, t + q, m, k);
                AT(q, r) = v.x;
                AT(q + 1, r) = v.y;
                AT(q + 2, r) = v.z;
                AT(q + 3, r) = v.w;
            }
            #pragma unroll
            for (int i = 0; i < BK * BN / 4; i += NT) {
                int r = (i + tid) / (BN / 4), q = (i + tid) % (BN / 4) * 4;
                *(float4 *)&BT(r, q) = load4(b, ldb, t + r, col0 + q, k, n);
            }
        }
        __syncthreads();
        #pragma unroll
        for (int p = 0; p < BK; p++) {
            /* ---- lab 6, Outer product of step [[p]], read as float4s: your code begins here ---- */
            /* Lab, chapter 6: step p of the outer products, with 128-bit shared
               loads.  Read the thread's TM values of row p of the transposed A
               tile, AT(p, TROW(i)), and its TN values of row p of the B tile,
               BT(p, TCOL(j)), four at a time as float4s into ra[TM] and rb[TN];
               then add the outer product of ra and rb to accum.  The line below
               only lets the program compile: replace it. */
            accum[0][0] += AT(0, 0) * BT(0, 0);
            /* ---- lab 6, Outer product of step [[p]], read as float4s: your code ends here ---- */
        }
        __syncthreads();
    }
    int cvec = ((uintptr_t)c | (uintptr_t)ldc * sizeof(float)) % 16 == 0;
    #pragma unroll
    for (int i = 0; i < TM; i++)
        #pragma unroll
        for (int j = 0; j < TN; j += 4) {
            int row = row0 + TROW(i), col = col0 + TCOL(j);
            if (cvec && row < m && col + 3 < n) {
                float4 *cp = (float4 *)&c[row * ldc + col];
                float4 v = make_float4(alpha * accum[i][j], alpha * accum[i][j + 1],
                                       alpha * accum[i][j + 2], alpha * accum[i][j + 3]);
                if (beta != 0.0f) {
                    float4 old = *cp;
                    v.x += beta * old.x;
                    v.y += beta * old.y;
                    v.z += beta * old.z;
                    v.w += beta * old.w;
                }
                *cp = v;
            } else {
                for (int jj = j; jj < j + 4; jj++, col++) {
                    float acc = accum[i][jj];
                    if (row < m && col < n) {
                        float *cij = &c[row * ldc + col];
                        *cij = beta == 0.0f ? alpha * acc : alpha * acc + beta * *cij;
                    }
                }
            }
        }
}

#undef APAD
#undef AT
#undef BT
#undef TROW
#undef TCOL

void launch_float4(sgemm_kernel *kernel, int m, int n, int k, float alpha,
                                         const float *a, int lda, const float *b, int ldb,
                                         float beta, float *c, int ldc)
{
    dim3 block(TX, TY);
    dim3 grid(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    if (aligned16(a, b, lda, ldb))
        kernel<<<grid, block>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        run_remap2d(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static void run_float4(int m, int n, int k, float alpha,
                       const float *a, int lda, const float *b, int ldb,
                       float beta, float *c, int ldc)
{
    launch_float4(sgemm_float4, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#undef BM
#undef BN
#undef BK
#undef TM
#undef TN

static const struct kernel kernels[] = {
    { .name = "float4",
      .what = "ch5's 2D kernel with float4 loads and stores",
      .function = "sgemm_float4", .run = run_float4 },
};

extern "C" const struct chapter ch6_program = {
    .title = "wide loads: float4",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};
