/* ch7.cu: the float4 kernel without bank conflicts. */
#include "ch7.h"

#define TX (BN / TN)            /* threads along a row of the block */
#define TY (BM / TM)            /* threads along a column */
#define NT (TX * TY)            /* threads in the block */

#define BM 128
#define BN 128
#define BK 16
#define TM 8
#define TN 8

#define TROW(i) (ty * TM + (i))
#define TCOL(j) (tx * TN + (j))
#define APAD 4
#define AT(p, r) ast[p][r]
#define BT(p, c) bs[p][c]
__global__ void __launch_bounds__(NT, 2)
sgemm_padded(int m, int n, int k, float alpha,
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

/* ---- lab 7, Where the swizzled kernel keeps a tile's elements: your code begins here ---- */
/* Lab, chapter 7: the swizzles and the layout they give.
   ASWIZZLE(p) is what to XOR into column r of row p of the transposed
   tile of A, so that a warp's 32 stores of a column of A reach 32
   banks; BSWIZZLE(c) what to XOR into column c of the tile of B, so
   that a half-warp's 16-byte loads of a row meet each group of four
   banks as few times as they can.  Both must be multiples of 4 (a
   float4 stays whole) and keep a column inside its tile (the
   static_asserts check).  AT(p, r) and BT(p, c) say where elements
   (p, r) of the transposed tile of A and (p, c) of the tile of B live
   in ast and bs; every store and every load goes through them, so one
   layout serves both.  APAD stays 0. */
#undef ASWIZZLE
#undef BSWIZZLE
#define ASWIZZLE(p) 0
#define BSWIZZLE(c) 0
#define APAD 0
#define AT(p, r) ast[0][0]
#define BT(p, c) bs[0][0]
/* ---- lab 7, Where the swizzled kernel keeps a tile's elements: your code ends here ---- */
__global__ void __launch_bounds__(NT, 2)
sgemm_swizzled(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc)
{
    static_assert(BM % 32 == 0 && BN % 16 == 0 && 128 % BK == 0
                  && 128 / BK >= 4, "the swizzles need these tile sizes");
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

static void run_padded(int m, int n, int k, float alpha,
                       const float *a, int lda, const float *b, int ldb,
                       float beta, float *c, int ldc)
{
    launch_float4(sgemm_padded, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static void run_swizzled(int m, int n, int k, float alpha,
                         const float *a, int lda, const float *b, int ldb,
                         float beta, float *c, int ldc)
{
    launch_float4(sgemm_swizzled, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

#undef BM
#undef BN
#undef BK
#undef TM
#undef TN

static const struct kernel kernels[] = {
    { .name = "padded",
      .what = "ch6's float4 kernel, rows of the A tile padded by 4",
      .function = "sgemm_padded", .run = run_padded },
    { .name = "swizzled",
      .what = "ch6's float4 kernel, both tiles XOR-swizzled",
      .function = "sgemm_swizzled", .run = run_swizzled },
};

extern "C" const struct chapter ch7_program = {
    .title = "bank conflicts: padding and swizzling",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};
