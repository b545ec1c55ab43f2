/* ch8.cu: warp tiling. */
#include <stdint.h>
#include "harness.h"

#define TX (BN / TN)            /* threads along a row of the block */
#define TY (BM / TM)            /* threads along a column */
#define NT (TX * TY)            /* threads in the block */

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
        #pragma unroll
        for (int i = 0; i < BM; i += NT / BK)
            as[arow + i][acol] = row0 + arow + i < m && t + acol < k
                ? a[(row0 + arow + i) * lda + t + acol] : 0.0f;
        #pragma unroll
        for (int i = 0; i < BK; i += NT / BN)
            bs[brow + i][bcol] = t + brow + i < k && col0 + bcol < n
                ? b[(t + brow + i) * ldb + col0 + bcol] : 0.0f;
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

static void run_remap2d(int m, int n, int k, float alpha,
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

#undef TX
#undef TY
#undef NT

__device__ __forceinline__ float4
load4(const float *x, int ld, int row, int col, int rows, int cols)
{
    const float *p = &x[row * ld + col];
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= rows)
        return v;
    if (col + 3 < cols)
        return *(const float4 *)p;
    if (col < cols)
        v.x = p[0];
    if (col + 1 < cols)
        v.y = p[1];
    if (col + 2 < cols)
        v.z = p[2];
    return v;
}

static int aligned16(const float *a, const float *b, int lda, int ldb)
{
    uintptr_t addr = (uintptr_t)a | (uintptr_t)b;
    return addr % 16 == 0 && (lda | ldb) % 4 == 0;
}

#define ASWIZZLE(p) ((p) / 4 * (128 / BK) % 32)
#define BSWIZZLE(c) ((c) / 32 % 4 * 4)

#define APAD 0
#define AT(p, r) ast[p][(r) ^ ASWIZZLE(p)]
#define BT(p, c) bs[p][(c) ^ BSWIZZLE(c)]
#define TROW(i) (wrow + (i) / 4 * (WM / (TM / 4)) + lrow + (i) % 4)
#define TCOL(j) (wcol + (j) / 4 * (WN / (TN / 4)) + lcol + (j) % 4)

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN>
__global__ void __launch_bounds__(BM / WM * (BN / WN) * 32, 2)
sgemm_warptile(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc)
{
    enum { NT = BM / WM * (BN / WN) * 32 };
    static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles cover the block");
    static_assert(TM % 4 == 0 && TN % 4 == 0 && WM % TM == 0
                  && WN % TN == 0, "lanes' 4x4 blocks cover the warp tile");
    static_assert(WM / TM * (WN / TN) == 32, "a warp has 32 lanes");
    static_assert(BM % 32 == 0 && BN % 16 == 0 && 128 % BK == 0
                  && 128 / BK >= 4, "the swizzles need these tile sizes");
    static_assert(BK % 4 == 0 && BN % 4 == 0 && TM % 4 == 0 && TN % 4 == 0,
                  "rows of tiles must be whole float4s");
    static_assert((BM * BK / 4) % NT == 0 && (BK * BN / 4) % NT == 0,
                  "the threads must cover each tile in whole passes");
    __shared__ __align__(16) float ast[BK][BM + APAD];
    __shared__ __align__(16) float bs[BK][BN];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int wrow = warp / (BN / WN) * WM, wcol = warp % (BN / WN) * WN;
    int lrow = lane / (WN / TN) * 4, lcol = lane % (WN / TN) * 4;
    float accum[TM][TN] = { { 0.0f } };
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
            float ra[TM], rb[TN];
            #pragma unroll
            for (int i = 0; i < TM; i += 4)
                *(float4 *)&ra[i] = *(const float4 *)&AT(p, TROW(i));
            #pragma unroll
            for (int j = 0; j < TN; j += 4)
                *(float4 *)&rb[j] = *(const float4 *)&BT(p, TCOL(j));
            #pragma unroll
            for (int i = 0; i < TM; i++)
                #pragma unroll
                for (int j = 0; j < TN; j++)
                    accum[i][j] += ra[i] * rb[j];
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

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN>
static void run_warptile(int m, int n, int k, float alpha,
                         const float *a, int lda, const float *b, int ldb,
                         float beta, float *c, int ldc)
{
    dim3 grid(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    int threads = BM / WM * (BN / WN) * 32;
    if (!aligned16(a, b, lda, ldb))
        run_remap2d(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        sgemm_warptile<BM, BN, BK, WM, WN, TM, TN>
            <<<grid, threads>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#define WARP_TILING 128, 128, 16, 32, 64, 8, 8

static const struct kernel kernels[] = {
    { .name = "warptile",
      .what = "128x128 block, 32x64 warp, 8x8 thread tiles, swizzled",
      .function = "sgemm_warptile<128, 128, 16, 32, 64, 8, 8>",
      .run = run_warptile<WARP_TILING> },
};

static const struct chapter chapter = {
    .title = "warp tiling",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};

#if !defined(BOOK_CHAPTER) || !defined(BOOK_TARGET)
#error "build with make: it defines BOOK_CHAPTER and BOOK_TARGET"
#endif
int main(int argc, char **argv)
{
    struct chapter ch = chapter;
    ch.number = BOOK_CHAPTER;
    ch.target = BOOK_TARGET;
    return harness_main(argc, argv, &ch);
}
