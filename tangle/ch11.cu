/* ch11.cu: FP32 accuracy from three TF32 products. */
#include <stdint.h>
#include <mma.h>
#include <cuda_bf16.h>
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

#define APAD 0
#define AT(p, r) ast[p][(r) ^ ASWIZZLE(p)]
#define BT(p, c) bs[p][(c) ^ BSWIZZLE(c)]
#define TROW(i) (wrow + (i) / 4 * (WM / (TM / 4)) + lrow + (i) % 4)
#define TCOL(j) (wcol + (j) / 4 * (WN / (TN / 4)) + lcol + (j) % 4)

template <int VEC>
__device__ __forceinline__ float4
fetch4(const float *x, int ld, int row, int col, int rows, int cols,
       int whole)
{
    const float *p = &x[row * ld + col];
    if (VEC == 4)
        return whole ? *(const float4 *)p : load4(x, ld, row, col, rows, cols);
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (whole || row < rows) {
        if (whole || col < cols)
            v.x = p[0];
        if (whole || col + 1 < cols)
            v.y = p[1];
        if (whole || col + 2 < cols)
            v.z = p[2];
        if (whole || col + 3 < cols)
            v.w = p[3];
    }
    return v;
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MINB>
__global__ void __launch_bounds__(BM / WM * (BN / WN) * 32, MINB)
sgemm_dbuf(int m, int n, int k, float alpha,
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
    __shared__ __align__(16) float abuf[2][BK][BM + APAD];
    __shared__ __align__(16) float bbuf[2][BK][BN];
    float (*ast)[BM + APAD] = abuf[0];
    float (*bs)[BN] = bbuf[0];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int wrow = warp / (BN / WN) * WM, wcol = warp % (BN / WN) * WN;
    int lrow = lane / (WN / TN) * 4, lcol = lane % (WN / TN) * 4;
    float accum[TM][TN] = { { 0.0f } };
    int kshare = CEIL_DIV(CEIL_DIV(k, (int)gridDim.z), BK) * BK;
    int kbeg = blockIdx.z * kshare;
    int kend = kbeg + kshare < k ? kbeg + kshare : k;
    float4 anext[BM * BK / 4 / NT], bnext[BK * BN / 4 / NT];
    if (((uintptr_t)a | (uintptr_t)b) % 16 == 0 && (lda | ldb) % 4 == 0) {
        enum { VEC = 4 };
        int inside = row0 + BM <= m && col0 + BN <= n;
        int t = kbeg, whole = inside && t + BK <= kend;
        #pragma unroll
        for (int i = 0; i < BM * BK / 4 / NT; i++) {
            int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
            anext[i] = fetch4<VEC>(a, lda, row0 + r, t + q, m, kend, whole);
        }
        #pragma unroll
        for (int i = 0; i < BK * BN / 4 / NT; i++) {
            int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
            bnext[i] = fetch4<VEC>(b, ldb, t + r, col0 + q, kend, n, whole);
        }
        #pragma unroll
        for (int i = 0; i < BM * BK / 4 / NT; i++) {
            int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
            float4 v = anext[i];
            AT(q, r) = v.x;
            AT(q + 1, r) = v.y;
            AT(q + 2, r) = v.z;
            AT(q + 3, r) = v.w;
        }
        #pragma unroll
        for (int i = 0; i < BK * BN / 4 / NT; i++) {
            int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
            *(float4 *)&BT(r, q) = bnext[i];
        }
        __syncthreads();
        for (int buf = 0; t < kend; buf ^= 1) {
            int more = (t += BK) < kend;
            whole = inside && t + BK <= kend;
            if (more) {
                #pragma unroll
                for (int i = 0; i < BM * BK / 4 / NT; i++) {
                    int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
                    anext[i] = fetch4<VEC>(a, lda, row0 + r, t + q, m, kend, whole);
                }
                #pragma unroll
                for (int i = 0; i < BK * BN / 4 / NT; i++) {
                    int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                    bnext[i] = fetch4<VEC>(b, ldb, t + r, col0 + q, kend, n, whole);
                }
            }
            ast = abuf[buf];
            bs = bbuf[buf];
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
            if (more) {
                ast = abuf[buf ^ 1];
                bs = bbuf[buf ^ 1];
                #pragma unroll
                for (int i = 0; i < BM * BK / 4 / NT; i++) {
                    int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
                    float4 v = anext[i];
                    AT(q, r) = v.x;
                    AT(q + 1, r) = v.y;
                    AT(q + 2, r) = v.z;
                    AT(q + 3, r) = v.w;
                }
                #pragma unroll
                for (int i = 0; i < BK * BN / 4 / NT; i++) {
                    int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                    *(float4 *)&BT(r, q) = bnext[i];
                }
            }
            __syncthreads();
        }
    } else {
        enum { VEC = 1 };
        int inside = row0 + BM <= m && col0 + BN <= n;
        int t = kbeg, whole = inside && t + BK <= kend;
        #pragma unroll
        for (int i = 0; i < BM * BK / 4 / NT; i++) {
            int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
            anext[i] = fetch4<VEC>(a, lda, row0 + r, t + q, m, kend, whole);
        }
        #pragma unroll
        for (int i = 0; i < BK * BN / 4 / NT; i++) {
            int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
            bnext[i] = fetch4<VEC>(b, ldb, t + r, col0 + q, kend, n, whole);
        }
        #pragma unroll
        for (int i = 0; i < BM * BK / 4 / NT; i++) {
            int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
            float4 v = anext[i];
            AT(q, r) = v.x;
            AT(q + 1, r) = v.y;
            AT(q + 2, r) = v.z;
            AT(q + 3, r) = v.w;
        }
        #pragma unroll
        for (int i = 0; i < BK * BN / 4 / NT; i++) {
            int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
            *(float4 *)&BT(r, q) = bnext[i];
        }
        __syncthreads();
        for (int buf = 0; t < kend; buf ^= 1) {
            int more = (t += BK) < kend;
            whole = inside && t + BK <= kend;
            if (more) {
                #pragma unroll
                for (int i = 0; i < BM * BK / 4 / NT; i++) {
                    int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
                    anext[i] = fetch4<VEC>(a, lda, row0 + r, t + q, m, kend, whole);
                }
                #pragma unroll
                for (int i = 0; i < BK * BN / 4 / NT; i++) {
                    int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                    bnext[i] = fetch4<VEC>(b, ldb, t + r, col0 + q, kend, n, whole);
                }
            }
            ast = abuf[buf];
            bs = bbuf[buf];
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
            if (more) {
                ast = abuf[buf ^ 1];
                bs = bbuf[buf ^ 1];
                #pragma unroll
                for (int i = 0; i < BM * BK / 4 / NT; i++) {
                    int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
                    float4 v = anext[i];
                    AT(q, r) = v.x;
                    AT(q + 1, r) = v.y;
                    AT(q + 2, r) = v.z;
                    AT(q + 3, r) = v.w;
                }
                #pragma unroll
                for (int i = 0; i < BK * BN / 4 / NT; i++) {
                    int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                    *(float4 *)&BT(r, q) = bnext[i];
                }
            }
            __syncthreads();
        }
    }
    if (gridDim.z == 1) {
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
    } else {
        #pragma unroll
        for (int i = 0; i < TM; i++)
            #pragma unroll
            for (int j = 0; j < TN; j++) {
                int row = row0 + TROW(i), col = col0 + TCOL(j);
                if (row < m && col < n)
                    atomicAdd(&c[row * ldc + col], alpha * accum[i][j]);
            }
    }
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MINB>
__global__ void __launch_bounds__(BM / WM * (BN / WN) * 32, MINB)
sgemm_streamk(int m, int n, int k, float alpha,
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
    __shared__ __align__(16) float abuf[2][BK][BM + APAD];
    __shared__ __align__(16) float bbuf[2][BK][BN];
    float (*ast)[BM + APAD] = abuf[0];
    float (*bs)[BN] = bbuf[0];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int tx = CEIL_DIV(n, BN), steps = CEIL_DIV(k, BK);
    long long total = (long long)tx * CEIL_DIV(m, BM) * steps;
    long long step = total * blockIdx.x / gridDim.x;
    long long stop = total * (blockIdx.x + 1) / gridDim.x;
    while (step < stop) {
        int tile = (int)(step / steps), first = (int)(step % steps);
        int last = stop - step < steps - first ? first + (int)(stop - step)
                                               : steps;
        int row0 = tile / tx * BM, col0 = tile % tx * BN;
        int kbeg = first * BK, kend = last * BK < k ? last * BK : k;
        int wrow = warp / (BN / WN) * WM, wcol = warp % (BN / WN) * WN;
        int lrow = lane / (WN / TN) * 4, lcol = lane % (WN / TN) * 4;
        float accum[TM][TN] = { { 0.0f } };
        float4 anext[BM * BK / 4 / NT], bnext[BK * BN / 4 / NT];
        ast = abuf[0];
        bs = bbuf[0];
        if (((uintptr_t)a | (uintptr_t)b) % 16 == 0 && (lda | ldb) % 4 == 0) {
            enum { VEC = 4 };
            int inside = row0 + BM <= m && col0 + BN <= n;
            int t = kbeg, whole = inside && t + BK <= kend;
            #pragma unroll
            for (int i = 0; i < BM * BK / 4 / NT; i++) {
                int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
                anext[i] = fetch4<VEC>(a, lda, row0 + r, t + q, m, kend, whole);
            }
            #pragma unroll
            for (int i = 0; i < BK * BN / 4 / NT; i++) {
                int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                bnext[i] = fetch4<VEC>(b, ldb, t + r, col0 + q, kend, n, whole);
            }
            #pragma unroll
            for (int i = 0; i < BM * BK / 4 / NT; i++) {
                int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
                float4 v = anext[i];
                AT(q, r) = v.x;
                AT(q + 1, r) = v.y;
                AT(q + 2, r) = v.z;
                AT(q + 3, r) = v.w;
            }
            #pragma unroll
            for (int i = 0; i < BK * BN / 4 / NT; i++) {
                int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                *(float4 *)&BT(r, q) = bnext[i];
            }
            __syncthreads();
            for (int buf = 0; t < kend; buf ^= 1) {
                int more = (t += BK) < kend;
                whole = inside && t + BK <= kend;
                if (more) {
                    #pragma unroll
                    for (int i = 0; i < BM * BK / 4 / NT; i++) {
                        int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
                        anext[i] = fetch4<VEC>(a, lda, row0 + r, t + q, m, kend, whole);
                    }
                    #pragma unroll
                    for (int i = 0; i < BK * BN / 4 / NT; i++) {
                        int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                        bnext[i] = fetch4<VEC>(b, ldb, t + r, col0 + q, kend, n, whole);
                    }
                }
                ast = abuf[buf];
                bs = bbuf[buf];
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
                if (more) {
                    ast = abuf[buf ^ 1];
                    bs = bbuf[buf ^ 1];
                    #pragma unroll
                    for (int i = 0; i < BM * BK / 4 / NT; i++) {
                        int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
                        float4 v = anext[i];
                        AT(q, r) = v.x;
                        AT(q + 1, r) = v.y;
                        AT(q + 2, r) = v.z;
                        AT(q + 3, r) = v.w;
                    }
                    #pragma unroll
                    for (int i = 0; i < BK * BN / 4 / NT; i++) {
                        int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                        *(float4 *)&BT(r, q) = bnext[i];
                    }
                }
                __syncthreads();
            }
        } else {
            enum { VEC = 1 };
            int inside = row0 + BM <= m && col0 + BN <= n;
            int t = kbeg, whole = inside && t + BK <= kend;
            #pragma unroll
            for (int i = 0; i < BM * BK / 4 / NT; i++) {
                int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
                anext[i] = fetch4<VEC>(a, lda, row0 + r, t + q, m, kend, whole);
            }
            #pragma unroll
            for (int i = 0; i < BK * BN / 4 / NT; i++) {
                int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                bnext[i] = fetch4<VEC>(b, ldb, t + r, col0 + q, kend, n, whole);
            }
            #pragma unroll
            for (int i = 0; i < BM * BK / 4 / NT; i++) {
                int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
                float4 v = anext[i];
                AT(q, r) = v.x;
                AT(q + 1, r) = v.y;
                AT(q + 2, r) = v.z;
                AT(q + 3, r) = v.w;
            }
            #pragma unroll
            for (int i = 0; i < BK * BN / 4 / NT; i++) {
                int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                *(float4 *)&BT(r, q) = bnext[i];
            }
            __syncthreads();
            for (int buf = 0; t < kend; buf ^= 1) {
                int more = (t += BK) < kend;
                whole = inside && t + BK <= kend;
                if (more) {
                    #pragma unroll
                    for (int i = 0; i < BM * BK / 4 / NT; i++) {
                        int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
                        anext[i] = fetch4<VEC>(a, lda, row0 + r, t + q, m, kend, whole);
                    }
                    #pragma unroll
                    for (int i = 0; i < BK * BN / 4 / NT; i++) {
                        int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                        bnext[i] = fetch4<VEC>(b, ldb, t + r, col0 + q, kend, n, whole);
                    }
                }
                ast = abuf[buf];
                bs = bbuf[buf];
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
                if (more) {
                    ast = abuf[buf ^ 1];
                    bs = bbuf[buf ^ 1];
                    #pragma unroll
                    for (int i = 0; i < BM * BK / 4 / NT; i++) {
                        int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4) * 4;
                        float4 v = anext[i];
                        AT(q, r) = v.x;
                        AT(q + 1, r) = v.y;
                        AT(q + 2, r) = v.z;
                        AT(q + 3, r) = v.w;
                    }
                    #pragma unroll
                    for (int i = 0; i < BK * BN / 4 / NT; i++) {
                        int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                        *(float4 *)&BT(r, q) = bnext[i];
                    }
                }
                __syncthreads();
            }
        }
        #pragma unroll
        for (int i = 0; i < TM; i++)
            #pragma unroll
            for (int j = 0; j < TN; j++) {
                int row = row0 + TROW(i), col = col0 + TCOL(j);
                if (row < m && col < n)
                    atomicAdd(&c[row * ldc + col], alpha * accum[i][j]);
            }
        step += last - first;
    }
}

#undef APAD
#undef AT
#undef BT

__device__ __forceinline__ void
cp_async(float *dst, const float *src, int bytes, int valid)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    if (bytes == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
                     :: "r"(s), "l"(src), "r"(valid));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n"
                     :: "r"(s), "l"(src), "r"(valid));
}

__device__ __forceinline__ void cp_async_commit(void)
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int N>
__device__ __forceinline__ void cp_async_wait(void)
{
    asm volatile("cp.async.wait_group %0;\n" :: "n"(N));
}

template <int VEC>
__device__ __forceinline__ void
copy4(float *dst, const float *x, int ld, int row, int col,
      int rows, int cols)
{
    int in = row < rows ? cols - col : 0;   /* floats that exist */
    in = in < 0 ? 0 : in > 4 ? 4 : in;
    if (VEC == 4) {
        cp_async(dst, in ? &x[row * ld + col] : x, 16, 4 * in);
    } else {
        #pragma unroll
        for (int e = 0; e < 4; e++)
            cp_async(dst + e, e < in ? &x[row * ld + col + e] : x, 4,
                     e < in ? 4 : 0);
    }
}

#define APAD 0
#define AT(p, r) apipe[(s * BK + (p)) * BM + ((r) ^ (p) % 4 * 8)]
#define BT(p, c) bpipe[(s * BK + (p)) * BN + ((c) ^ BSWIZZLE(c))]

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN,
          int STAGES, int VEC, int MINB>
__global__ void __launch_bounds__(BM / WM * (BN / WN) * 32, MINB)
sgemm_pipe(int m, int n, int k, float alpha,
           const float *a, int lda, const float *b, int ldb,
           float beta, float *c, int ldc)
{
    enum { NT = BM / WM * (BN / WN) * 32 };
    static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles cover the block");
    static_assert(TM % 4 == 0 && TN % 4 == 0 && WM % TM == 0
                  && WN % TN == 0, "lanes' 4x4 blocks cover the warp tile");
    static_assert(WM / TM * (WN / TN) == 32, "a warp has 32 lanes");
    static_assert(BK % 4 == 0 && BN % 4 == 0 && TM % 4 == 0 && TN % 4 == 0,
                  "rows of tiles must be whole float4s");
    static_assert((BM * BK / 4) % NT == 0 && (BK * BN / 4) % NT == 0,
                  "the threads must cover each tile in whole passes");
    static_assert(STAGES >= 2 && BK % 4 == 0 && BM % 32 == 0
                  && BN % 16 == 0 && BM % (NT / 4) == 0,
                  "a pipeline needs two stages and these tile sizes");
    extern __shared__ __align__(16) float smem[];
    float *apipe = smem, *bpipe = smem + STAGES * BM * BK;
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int wrow = warp / (BN / WN) * WM, wcol = warp % (BN / WN) * WN;
    int lrow = lane / (WN / TN) * 4, lcol = lane % (WN / TN) * 4;
    float accum[TM][TN] = { { 0.0f } };
    int steps = CEIL_DIV(k, BK);
    #pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        int t = s * BK;
        if (s < steps) {
            #pragma unroll
            for (int j = 0; j < BM / (NT / 4); j++) {
                int r = tid / 32 * 8 + tid % 8 + j * (NT / 4);
                const float *arow = &a[(row0 + r) * lda + t];
                #pragma unroll
                for (int q = tid % 32 / 8; q < BK; q += 4) {
                    int in = row0 + r < m && t + q < k;
                    cp_async(&AT(q, r), in ? arow + q : a, 4, 4 * in);
                }
            }
            #pragma unroll
            for (int i = 0; i < BK * BN / 4 / NT; i++) {
                int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                copy4<VEC>(&BT(r, q), b, ldb, t + r, col0 + q, k, n);
            }
        }
        cp_async_commit();
    }
    for (int step = 0; step < steps; step++) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        {
            int s = (step + STAGES - 1) % STAGES, t = (step + STAGES - 1) * BK;
            if (step + STAGES - 1 < steps) {
                #pragma unroll
                for (int j = 0; j < BM / (NT / 4); j++) {
                    int r = tid / 32 * 8 + tid % 8 + j * (NT / 4);
                    const float *arow = &a[(row0 + r) * lda + t];
                    #pragma unroll
                    for (int q = tid % 32 / 8; q < BK; q += 4) {
                        int in = row0 + r < m && t + q < k;
                        cp_async(&AT(q, r), in ? arow + q : a, 4, 4 * in);
                    }
                }
                #pragma unroll
                for (int i = 0; i < BK * BN / 4 / NT; i++) {
                    int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4) * 4;
                    copy4<VEC>(&BT(r, q), b, ldb, t + r, col0 + q, k, n);
                }
            }
            cp_async_commit();
        }
        int s = step % STAGES;
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

__global__ void scale_kernel(int m, int n, float beta, float *c, int ldc)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < n)
        for (int row = blockIdx.y; row < m; row += gridDim.y) {
            float *cij = &c[row * ldc + col];
            *cij = beta == 0.0f ? 0.0f : beta * *cij;
        }
}

static void scale_c(int m, int n, float beta, float *c, int ldc)
{
    dim3 grid(CEIL_DIV(n, 256), m < 1024 ? m : 1024);
    if (beta == 0.0f) {
        CUDA_CHECK(cudaMemset2DAsync(c, ldc * sizeof(float), 0,
                                     n * sizeof(float), m, 0));
        return;
    }
    scale_kernel<<<grid, 256>>>(m, n, beta, c, ldc);
    CUDA_CHECK(cudaGetLastError());
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MINB>
static void launch_dbuf(int splits, int m, int n, int k, float alpha,
                                    const float *a, int lda, const float *b, int ldb,
                                    float beta, float *c, int ldc)
{
    dim3 grid(CEIL_DIV(n, BN), CEIL_DIV(m, BM), splits);
    int threads = BM / WM * (BN / WN) * 32;
    if (splits > 1)
        scale_c(m, n, beta, c, ldc);
    sgemm_dbuf<BM, BN, BK, WM, WN, TM, TN, MINB>
        <<<grid, threads>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MINB>
static void run_dbuf(int m, int n, int k, float alpha,
                     const float *a, int lda, const float *b, int ldb,
                     float beta, float *c, int ldc)
{
    launch_dbuf<BM, BN, BK, WM, WN, TM, TN, MINB>(1, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static int sm_count(void)
{
    static int sms;
    if (!sms) {
        int dev;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms,
                   cudaDevAttrMultiProcessorCount, dev));
    }
    return sms;
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MINB>
static void run_streamk(int m, int n, int k, float alpha,
                        const float *a, int lda, const float *b, int ldb,
                        float beta, float *c, int ldc)
{
    static int slots;              /* blocks the GPU runs at once */
    int threads = BM / WM * (BN / WN) * 32;
    if (!slots) {
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&slots,
                   sgemm_streamk<BM, BN, BK, WM, WN, TM, TN, MINB>,
                   threads, 0));
        slots *= sm_count();
    }
    scale_c(m, n, beta, c, ldc);
    sgemm_streamk<BM, BN, BK, WM, WN, TM, TN, MINB>
        <<<slots, threads>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN,
          int STAGES, int MINB>
static void run_pipe(int m, int n, int k, float alpha,
                     const float *a, int lda, const float *b, int ldb,
                     float beta, float *c, int ldc)
{
    dim3 grid(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    int threads = BM / WM * (BN / WN) * 32;
    size_t bytes = (size_t)STAGES * (BM + BN) * BK * sizeof(float);
    int vec = ((uintptr_t)a | (uintptr_t)b) % 16 == 0
              && (lda | ldb) % 4 == 0;
    static int ready;
    if (!ready) {
        CUDA_CHECK(cudaFuncSetAttribute(
            sgemm_pipe<BM, BN, BK, WM, WN, TM, TN, STAGES, 4, MINB>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        CUDA_CHECK(cudaFuncSetAttribute(
            sgemm_pipe<BM, BN, BK, WM, WN, TM, TN, STAGES, 1, MINB>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        ready = 1;
    }
    if (vec)
        sgemm_pipe<BM, BN, BK, WM, WN, TM, TN, STAGES, 4, MINB>
            <<<grid, threads, bytes>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        sgemm_pipe<BM, BN, BK, WM, WN, TM, TN, STAGES, 1, MINB>
            <<<grid, threads, bytes>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MINB>
static void run_waves(int m, int n, int k, float alpha,
                      const float *a, int lda, const float *b, int ldb,
                      float beta, float *c, int ldc)
{
    int sms = sm_count(), tx = CEIL_DIV(n, BN), ty = CEIL_DIV(m, BM);
    int last = tx * ty % sms;               /* tiles in the last wave */
    int rows = CEIL_DIV(last, tx);          /* rows of tiles to split */
    int splits = last ? sms / (rows * tx) : 1;
    if (splits > k / (16 * BK))
        splits = k / (16 * BK);
    if (tx * ty < sms || 2 * last > sms || splits < 2) {
        launch_dbuf<BM, BN, BK, WM, WN, TM, TN, MINB>(1, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    int top = (ty - rows) * BM;             /* rows of C in full waves */
    launch_dbuf<BM, BN, BK, WM, WN, TM, TN, MINB>(1, top, n, k, alpha,
                a, lda, b, ldb, beta, c, ldc);
    launch_dbuf<BM, BN, BK, WM, WN, TM, TN, MINB>(splits, m - top, n, k,
                alpha, a + top * lda, lda, b, ldb, beta, c + top * ldc, ldc);
}

#define LARGE 256, 128, 16, 64, 64, 16, 8, 1
#define MIDDLE 128, 128, 16, 32, 64, 8, 8, 1
#define SMALL 128, 64, 16, 32, 32, 8, 4, 2

static void run_tuned(int m, int n, int k, float alpha,
                      const float *a, int lda, const float *b, int ldb,
                      float beta, float *c, int ldc)
{
    int sms = sm_count();
    if (4 * CEIL_DIV(m, 256) * CEIL_DIV(n, 128) >= 3 * sms)
        run_waves<LARGE>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (CEIL_DIV(m, 128) * CEIL_DIV(n, 64) <= sms)
        run_dbuf<SMALL>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        run_streamk<MIDDLE>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

__device__ __forceinline__ unsigned
to_tf32(float x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

__device__ __forceinline__ void
ldmatrix_x4(unsigned *r, const void *p)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
                 "{%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

__device__ __forceinline__ void
ldmatrix_x4_trans(unsigned *r, const void *p)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
                 "{%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

__device__ __forceinline__ void
mma_tf32(float *d, const unsigned *a, const unsigned *b)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]),
                   "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void
mma_bf16(float *d, const unsigned *a, const unsigned *b)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]),
                   "r"(b[0]), "r"(b[1]));
}

template <int ROUND>
__device__ __forceinline__ unsigned
rounded(unsigned x)
{
    return ROUND == 1 ? to_tf32(__uint_as_float(x))
         : ROUND == 2 ? x + 0x1000u : x;
}

#define TA(s, r, c) (apipe + ((s) * BM + (r)) * BK + (((c) ^ ((r) & 7)) * 4))
#define TBT(s, r, c) (bpipe + ((s) * BN + (r)) * BK + (((c) ^ ((r) & 7)) * 4))
#define TB(s, k, c) (bpipe + ((s) * BK + (k)) * BN + (((c) ^ (((k) & 3) * 2)) * 4))

template <int BM, int BN, int WM, int WN, int STAGES, int VEC, int MINB,
          int ROUND, int BT>
__global__ void __launch_bounds__(BM / WM * (BN / WN) * 32, MINB)
tf32_mma(int m, int n, int k, float alpha,
         const float *a, int lda, const float *b, int ldb,
         float beta, float *c, int ldc)
{
    enum { BK = 32, PARTS = BK / 8 };
    extern __shared__ __align__(16) float smem[];
    float *apipe = smem, *bpipe = smem + STAGES * BM * BK;
    enum { NT = BM / WM * (BN / WN) * 32 };
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int inside = row0 + BM <= m && col0 + BN <= n;
    int wrow = warp / (BN / WN) * WM, wcol = warp % (BN / WN) * WN;
    float acc[WM / 16][WN / 8][4] = { { { 0.0f } } };
    int steps = CEIL_DIV(k, BK);
    static_assert(BN % 32 == 0 && WM % 16 == 0 && WN % 16 == 0
                  && (BM * BK / 4) % NT == 0 && (BK * BN / 4) % NT == 0,
                  "TF32 tile sizes");
    static_assert(ROUND != 3 || BT, "the pre-pass rounds A only with B");
    enum { AROWS = NT / (BK / 4) };
    static_assert(AROWS % 8 == 0, "copies keep one swizzle");
    const float *ga = a + (size_t)(row0 + tid / (BK / 4)) * lda
                      + 4 * (tid % (BK / 4));
    const float *gb = b + (size_t)(col0 + tid / (BK / 4)) * ldb
                      + 4 * (tid % (BK / 4));
    float *sa = TA(0, tid / (BK / 4), tid % (BK / 4));
    float *sb = TBT(0, tid / (BK / 4), tid % (BK / 4));
    int kq = k - 4 * (tid % (BK / 4));     /* floats left in my column */
    int aoff[PARTS], boff[PARTS];
    #pragma unroll
    for (int j = 0; j < PARTS; j++) {
        aoff[j] = TA(0, wrow + lane / 8 % 2 * 8 + lane % 8, 2 * j + lane / 16)
                  - apipe;
        boff[j] = TBT(0, wcol + lane / 16 * 8 + lane % 8, 2 * j + lane / 8 % 2)
                  - bpipe;
    }
    if (VEC == 4 && BT && inside) {
        const int fast = 1;
        unsigned af[2][WM / 16][4], bf[2][WN / 8][2];
        #pragma unroll
        for (int s = 0; s < STAGES - 1; s++) {
            int t = s * BK;
            #pragma unroll
            for (int p = 0; p < PARTS; p++) {
                if (fast) {
                    int in = kq - t < 0 ? 0 : kq - t > 4 ? 4 : kq - t;
                    int from = in ? t : 0;
                    #pragma unroll
                    for (int i = p; i < BM * BK / 4 / NT; i += PARTS)
                        cp_async(sa + (s * BM + i * AROWS) * BK,
                                 ga + (size_t)i * AROWS * lda + from, 16, 4 * in);
                    #pragma unroll
                    for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                        cp_async(sb + (s * BN + i * AROWS) * BK,
                                 gb + (size_t)i * AROWS * ldb + from, 16, 4 * in);
                } else if (t < k) {
                    #pragma unroll
                    for (int i = p; i < BM * BK / 4 / NT; i += PARTS) {
                        int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                        copy4<VEC>(TA(s, r, q), a, lda, row0 + r, t + 4 * q, m, k);
                    }
                    #pragma unroll
                    for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                        if (BT) {
                            int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                            copy4<VEC>(TBT(s, r, q), b, ldb, col0 + r, t + 4 * q, n, k);
                        } else {
                            int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4);
                            copy4<VEC>(TB(s, r, q), b, ldb, t + r, col0 + 4 * q, k, n);
                        }
                }
            }
            cp_async_commit();
        }
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        {
            const int s = 0, kk = 0, buf = 0;
            #pragma unroll
            for (int mi = 0; mi < WM / 16; mi++) {
                ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 8] + mi * 16 * BK);
                #pragma unroll
                for (int e = 0; e < 4; e++)
                    af[buf][mi][e] = rounded<ROUND>(af[buf][mi][e]);
            }
            #pragma unroll
            for (int ni = 0; ni < WN / 8; ni += 2)
                if (BT) {
                    unsigned r4[4];
                    ldmatrix_x4(r4, bpipe + s * BN * BK + boff[kk / 8] + ni * 8 * BK);
                    bf[buf][ni][0] = r4[0];
                    bf[buf][ni][1] = r4[1];
                    bf[buf][ni + 1][0] = r4[2];
                    bf[buf][ni + 1][1] = r4[3];
                } else {
                    #pragma unroll
                    for (int j = 0; j < 2; j++) {
                        int c = wcol + (ni + j) * 8 + lane / 4;
                        bf[buf][ni + j][0] = rounded<ROUND>(
                            __float_as_uint(TB(s, kk + lane % 4, c / 4)[c % 4]));
                        bf[buf][ni + j][1] = rounded<ROUND>(
                            __float_as_uint(TB(s, kk + lane % 4 + 4, c / 4)[c % 4]));
                    }
                }
        }
        for (int step = 0; step < steps; step++) {
            int s = step % STAGES;
            #pragma unroll
            for (int p = 0; p < PARTS; p++) {
                {
                    int s = (step + STAGES - 1) % STAGES, t = (step + STAGES - 1) * BK;
                    if (fast) {
                        int in = kq - t < 0 ? 0 : kq - t > 4 ? 4 : kq - t;
                        int from = in ? t : 0;
                        #pragma unroll
                        for (int i = p; i < BM * BK / 4 / NT; i += PARTS)
                            cp_async(sa + (s * BM + i * AROWS) * BK,
                                     ga + (size_t)i * AROWS * lda + from, 16, 4 * in);
                        #pragma unroll
                        for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                            cp_async(sb + (s * BN + i * AROWS) * BK,
                                     gb + (size_t)i * AROWS * ldb + from, 16, 4 * in);
                    } else if (t < k) {
                        #pragma unroll
                        for (int i = p; i < BM * BK / 4 / NT; i += PARTS) {
                            int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                            copy4<VEC>(TA(s, r, q), a, lda, row0 + r, t + 4 * q, m, k);
                        }
                        #pragma unroll
                        for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                            if (BT) {
                                int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                                copy4<VEC>(TBT(s, r, q), b, ldb, col0 + r, t + 4 * q, n, k);
                            } else {
                                int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4);
                                copy4<VEC>(TB(s, r, q), b, ldb, t + r, col0 + 4 * q, k, n);
                            }
                    }
                }
                if (p == PARTS - 1) {
                    cp_async_commit();
                    cp_async_wait<STAGES - 2>();
                    __syncthreads();
                    const int s = (step + 1) % STAGES, kk = 0, buf = (p + 1) % 2;
                    #pragma unroll
                    for (int mi = 0; mi < WM / 16; mi++) {
                        ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 8] + mi * 16 * BK);
                        #pragma unroll
                        for (int e = 0; e < 4; e++)
                            af[buf][mi][e] = rounded<ROUND>(af[buf][mi][e]);
                    }
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni += 2)
                        if (BT) {
                            unsigned r4[4];
                            ldmatrix_x4(r4, bpipe + s * BN * BK + boff[kk / 8] + ni * 8 * BK);
                            bf[buf][ni][0] = r4[0];
                            bf[buf][ni][1] = r4[1];
                            bf[buf][ni + 1][0] = r4[2];
                            bf[buf][ni + 1][1] = r4[3];
                        } else {
                            #pragma unroll
                            for (int j = 0; j < 2; j++) {
                                int c = wcol + (ni + j) * 8 + lane / 4;
                                bf[buf][ni + j][0] = rounded<ROUND>(
                                    __float_as_uint(TB(s, kk + lane % 4, c / 4)[c % 4]));
                                bf[buf][ni + j][1] = rounded<ROUND>(
                                    __float_as_uint(TB(s, kk + lane % 4 + 4, c / 4)[c % 4]));
                            }
                        }
                } else {
                    const int kk = (p + 1) * 8, buf = (p + 1) % 2;
                    #pragma unroll
                    for (int mi = 0; mi < WM / 16; mi++) {
                        ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 8] + mi * 16 * BK);
                        #pragma unroll
                        for (int e = 0; e < 4; e++)
                            af[buf][mi][e] = rounded<ROUND>(af[buf][mi][e]);
                    }
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni += 2)
                        if (BT) {
                            unsigned r4[4];
                            ldmatrix_x4(r4, bpipe + s * BN * BK + boff[kk / 8] + ni * 8 * BK);
                            bf[buf][ni][0] = r4[0];
                            bf[buf][ni][1] = r4[1];
                            bf[buf][ni + 1][0] = r4[2];
                            bf[buf][ni + 1][1] = r4[3];
                        } else {
                            #pragma unroll
                            for (int j = 0; j < 2; j++) {
                                int c = wcol + (ni + j) * 8 + lane / 4;
                                bf[buf][ni + j][0] = rounded<ROUND>(
                                    __float_as_uint(TB(s, kk + lane % 4, c / 4)[c % 4]));
                                bf[buf][ni + j][1] = rounded<ROUND>(
                                    __float_as_uint(TB(s, kk + lane % 4 + 4, c / 4)[c % 4]));
                            }
                        }
                }
                const int buf = p % 2;
                #pragma unroll
                for (int mi = 0; mi < WM / 16; mi++)
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni++)
                        mma_tf32(acc[mi][ni], af[buf][mi], bf[buf][ni]);
            }
        }
    } else {
        const int fast = 0;
        unsigned af[2][WM / 16][4], bf[2][WN / 8][2];
        #pragma unroll
        for (int s = 0; s < STAGES - 1; s++) {
            int t = s * BK;
            #pragma unroll
            for (int p = 0; p < PARTS; p++) {
                if (fast) {
                    int in = kq - t < 0 ? 0 : kq - t > 4 ? 4 : kq - t;
                    int from = in ? t : 0;
                    #pragma unroll
                    for (int i = p; i < BM * BK / 4 / NT; i += PARTS)
                        cp_async(sa + (s * BM + i * AROWS) * BK,
                                 ga + (size_t)i * AROWS * lda + from, 16, 4 * in);
                    #pragma unroll
                    for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                        cp_async(sb + (s * BN + i * AROWS) * BK,
                                 gb + (size_t)i * AROWS * ldb + from, 16, 4 * in);
                } else if (t < k) {
                    #pragma unroll
                    for (int i = p; i < BM * BK / 4 / NT; i += PARTS) {
                        int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                        copy4<VEC>(TA(s, r, q), a, lda, row0 + r, t + 4 * q, m, k);
                    }
                    #pragma unroll
                    for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                        if (BT) {
                            int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                            copy4<VEC>(TBT(s, r, q), b, ldb, col0 + r, t + 4 * q, n, k);
                        } else {
                            int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4);
                            copy4<VEC>(TB(s, r, q), b, ldb, t + r, col0 + 4 * q, k, n);
                        }
                }
            }
            cp_async_commit();
        }
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        {
            const int s = 0, kk = 0, buf = 0;
            #pragma unroll
            for (int mi = 0; mi < WM / 16; mi++) {
                ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 8] + mi * 16 * BK);
                #pragma unroll
                for (int e = 0; e < 4; e++)
                    af[buf][mi][e] = rounded<ROUND>(af[buf][mi][e]);
            }
            #pragma unroll
            for (int ni = 0; ni < WN / 8; ni += 2)
                if (BT) {
                    unsigned r4[4];
                    ldmatrix_x4(r4, bpipe + s * BN * BK + boff[kk / 8] + ni * 8 * BK);
                    bf[buf][ni][0] = r4[0];
                    bf[buf][ni][1] = r4[1];
                    bf[buf][ni + 1][0] = r4[2];
                    bf[buf][ni + 1][1] = r4[3];
                } else {
                    #pragma unroll
                    for (int j = 0; j < 2; j++) {
                        int c = wcol + (ni + j) * 8 + lane / 4;
                        bf[buf][ni + j][0] = rounded<ROUND>(
                            __float_as_uint(TB(s, kk + lane % 4, c / 4)[c % 4]));
                        bf[buf][ni + j][1] = rounded<ROUND>(
                            __float_as_uint(TB(s, kk + lane % 4 + 4, c / 4)[c % 4]));
                    }
                }
        }
        for (int step = 0; step < steps; step++) {
            int s = step % STAGES;
            #pragma unroll
            for (int p = 0; p < PARTS; p++) {
                {
                    int s = (step + STAGES - 1) % STAGES, t = (step + STAGES - 1) * BK;
                    if (fast) {
                        int in = kq - t < 0 ? 0 : kq - t > 4 ? 4 : kq - t;
                        int from = in ? t : 0;
                        #pragma unroll
                        for (int i = p; i < BM * BK / 4 / NT; i += PARTS)
                            cp_async(sa + (s * BM + i * AROWS) * BK,
                                     ga + (size_t)i * AROWS * lda + from, 16, 4 * in);
                        #pragma unroll
                        for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                            cp_async(sb + (s * BN + i * AROWS) * BK,
                                     gb + (size_t)i * AROWS * ldb + from, 16, 4 * in);
                    } else if (t < k) {
                        #pragma unroll
                        for (int i = p; i < BM * BK / 4 / NT; i += PARTS) {
                            int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                            copy4<VEC>(TA(s, r, q), a, lda, row0 + r, t + 4 * q, m, k);
                        }
                        #pragma unroll
                        for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                            if (BT) {
                                int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                                copy4<VEC>(TBT(s, r, q), b, ldb, col0 + r, t + 4 * q, n, k);
                            } else {
                                int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4);
                                copy4<VEC>(TB(s, r, q), b, ldb, t + r, col0 + 4 * q, k, n);
                            }
                    }
                }
                if (p == PARTS - 1) {
                    cp_async_commit();
                    cp_async_wait<STAGES - 2>();
                    __syncthreads();
                    const int s = (step + 1) % STAGES, kk = 0, buf = (p + 1) % 2;
                    #pragma unroll
                    for (int mi = 0; mi < WM / 16; mi++) {
                        ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 8] + mi * 16 * BK);
                        #pragma unroll
                        for (int e = 0; e < 4; e++)
                            af[buf][mi][e] = rounded<ROUND>(af[buf][mi][e]);
                    }
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni += 2)
                        if (BT) {
                            unsigned r4[4];
                            ldmatrix_x4(r4, bpipe + s * BN * BK + boff[kk / 8] + ni * 8 * BK);
                            bf[buf][ni][0] = r4[0];
                            bf[buf][ni][1] = r4[1];
                            bf[buf][ni + 1][0] = r4[2];
                            bf[buf][ni + 1][1] = r4[3];
                        } else {
                            #pragma unroll
                            for (int j = 0; j < 2; j++) {
                                int c = wcol + (ni + j) * 8 + lane / 4;
                                bf[buf][ni + j][0] = rounded<ROUND>(
                                    __float_as_uint(TB(s, kk + lane % 4, c / 4)[c % 4]));
                                bf[buf][ni + j][1] = rounded<ROUND>(
                                    __float_as_uint(TB(s, kk + lane % 4 + 4, c / 4)[c % 4]));
                            }
                        }
                } else {
                    const int kk = (p + 1) * 8, buf = (p + 1) % 2;
                    #pragma unroll
                    for (int mi = 0; mi < WM / 16; mi++) {
                        ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 8] + mi * 16 * BK);
                        #pragma unroll
                        for (int e = 0; e < 4; e++)
                            af[buf][mi][e] = rounded<ROUND>(af[buf][mi][e]);
                    }
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni += 2)
                        if (BT) {
                            unsigned r4[4];
                            ldmatrix_x4(r4, bpipe + s * BN * BK + boff[kk / 8] + ni * 8 * BK);
                            bf[buf][ni][0] = r4[0];
                            bf[buf][ni][1] = r4[1];
                            bf[buf][ni + 1][0] = r4[2];
                            bf[buf][ni + 1][1] = r4[3];
                        } else {
                            #pragma unroll
                            for (int j = 0; j < 2; j++) {
                                int c = wcol + (ni + j) * 8 + lane / 4;
                                bf[buf][ni + j][0] = rounded<ROUND>(
                                    __float_as_uint(TB(s, kk + lane % 4, c / 4)[c % 4]));
                                bf[buf][ni + j][1] = rounded<ROUND>(
                                    __float_as_uint(TB(s, kk + lane % 4 + 4, c / 4)[c % 4]));
                            }
                        }
                }
                const int buf = p % 2;
                #pragma unroll
                for (int mi = 0; mi < WM / 16; mi++)
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni++)
                        mma_tf32(acc[mi][ni], af[buf][mi], bf[buf][ni]);
            }
        }
    }
    #pragma unroll
    for (int mi = 0; mi < WM / 16; mi++)
        #pragma unroll
        for (int ni = 0; ni < WN / 8; ni++)
            #pragma unroll
            for (int e = 0; e < 4; e++) {
                int row = row0 + wrow + mi * 16 + lane / 4 + e / 2 * 8;
                int col = col0 + wcol + ni * 8 + lane % 4 * 2 + e % 2;
                float v = acc[mi][ni][e];
                if (row < m && col < n) {
                    float *cij = &c[row * ldc + col];
                    *cij = beta == 0.0f ? alpha * v : alpha * v + beta * *cij;
                }
            }
}

static float *scratch_buf[2];
static size_t scratch_len[2];

static float *scratch(int i, size_t floats)
{
    if (floats > scratch_len[i]) {
        if (scratch_buf[i])
            CUDA_CHECK(cudaFree(scratch_buf[i]));
        CUDA_CHECK(cudaMalloc((void **)&scratch_buf[i],
                              floats * sizeof(float)));
        scratch_len[i] = floats;
    }
    return scratch_buf[i];
}

static void reserve_scratch(int m, int n, int k, const struct operands *set)
{
    (void)set;
    scratch(0, (size_t)m * CEIL_DIV(k, 4) * 4);
    scratch(1, (size_t)n * CEIL_DIV(k, 4) * 4);
}

static void free_scratch(void)
{
    for (int i = 0; i < 2; i++) {
        if (scratch_buf[i])
            CUDA_CHECK(cudaFree(scratch_buf[i]));
        scratch_buf[i] = NULL;
        scratch_len[i] = 0;
    }
}

__device__ __forceinline__ float tf32_rounded(float v)
{
    return __uint_as_float((__float_as_uint(v) + 0x1000u) & 0xffffe000u);
}

__global__ void transpose_round(const float *b, int ldb, float *bt, int ldt,
                                int k, int n, int round)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < n && y + j < k)
            tile[threadIdx.y + j][threadIdx.x] = b[(y + j) * ldb + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < ldt && y + j < n) {
            float v = x < k ? tile[threadIdx.x][threadIdx.y + j] : 0.0f;
            bt[(y + j) * ldt + x] = round ? tf32_rounded(v) : v;
        }
}

__global__ void round_copy(const float *a, int lda, float *ar, int ldr,
                           int m, int k)
{
    int row = blockIdx.x * 8 + threadIdx.y;
    if (row < m)
        for (int col = threadIdx.x; col < ldr; col += 32)
            ar[row * ldr + col] = col < k ? tf32_rounded(a[row * lda + col])
                                          : 0.0f;
}

template <int BM, int BN, int WM, int WN, int STAGES, int MINB, int ROUND,
          int BT>
static void run_tf32(int m, int n, int k, float alpha,
                     const float *a, int lda, const float *b, int ldb,
                     float beta, float *c, int ldc)
{
    dim3 grid(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    int threads = BM / WM * (BN / WN) * 32;
    size_t bytes = (size_t)STAGES * (BM + BN) * 32 * sizeof(float);
    static int ready;
    if (!ready) {
        CUDA_CHECK(cudaFuncSetAttribute(
            tf32_mma<BM, BN, WM, WN, STAGES, 4, MINB, ROUND, BT>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        CUDA_CHECK(cudaFuncSetAttribute(
            tf32_mma<BM, BN, WM, WN, STAGES, 1, MINB, ROUND, BT>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        ready = 1;
    }
    if (BT) {
        float *bt = scratch(1, (size_t)n * CEIL_DIV(k, 4) * 4);
        dim3 tgrid(CEIL_DIV(n, 32), CEIL_DIV(k, 32));
        transpose_round<<<tgrid, dim3(32, 8)>>>(b, ldb, bt, CEIL_DIV(k, 4) * 4,
                                                k, n, ROUND != 0);
        CUDA_CHECK(cudaGetLastError());
        b = bt;
        ldb = CEIL_DIV(k, 4) * 4;
    }
    if (ROUND == 3) {
        float *ar = scratch(0, (size_t)m * CEIL_DIV(k, 4) * 4);
        round_copy<<<CEIL_DIV(m, 8), dim3(32, 8)>>>(a, lda, ar, CEIL_DIV(k, 4) * 4,
                                                    m, k);
        CUDA_CHECK(cudaGetLastError());
        a = ar;
        lda = CEIL_DIV(k, 4) * 4;
    }
    if (aligned16(a, b, lda, ldb))
        tf32_mma<BM, BN, WM, WN, STAGES, 4, MINB, ROUND, BT>
            <<<grid, threads, bytes>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        tf32_mma<BM, BN, WM, WN, STAGES, 1, MINB, ROUND, BT>
            <<<grid, threads, bytes>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    CUDA_CHECK(cudaGetLastError());
}

template <int VEC>
__device__ __forceinline__ void
copy8(bf16_bits *dst, const bf16_bits *x, int ld, int row, int col,
      int rows, int cols)
{
    int in = row < rows ? cols - col : 0;   /* numbers that exist */
    in = in < 0 ? 0 : in > 8 ? 8 : in;
    if (VEC == 8) {
        cp_async((float *)dst, (const float *)(in ? &x[row * ld + col] : x),
                 16, 2 * in);
    } else {
        #pragma unroll
        for (int e = 0; e < 8; e++)
            dst[e] = e < in ? x[row * ld + col + e] : 0;
    }
}

#define HA(s, r, c) (apipe + ((s) * BM + (r)) * BK + (((c) ^ ((r) & 7)) * 8))
#define HB(s, k, c) (bpipe + ((s) * BK + (k)) * BN + (((c) ^ ((k) & 7)) * 8))

template <int BM, int BN, int WM, int WN, int STAGES, int VEC, int MINB>
__global__ void __launch_bounds__(BM / WM * (BN / WN) * 32, MINB)
bf16_mma(int m, int n, int k, float alpha, const bf16_bits *a, int lda,
         const bf16_bits *b, int ldb, float beta, float *c, int ldc)
{
    enum { BK = 64, PARTS = BK / 16 };
    extern __shared__ __align__(16) bf16_bits hmem[];
    bf16_bits *apipe = hmem, *bpipe = hmem + STAGES * BM * BK;
    enum { NT = BM / WM * (BN / WN) * 32 };
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int inside = row0 + BM <= m && col0 + BN <= n;
    int wrow = warp / (BN / WN) * WM, wcol = warp % (BN / WN) * WN;
    float acc[WM / 16][WN / 8][4] = { { { 0.0f } } };
    int steps = CEIL_DIV(k, BK);
    static_assert(BN % 64 == 0 && WM % 16 == 0 && WN % 16 == 0
                  && (BM * BK / 8) % NT == 0 && (BK * BN / 8) % NT == 0,
                  "BF16 tile sizes");
    enum { AROWS = NT / (BK / 8), BROWS = NT / (BN / 8) };
    static_assert(AROWS % 8 == 0 && BROWS % 8 == 0, "copies keep one swizzle");
    const bf16_bits *ga = a + (size_t)(row0 + tid / (BK / 8)) * lda
                          + 8 * (tid % (BK / 8));
    const bf16_bits *gb = b + (size_t)(tid / (BN / 8)) * ldb + col0
                          + 8 * (tid % (BN / 8));
    bf16_bits *sa = HA(0, tid / (BK / 8), tid % (BK / 8));
    bf16_bits *sb = HB(0, tid / (BN / 8), tid % (BN / 8));
    int kq = k - 8 * (tid % (BK / 8)), kb = k - tid / (BN / 8);
    int aoff[PARTS], boff[WN / 16];
    #pragma unroll
    for (int j = 0; j < PARTS; j++)
        aoff[j] = HA(0, wrow + lane / 8 % 2 * 8 + lane % 8, 2 * j + lane / 16)
                  - apipe;
    #pragma unroll
    for (int j = 0; j < WN / 16; j++)
        boff[j] = HB(0, lane / 8 % 2 * 8 + lane % 8, (wcol + 16 * j) / 8 + lane / 16)
                  - bpipe;
    if (VEC == 8 && inside) {
        const int fast = 1;
        unsigned af[2][WM / 16][4], bf[2][WN / 8][2];
        #pragma unroll
        for (int s = 0; s < STAGES - 1; s++) {
            int t = s * BK;
            #pragma unroll
            for (int p = 0; p < PARTS; p++) {
                if (fast) {
                    int in = kq - t < 0 ? 0 : kq - t > 8 ? 8 : kq - t;
                    int from = in ? t : 0;
                    #pragma unroll
                    for (int i = p; i < BM * BK / 8 / NT; i += PARTS)
                        cp_async((float *)(sa + (s * BM + i * AROWS) * BK),
                                 (const float *)(ga + (size_t)i * AROWS * lda + from),
                                 16, 2 * in);
                    #pragma unroll
                    for (int i = p; i < BK * BN / 8 / NT; i += PARTS) {
                        int r = t + i * BROWS, there = r < kb;
                        cp_async((float *)(sb + (s * BK + i * BROWS) * BN),
                                 (const float *)(there ? gb + (size_t)r * ldb : b),
                                 16, there ? 16 : 0);
                    }
                } else if (t < k) {
                    #pragma unroll
                    for (int i = p; i < BM * BK / 8 / NT; i += PARTS) {
                        int f = i * NT + tid, r = f / (BK / 8), q = f % (BK / 8);
                        copy8<VEC>(HA(s, r, q), a, lda, row0 + r, t + 8 * q, m, k);
                    }
                    #pragma unroll
                    for (int i = p; i < BK * BN / 8 / NT; i += PARTS) {
                        int f = i * NT + tid, r = f / (BN / 8), q = f % (BN / 8);
                        copy8<VEC>(HB(s, r, q), b, ldb, t + r, col0 + 8 * q, k, n);
                    }
                }
            }
            cp_async_commit();
        }
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        {
            const int s = 0, kk = 0, buf = 0;
            #pragma unroll
            for (int mi = 0; mi < WM / 16; mi++)
                ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 16] + mi * 16 * BK);
            #pragma unroll
            for (int ni = 0; ni < WN / 8; ni += 2) {
                unsigned r4[4];
                ldmatrix_x4_trans(r4, bpipe + (s * BK + kk) * BN + boff[ni / 2]);
                bf[buf][ni][0] = r4[0];
                bf[buf][ni][1] = r4[1];
                bf[buf][ni + 1][0] = r4[2];
                bf[buf][ni + 1][1] = r4[3];
            }
        }
        for (int step = 0; step < steps; step++) {
            int s = step % STAGES;
            #pragma unroll
            for (int p = 0; p < PARTS; p++) {
                {
                    int s = (step + STAGES - 1) % STAGES, t = (step + STAGES - 1) * BK;
                    if (fast) {
                        int in = kq - t < 0 ? 0 : kq - t > 8 ? 8 : kq - t;
                        int from = in ? t : 0;
                        #pragma unroll
                        for (int i = p; i < BM * BK / 8 / NT; i += PARTS)
                            cp_async((float *)(sa + (s * BM + i * AROWS) * BK),
                                     (const float *)(ga + (size_t)i * AROWS * lda + from),
                                     16, 2 * in);
                        #pragma unroll
                        for (int i = p; i < BK * BN / 8 / NT; i += PARTS) {
                            int r = t + i * BROWS, there = r < kb;
                            cp_async((float *)(sb + (s * BK + i * BROWS) * BN),
                                     (const float *)(there ? gb + (size_t)r * ldb : b),
                                     16, there ? 16 : 0);
                        }
                    } else if (t < k) {
                        #pragma unroll
                        for (int i = p; i < BM * BK / 8 / NT; i += PARTS) {
                            int f = i * NT + tid, r = f / (BK / 8), q = f % (BK / 8);
                            copy8<VEC>(HA(s, r, q), a, lda, row0 + r, t + 8 * q, m, k);
                        }
                        #pragma unroll
                        for (int i = p; i < BK * BN / 8 / NT; i += PARTS) {
                            int f = i * NT + tid, r = f / (BN / 8), q = f % (BN / 8);
                            copy8<VEC>(HB(s, r, q), b, ldb, t + r, col0 + 8 * q, k, n);
                        }
                    }
                }
                if (p == PARTS - 1) {
                    cp_async_commit();
                    cp_async_wait<STAGES - 2>();
                    __syncthreads();
                    const int s = (step + 1) % STAGES, kk = 0, buf = (p + 1) % 2;
                    #pragma unroll
                    for (int mi = 0; mi < WM / 16; mi++)
                        ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 16] + mi * 16 * BK);
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni += 2) {
                        unsigned r4[4];
                        ldmatrix_x4_trans(r4, bpipe + (s * BK + kk) * BN + boff[ni / 2]);
                        bf[buf][ni][0] = r4[0];
                        bf[buf][ni][1] = r4[1];
                        bf[buf][ni + 1][0] = r4[2];
                        bf[buf][ni + 1][1] = r4[3];
                    }
                } else {
                    const int kk = (p + 1) * 16, buf = (p + 1) % 2;
                    #pragma unroll
                    for (int mi = 0; mi < WM / 16; mi++)
                        ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 16] + mi * 16 * BK);
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni += 2) {
                        unsigned r4[4];
                        ldmatrix_x4_trans(r4, bpipe + (s * BK + kk) * BN + boff[ni / 2]);
                        bf[buf][ni][0] = r4[0];
                        bf[buf][ni][1] = r4[1];
                        bf[buf][ni + 1][0] = r4[2];
                        bf[buf][ni + 1][1] = r4[3];
                    }
                }
                const int buf = p % 2;
                #pragma unroll
                for (int mi = 0; mi < WM / 16; mi++)
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni++)
                        mma_bf16(acc[mi][ni], af[buf][mi], bf[buf][ni]);
            }
        }
    } else {
        const int fast = 0;
        unsigned af[2][WM / 16][4], bf[2][WN / 8][2];
        #pragma unroll
        for (int s = 0; s < STAGES - 1; s++) {
            int t = s * BK;
            #pragma unroll
            for (int p = 0; p < PARTS; p++) {
                if (fast) {
                    int in = kq - t < 0 ? 0 : kq - t > 8 ? 8 : kq - t;
                    int from = in ? t : 0;
                    #pragma unroll
                    for (int i = p; i < BM * BK / 8 / NT; i += PARTS)
                        cp_async((float *)(sa + (s * BM + i * AROWS) * BK),
                                 (const float *)(ga + (size_t)i * AROWS * lda + from),
                                 16, 2 * in);
                    #pragma unroll
                    for (int i = p; i < BK * BN / 8 / NT; i += PARTS) {
                        int r = t + i * BROWS, there = r < kb;
                        cp_async((float *)(sb + (s * BK + i * BROWS) * BN),
                                 (const float *)(there ? gb + (size_t)r * ldb : b),
                                 16, there ? 16 : 0);
                    }
                } else if (t < k) {
                    #pragma unroll
                    for (int i = p; i < BM * BK / 8 / NT; i += PARTS) {
                        int f = i * NT + tid, r = f / (BK / 8), q = f % (BK / 8);
                        copy8<VEC>(HA(s, r, q), a, lda, row0 + r, t + 8 * q, m, k);
                    }
                    #pragma unroll
                    for (int i = p; i < BK * BN / 8 / NT; i += PARTS) {
                        int f = i * NT + tid, r = f / (BN / 8), q = f % (BN / 8);
                        copy8<VEC>(HB(s, r, q), b, ldb, t + r, col0 + 8 * q, k, n);
                    }
                }
            }
            cp_async_commit();
        }
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        {
            const int s = 0, kk = 0, buf = 0;
            #pragma unroll
            for (int mi = 0; mi < WM / 16; mi++)
                ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 16] + mi * 16 * BK);
            #pragma unroll
            for (int ni = 0; ni < WN / 8; ni += 2) {
                unsigned r4[4];
                ldmatrix_x4_trans(r4, bpipe + (s * BK + kk) * BN + boff[ni / 2]);
                bf[buf][ni][0] = r4[0];
                bf[buf][ni][1] = r4[1];
                bf[buf][ni + 1][0] = r4[2];
                bf[buf][ni + 1][1] = r4[3];
            }
        }
        for (int step = 0; step < steps; step++) {
            int s = step % STAGES;
            #pragma unroll
            for (int p = 0; p < PARTS; p++) {
                {
                    int s = (step + STAGES - 1) % STAGES, t = (step + STAGES - 1) * BK;
                    if (fast) {
                        int in = kq - t < 0 ? 0 : kq - t > 8 ? 8 : kq - t;
                        int from = in ? t : 0;
                        #pragma unroll
                        for (int i = p; i < BM * BK / 8 / NT; i += PARTS)
                            cp_async((float *)(sa + (s * BM + i * AROWS) * BK),
                                     (const float *)(ga + (size_t)i * AROWS * lda + from),
                                     16, 2 * in);
                        #pragma unroll
                        for (int i = p; i < BK * BN / 8 / NT; i += PARTS) {
                            int r = t + i * BROWS, there = r < kb;
                            cp_async((float *)(sb + (s * BK + i * BROWS) * BN),
                                     (const float *)(there ? gb + (size_t)r * ldb : b),
                                     16, there ? 16 : 0);
                        }
                    } else if (t < k) {
                        #pragma unroll
                        for (int i = p; i < BM * BK / 8 / NT; i += PARTS) {
                            int f = i * NT + tid, r = f / (BK / 8), q = f % (BK / 8);
                            copy8<VEC>(HA(s, r, q), a, lda, row0 + r, t + 8 * q, m, k);
                        }
                        #pragma unroll
                        for (int i = p; i < BK * BN / 8 / NT; i += PARTS) {
                            int f = i * NT + tid, r = f / (BN / 8), q = f % (BN / 8);
                            copy8<VEC>(HB(s, r, q), b, ldb, t + r, col0 + 8 * q, k, n);
                        }
                    }
                }
                if (p == PARTS - 1) {
                    cp_async_commit();
                    cp_async_wait<STAGES - 2>();
                    __syncthreads();
                    const int s = (step + 1) % STAGES, kk = 0, buf = (p + 1) % 2;
                    #pragma unroll
                    for (int mi = 0; mi < WM / 16; mi++)
                        ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 16] + mi * 16 * BK);
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni += 2) {
                        unsigned r4[4];
                        ldmatrix_x4_trans(r4, bpipe + (s * BK + kk) * BN + boff[ni / 2]);
                        bf[buf][ni][0] = r4[0];
                        bf[buf][ni][1] = r4[1];
                        bf[buf][ni + 1][0] = r4[2];
                        bf[buf][ni + 1][1] = r4[3];
                    }
                } else {
                    const int kk = (p + 1) * 16, buf = (p + 1) % 2;
                    #pragma unroll
                    for (int mi = 0; mi < WM / 16; mi++)
                        ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 16] + mi * 16 * BK);
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni += 2) {
                        unsigned r4[4];
                        ldmatrix_x4_trans(r4, bpipe + (s * BK + kk) * BN + boff[ni / 2]);
                        bf[buf][ni][0] = r4[0];
                        bf[buf][ni][1] = r4[1];
                        bf[buf][ni + 1][0] = r4[2];
                        bf[buf][ni + 1][1] = r4[3];
                    }
                }
                const int buf = p % 2;
                #pragma unroll
                for (int mi = 0; mi < WM / 16; mi++)
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni++)
                        mma_bf16(acc[mi][ni], af[buf][mi], bf[buf][ni]);
            }
        }
    }
    #pragma unroll
    for (int mi = 0; mi < WM / 16; mi++)
        #pragma unroll
        for (int ni = 0; ni < WN / 8; ni++)
            #pragma unroll
            for (int e = 0; e < 4; e++) {
                int row = row0 + wrow + mi * 16 + lane / 4 + e / 2 * 8;
                int col = col0 + wcol + ni * 8 + lane % 4 * 2 + e % 2;
                float v = acc[mi][ni][e];
                if (row < m && col < n) {
                    float *cij = &c[row * ldc + col];
                    *cij = beta == 0.0f ? alpha * v : alpha * v + beta * *cij;
                }
            }
}

template <int BM, int BN, int WM, int WN, int STAGES, int MINB>
static void run_bf16mma(int m, int n, int k, float alpha,
                        const bf16_bits *a, int lda, const bf16_bits *b,
                        int ldb, float beta, float *c, int ldc)
{
    dim3 grid(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    int threads = BM / WM * (BN / WN) * 32;
    size_t bytes = (size_t)STAGES * (BM + BN) * 64 * sizeof(bf16_bits);
    static int ready;
    if (!ready) {
        CUDA_CHECK(cudaFuncSetAttribute(
            bf16_mma<BM, BN, WM, WN, STAGES, 8, MINB>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        CUDA_CHECK(cudaFuncSetAttribute(
            bf16_mma<BM, BN, WM, WN, STAGES, 1, MINB>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        ready = 1;
    }
    uintptr_t addr = (uintptr_t)a | (uintptr_t)b;
    if (addr % 16 == 0 && (lda | ldb) % 8 == 0)
        bf16_mma<BM, BN, WM, WN, STAGES, 8, MINB>
            <<<grid, threads, bytes>>>(m, n, k, alpha, a, lda, b, ldb,
                                        beta, c, ldc);
    else
        bf16_mma<BM, BN, WM, WN, STAGES, 1, MINB>
            <<<grid, threads, bytes>>>(m, n, k, alpha, a, lda, b, ldb,
                                        beta, c, ldc);
    CUDA_CHECK(cudaGetLastError());
}

__global__ void to_bf16_kernel(const float *x, bf16_bits *y, int rows,
                               int cols, int ld)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
         i < (long long)rows * ld; i += (long long)gridDim.x * blockDim.x)
        if (i % ld < cols) {
            __nv_bfloat16 h = __float2bfloat16_rn(x[i]);
            y[i] = *(bf16_bits *)&h;
        }
}

static void convert_to_bf16(int m, int n, int k, const struct operands *set)
{
    to_bf16_kernel<<<1024, 256>>>(set->a, (bf16_bits *)set->a16, m, k,
                                  set->lda);
    to_bf16_kernel<<<1024, 256>>>(set->b, (bf16_bits *)set->b16, k, n,
                                  set->ldb);
    CUDA_CHECK(cudaGetLastError());
}

static void run_mma(int m, int n, int k, float alpha,
                    const float *a, int lda, const float *b, int ldb,
                    float beta, float *c, int ldc)
{
    if (CEIL_DIV(m, 128) * CEIL_DIV(n, 256) >= 2 * sm_count())
        run_tf32<128, 256, 64, 64, 4, 1, 2, 1>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        run_tf32<128, 128, 64, 64, 3, 2, 2, 1>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static void run_bf16(int m, int n, int k, float alpha, const bf16_bits *a,
                     int lda, const bf16_bits *b, int ldb, float beta,
                     float *c, int ldc)
{
    if (CEIL_DIV(m, 256) * CEIL_DIV(n, 128) >= 8 * sm_count())
        run_bf16mma<256, 128, 64, 64, 4, 1>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        run_bf16mma<128, 128, 64, 64, 3, 2>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

__device__ __forceinline__ void
split_tf32(unsigned x, unsigned *big, unsigned *small)
{
    unsigned hi = (x + 0x1000u) & 0xffffe000u;
    *big = hi;
    *small = __float_as_uint(__uint_as_float(x) - __uint_as_float(hi))
             + 0x1000u;
}

template <int BM, int BN, int WM, int WN, int STAGES, int VEC, int MINB>
__global__ void __launch_bounds__(BM / WM * (BN / WN) * 32, MINB)
tf32x3_mma(int m, int n, int k, float alpha,
           const float *a, int lda, const float *b, int ldb,
           float beta, float *c, int ldc)
{
    enum { BK = 32, PARTS = BK / 8, ROUND = 0, BT = 1 };
    extern __shared__ __align__(16) float smem[];
    float *apipe = smem, *bpipe = smem + STAGES * BM * BK;
    enum { NT = BM / WM * (BN / WN) * 32 };
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int inside = row0 + BM <= m && col0 + BN <= n;
    int wrow = warp / (BN / WN) * WM, wcol = warp % (BN / WN) * WN;
    float acc[WM / 16][WN / 8][4] = { { { 0.0f } } };
    int steps = CEIL_DIV(k, BK);
    enum { AROWS = NT / (BK / 4) };
    static_assert(AROWS % 8 == 0, "copies keep one swizzle");
    const float *ga = a + (size_t)(row0 + tid / (BK / 4)) * lda
                      + 4 * (tid % (BK / 4));
    const float *gb = b + (size_t)(col0 + tid / (BK / 4)) * ldb
                      + 4 * (tid % (BK / 4));
    float *sa = TA(0, tid / (BK / 4), tid % (BK / 4));
    float *sb = TBT(0, tid / (BK / 4), tid % (BK / 4));
    int kq = k - 4 * (tid % (BK / 4));     /* floats left in my column */
    int aoff[PARTS], boff[PARTS];
    #pragma unroll
    for (int j = 0; j < PARTS; j++) {
        aoff[j] = TA(0, wrow + lane / 8 % 2 * 8 + lane % 8, 2 * j + lane / 16)
                  - apipe;
        boff[j] = TBT(0, wcol + lane / 16 * 8 + lane % 8, 2 * j + lane / 8 % 2)
                  - bpipe;
    }
    if (VEC == 4 && inside) {
        const int fast = 1;
        #pragma unroll
        for (int s = 0; s < STAGES - 1; s++) {
            int t = s * BK;
            #pragma unroll
            for (int p = 0; p < PARTS; p++) {
                if (fast) {
                    int in = kq - t < 0 ? 0 : kq - t > 4 ? 4 : kq - t;
                    int from = in ? t : 0;
                    #pragma unroll
                    for (int i = p; i < BM * BK / 4 / NT; i += PARTS)
                        cp_async(sa + (s * BM + i * AROWS) * BK,
                                 ga + (size_t)i * AROWS * lda + from, 16, 4 * in);
                    #pragma unroll
                    for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                        cp_async(sb + (s * BN + i * AROWS) * BK,
                                 gb + (size_t)i * AROWS * ldb + from, 16, 4 * in);
                } else if (t < k) {
                    #pragma unroll
                    for (int i = p; i < BM * BK / 4 / NT; i += PARTS) {
                        int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                        copy4<VEC>(TA(s, r, q), a, lda, row0 + r, t + 4 * q, m, k);
                    }
                    #pragma unroll
                    for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                        if (BT) {
                            int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                            copy4<VEC>(TBT(s, r, q), b, ldb, col0 + r, t + 4 * q, n, k);
                        } else {
                            int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4);
                            copy4<VEC>(TB(s, r, q), b, ldb, t + r, col0 + 4 * q, k, n);
                        }
                }
            }
            cp_async_commit();
        }
        for (int step = 0; step < steps; step++) {
            cp_async_wait<STAGES - 2>();
            __syncthreads();
            int s = step % STAGES;
            float sum[WM / 16][WN / 8][4];
            #pragma unroll
            for (int mi = 0; mi < WM / 16; mi++)
                #pragma unroll
                for (int ni = 0; ni < WN / 8; ni++)
                    #pragma unroll
                    for (int e = 0; e < 4; e++) {
                        sum[mi][ni][e] = acc[mi][ni][e];
                        acc[mi][ni][e] = 0.0f;
                    }
            #pragma unroll
            for (int kk = 0; kk < BK; kk += 8) {
                int p = kk / 8;
                {
                    int s = (step + STAGES - 1) % STAGES, t = (step + STAGES - 1) * BK;
                    if (fast) {
                        int in = kq - t < 0 ? 0 : kq - t > 4 ? 4 : kq - t;
                        int from = in ? t : 0;
                        #pragma unroll
                        for (int i = p; i < BM * BK / 4 / NT; i += PARTS)
                            cp_async(sa + (s * BM + i * AROWS) * BK,
                                     ga + (size_t)i * AROWS * lda + from, 16, 4 * in);
                        #pragma unroll
                        for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                            cp_async(sb + (s * BN + i * AROWS) * BK,
                                     gb + (size_t)i * AROWS * ldb + from, 16, 4 * in);
                    } else if (t < k) {
                        #pragma unroll
                        for (int i = p; i < BM * BK / 4 / NT; i += PARTS) {
                            int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                            copy4<VEC>(TA(s, r, q), a, lda, row0 + r, t + 4 * q, m, k);
                        }
                        #pragma unroll
                        for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                            if (BT) {
                                int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                                copy4<VEC>(TBT(s, r, q), b, ldb, col0 + r, t + 4 * q, n, k);
                            } else {
                                int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4);
                                copy4<VEC>(TB(s, r, q), b, ldb, t + r, col0 + 4 * q, k, n);
                            }
                    }
                }
                unsigned af[1][WM / 16][4], bf[1][WN / 8][2], as[WM / 16][4], bs[WN / 8][2];
                const int buf = 0;
                #pragma unroll
                for (int mi = 0; mi < WM / 16; mi++) {
                    ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 8] + mi * 16 * BK);
                    #pragma unroll
                    for (int e = 0; e < 4; e++)
                        af[buf][mi][e] = rounded<ROUND>(af[buf][mi][e]);
                }
                #pragma unroll
                for (int ni = 0; ni < WN / 8; ni += 2)
                    if (BT) {
                        unsigned r4[4];
                        ldmatrix_x4(r4, bpipe + s * BN * BK + boff[kk / 8] + ni * 8 * BK);
                        bf[buf][ni][0] = r4[0];
                        bf[buf][ni][1] = r4[1];
                        bf[buf][ni + 1][0] = r4[2];
                        bf[buf][ni + 1][1] = r4[3];
                    } else {
                        #pragma unroll
                        for (int j = 0; j < 2; j++) {
                            int c = wcol + (ni + j) * 8 + lane / 4;
                            bf[buf][ni + j][0] = rounded<ROUND>(
                                __float_as_uint(TB(s, kk + lane % 4, c / 4)[c % 4]));
                            bf[buf][ni + j][1] = rounded<ROUND>(
                                __float_as_uint(TB(s, kk + lane % 4 + 4, c / 4)[c % 4]));
                        }
                    }
                #pragma unroll
                for (int mi = 0; mi < WM / 16; mi++)
                    #pragma unroll
                    for (int e = 0; e < 4; e++)
                        split_tf32(af[0][mi][e], &af[0][mi][e], &as[mi][e]);
                #pragma unroll
                for (int ni = 0; ni < WN / 8; ni++)
                    #pragma unroll
                    for (int e = 0; e < 2; e++)
                        split_tf32(bf[0][ni][e], &bf[0][ni][e], &bs[ni][e]);
                #pragma unroll
                for (int mi = 0; mi < WM / 16; mi++)
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni++) {
                        mma_tf32(acc[mi][ni], as[mi], bf[0][ni]);
                        mma_tf32(acc[mi][ni], af[0][mi], bs[ni]);
                        mma_tf32(acc[mi][ni], af[0][mi], bf[0][ni]);
                    }
            }
            #pragma unroll
            for (int mi = 0; mi < WM / 16; mi++)
                #pragma unroll
                for (int ni = 0; ni < WN / 8; ni++)
                    #pragma unroll
                    for (int e = 0; e < 4; e++)
                        acc[mi][ni][e] += sum[mi][ni][e];
            cp_async_commit();
        }

    } else {
        const int fast = 0;
        #pragma unroll
        for (int s = 0; s < STAGES - 1; s++) {
            int t = s * BK;
            #pragma unroll
            for (int p = 0; p < PARTS; p++) {
                if (fast) {
                    int in = kq - t < 0 ? 0 : kq - t > 4 ? 4 : kq - t;
                    int from = in ? t : 0;
                    #pragma unroll
                    for (int i = p; i < BM * BK / 4 / NT; i += PARTS)
                        cp_async(sa + (s * BM + i * AROWS) * BK,
                                 ga + (size_t)i * AROWS * lda + from, 16, 4 * in);
                    #pragma unroll
                    for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                        cp_async(sb + (s * BN + i * AROWS) * BK,
                                 gb + (size_t)i * AROWS * ldb + from, 16, 4 * in);
                } else if (t < k) {
                    #pragma unroll
                    for (int i = p; i < BM * BK / 4 / NT; i += PARTS) {
                        int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                        copy4<VEC>(TA(s, r, q), a, lda, row0 + r, t + 4 * q, m, k);
                    }
                    #pragma unroll
                    for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                        if (BT) {
                            int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                            copy4<VEC>(TBT(s, r, q), b, ldb, col0 + r, t + 4 * q, n, k);
                        } else {
                            int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4);
                            copy4<VEC>(TB(s, r, q), b, ldb, t + r, col0 + 4 * q, k, n);
                        }
                }
            }
            cp_async_commit();
        }
        for (int step = 0; step < steps; step++) {
            cp_async_wait<STAGES - 2>();
            __syncthreads();
            int s = step % STAGES;
            float sum[WM / 16][WN / 8][4];
            #pragma unroll
            for (int mi = 0; mi < WM / 16; mi++)
                #pragma unroll
                for (int ni = 0; ni < WN / 8; ni++)
                    #pragma unroll
                    for (int e = 0; e < 4; e++) {
                        sum[mi][ni][e] = acc[mi][ni][e];
                        acc[mi][ni][e] = 0.0f;
                    }
            #pragma unroll
            for (int kk = 0; kk < BK; kk += 8) {
                int p = kk / 8;
                {
                    int s = (step + STAGES - 1) % STAGES, t = (step + STAGES - 1) * BK;
                    if (fast) {
                        int in = kq - t < 0 ? 0 : kq - t > 4 ? 4 : kq - t;
                        int from = in ? t : 0;
                        #pragma unroll
                        for (int i = p; i < BM * BK / 4 / NT; i += PARTS)
                            cp_async(sa + (s * BM + i * AROWS) * BK,
                                     ga + (size_t)i * AROWS * lda + from, 16, 4 * in);
                        #pragma unroll
                        for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                            cp_async(sb + (s * BN + i * AROWS) * BK,
                                     gb + (size_t)i * AROWS * ldb + from, 16, 4 * in);
                    } else if (t < k) {
                        #pragma unroll
                        for (int i = p; i < BM * BK / 4 / NT; i += PARTS) {
                            int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                            copy4<VEC>(TA(s, r, q), a, lda, row0 + r, t + 4 * q, m, k);
                        }
                        #pragma unroll
                        for (int i = p; i < BK * BN / 4 / NT; i += PARTS)
                            if (BT) {
                                int f = i * NT + tid, r = f / (BK / 4), q = f % (BK / 4);
                                copy4<VEC>(TBT(s, r, q), b, ldb, col0 + r, t + 4 * q, n, k);
                            } else {
                                int f = i * NT + tid, r = f / (BN / 4), q = f % (BN / 4);
                                copy4<VEC>(TB(s, r, q), b, ldb, t + r, col0 + 4 * q, k, n);
                            }
                    }
                }
                unsigned af[1][WM / 16][4], bf[1][WN / 8][2], as[WM / 16][4], bs[WN / 8][2];
                const int buf = 0;
                #pragma unroll
                for (int mi = 0; mi < WM / 16; mi++) {
                    ldmatrix_x4(af[buf][mi], apipe + s * BM * BK + aoff[kk / 8] + mi * 16 * BK);
                    #pragma unroll
                    for (int e = 0; e < 4; e++)
                        af[buf][mi][e] = rounded<ROUND>(af[buf][mi][e]);
                }
                #pragma unroll
                for (int ni = 0; ni < WN / 8; ni += 2)
                    if (BT) {
                        unsigned r4[4];
                        ldmatrix_x4(r4, bpipe + s * BN * BK + boff[kk / 8] + ni * 8 * BK);
                        bf[buf][ni][0] = r4[0];
                        bf[buf][ni][1] = r4[1];
                        bf[buf][ni + 1][0] = r4[2];
                        bf[buf][ni + 1][1] = r4[3];
                    } else {
                        #pragma unroll
                        for (int j = 0; j < 2; j++) {
                            int c = wcol + (ni + j) * 8 + lane / 4;
                            bf[buf][ni + j][0] = rounded<ROUND>(
                                __float_as_uint(TB(s, kk + lane % 4, c / 4)[c % 4]));
                            bf[buf][ni + j][1] = rounded<ROUND>(
                                __float_as_uint(TB(s, kk + lane % 4 + 4, c / 4)[c % 4]));
                        }
                    }
                #pragma unroll
                for (int mi = 0; mi < WM / 16; mi++)
                    #pragma unroll
                    for (int e = 0; e < 4; e++)
                        split_tf32(af[0][mi][e], &af[0][mi][e], &as[mi][e]);
                #pragma unroll
                for (int ni = 0; ni < WN / 8; ni++)
                    #pragma unroll
                    for (int e = 0; e < 2; e++)
                        split_tf32(bf[0][ni][e], &bf[0][ni][e], &bs[ni][e]);
                #pragma unroll
                for (int mi = 0; mi < WM / 16; mi++)
                    #pragma unroll
                    for (int ni = 0; ni < WN / 8; ni++) {
                        mma_tf32(acc[mi][ni], as[mi], bf[0][ni]);
                        mma_tf32(acc[mi][ni], af[0][mi], bs[ni]);
                        mma_tf32(acc[mi][ni], af[0][mi], bf[0][ni]);
                    }
            }
            #pragma unroll
            for (int mi = 0; mi < WM / 16; mi++)
                #pragma unroll
                for (int ni = 0; ni < WN / 8; ni++)
                    #pragma unroll
                    for (int e = 0; e < 4; e++)
                        acc[mi][ni][e] += sum[mi][ni][e];
            cp_async_commit();
        }

    }
    #pragma unroll
    for (int mi = 0; mi < WM / 16; mi++)
        #pragma unroll
        for (int ni = 0; ni < WN / 8; ni++)
            #pragma unroll
            for (int e = 0; e < 4; e++) {
                int row = row0 + wrow + mi * 16 + lane / 4 + e / 2 * 8;
                int col = col0 + wcol + ni * 8 + lane % 4 * 2 + e % 2;
                float v = acc[mi][ni][e];
                if (row < m && col < n) {
                    float *cij = &c[row * ldc + col];
                    *cij = beta == 0.0f ? alpha * v : alpha * v + beta * *cij;
                }
            }
}

template <int BM, int BN, int WM, int WN, int STAGES, int MINB>
static void run_3xtf32(int m, int n, int k, float alpha,
                       const float *a, int lda, const float *b, int ldb,
                       float beta, float *c, int ldc)
{
    enum { ROUND = 0, BT = 1 };
    dim3 grid(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    int threads = BM / WM * (BN / WN) * 32;
    size_t bytes = (size_t)STAGES * (BM + BN) * 32 * sizeof(float);
    static int ready;
    if (!ready) {
        CUDA_CHECK(cudaFuncSetAttribute(
            tf32x3_mma<BM, BN, WM, WN, STAGES, 4, MINB>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        CUDA_CHECK(cudaFuncSetAttribute(
            tf32x3_mma<BM, BN, WM, WN, STAGES, 1, MINB>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        ready = 1;
    }
    if (BT) {
        float *bt = scratch(1, (size_t)n * CEIL_DIV(k, 4) * 4);
        dim3 tgrid(CEIL_DIV(n, 32), CEIL_DIV(k, 32));
        transpose_round<<<tgrid, dim3(32, 8)>>>(b, ldb, bt, CEIL_DIV(k, 4) * 4,
                                                k, n, ROUND != 0);
        CUDA_CHECK(cudaGetLastError());
        b = bt;
        ldb = CEIL_DIV(k, 4) * 4;
    }
    if (ROUND == 3) {
        float *ar = scratch(0, (size_t)m * CEIL_DIV(k, 4) * 4);
        round_copy<<<CEIL_DIV(m, 8), dim3(32, 8)>>>(a, lda, ar, CEIL_DIV(k, 4) * 4,
                                                    m, k);
        CUDA_CHECK(cudaGetLastError());
        a = ar;
        lda = CEIL_DIV(k, 4) * 4;
    }
    if (aligned16(a, b, lda, ldb))
        tf32x3_mma<BM, BN, WM, WN, STAGES, 4, MINB>
            <<<grid, threads, bytes>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        tf32x3_mma<BM, BN, WM, WN, STAGES, 1, MINB>
            <<<grid, threads, bytes>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    CUDA_CHECK(cudaGetLastError());
}

static const struct kernel kernels[] = {
    { .name = "fp32", .what = "chapter 9's FP32 kernel on CUDA cores",
      .function = "sgemm_dbuf<256, 128, 16, 64, 64, 16, 8, 1>",
      .run = run_tuned },
    { .name = "tf32", .what = "chapter 10's TF32 kernel",
      .function = "tf32_mma<128, 256, 64, 64, 4, 4, 1, 2, 1>",
      .precision = TF32, .run = run_mma,
      .setup = reserve_scratch, .teardown = free_scratch },
    { .name = "bf16", .what = "chapter 10's BF16 kernel",
      .function = "bf16_mma<128, 128, 64, 64, 3, 8, 2>",
      .precision = BF16, .run_bf16 = run_bf16,
      .setup = convert_to_bf16 },
    { .name = "3xtf32", .what = "3xTF32 on mma.sync, fresh sums every stage",
      .function = "tf32x3_mma<128, 128, 64, 32, 3, 4, 1>",
      .precision = FP32_3XTF32, .run = run_3xtf32<128, 128, 64, 32, 3, 1>,
      .setup = reserve_scratch, .teardown = free_scratch },
};

static const struct chapter chapter = {
    .title = "FP32 accuracy on tensor cores",
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
