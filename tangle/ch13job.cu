/* ch13job.cu: the link, allocations, panels, small products and the
   CPU, and a trace of the whole job. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"

static const char *progname = "ch13job";
void check_cuda(cudaError_t e, const char *call, const char *file,
                int line)
{
    if (e == cudaSuccess)
        return;
    fprintf(stderr, "%s: CUDA error: %s in %s at %s:%d\n", progname,
            cudaGetErrorString(e), call, file, line);
    exit(3);
}

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

struct job {
    int m, n, k, lda, ldb, ldc;
    float alpha, beta;
    const float *ha, *hb, *hc0;   /* host: A, B, and C's input */
    float *hc;                    /* host: C's output */
    float *da, *db, *dc;          /* the GPU's copies */
};
static void copy_rows(float *dst, const float *src, int r, int h,
                      int cols, int ld, cudaMemcpyKind dir,
                      cudaStream_t s)
{
    size_t at = (size_t)r * ld;
    size_t count = (size_t)(h - 1) * ld + cols;
    CUDA_CHECK(cudaMemcpyAsync(dst + at, src + at, count * sizeof(float),
                               dir, s));
}
enum { LANE_IN, LANE_KERNEL, LANE_OUT, MAX_STEPS = 256 };

struct trace {
    int steps;
    int lane[MAX_STEPS], panel[MAX_STEPS];
    cudaEvent_t start[MAX_STEPS], stop[MAX_STEPS];
};

static void step_begin(struct trace *t, int lane, int panel,
                       cudaStream_t s)
{
    if (!t || t->steps == MAX_STEPS)
        return;
    t->lane[t->steps] = lane;
    t->panel[t->steps] = panel;
    CUDA_CHECK(cudaEventRecord(t->start[t->steps], s));
}

static void step_end(struct trace *t, cudaStream_t s)
{
    if (!t || t->steps == MAX_STEPS)
        return;
    CUDA_CHECK(cudaEventRecord(t->stop[t->steps++], s));
}
static void job_serial(const struct job *j, int pinned,
                       struct trace *t)
{
    cudaMemcpyKind in = cudaMemcpyHostToDevice;
    step_begin(t, LANE_IN, 0, 0);
    if (pinned) {
        copy_rows(j->da, j->ha, 0, j->m, j->k, j->lda, in, 0);
        copy_rows(j->db, j->hb, 0, j->k, j->n, j->ldb, in, 0);
        if (j->beta != 0.0f)
            copy_rows(j->dc, j->hc0, 0, j->m, j->n, j->ldc, in, 0);
    } else {
        size_t na = (size_t)(j->m - 1) * j->lda + j->k;
        size_t nb = (size_t)(j->k - 1) * j->ldb + j->n;
        size_t nc = (size_t)(j->m - 1) * j->ldc + j->n;
        CUDA_CHECK(cudaMemcpy(j->da, j->ha, na * sizeof(float), in));
        CUDA_CHECK(cudaMemcpy(j->db, j->hb, nb * sizeof(float), in));
        if (j->beta != 0.0f)
            CUDA_CHECK(cudaMemcpy(j->dc, j->hc0, nc * sizeof(float), in));
    }
    step_end(t, 0);
    step_begin(t, LANE_KERNEL, 0, 0);
    run_tuned(j->m, j->n, j->k, j->alpha, j->da, j->lda, j->db, j->ldb,
              j->beta, j->dc, j->ldc);
    step_end(t, 0);
    step_begin(t, LANE_OUT, 0, 0);
    if (pinned)
        copy_rows(j->hc, j->dc, 0, j->m, j->n, j->ldc,
                  cudaMemcpyDeviceToHost, 0);
    else
        CUDA_CHECK(cudaMemcpy(j->hc, j->dc, ((size_t)(j->m - 1) * j->ldc
                              + j->n) * sizeof(float),
                              cudaMemcpyDeviceToHost));
    step_end(t, 0);
}
enum { MAX_PANELS = 64, B_SLICES = 4 };
static cudaStream_t in_stream, out_stream;
static cudaEvent_t go, done, in_done[MAX_PANELS], k_done[MAX_PANELS],
                   b_done[B_SLICES];

static void make_overlap_streams(void)
{
    unsigned f = cudaEventDisableTiming;
    if (in_stream)
        return;
    CUDA_CHECK(cudaStreamCreateWithFlags(&in_stream,
                                         cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&out_stream,
                                         cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&go, f));
    CUDA_CHECK(cudaEventCreateWithFlags(&done, f));
    for (int p = 0; p < MAX_PANELS; p++) {
        CUDA_CHECK(cudaEventCreateWithFlags(&in_done[p], f));
        CUDA_CHECK(cudaEventCreateWithFlags(&k_done[p], f));
    }
    for (int q = 0; q < B_SLICES; q++)
        CUDA_CHECK(cudaEventCreateWithFlags(&b_done[q], f));
}

static void job_overlap(const struct job *j, int panels,
                        struct trace *t)
{
    int rows = CEIL_DIV(CEIL_DIV(j->m, panels), 256) * 256;
    int slices = j->k >= 1024 ? B_SLICES : 1;
    int ks = CEIL_DIV(CEIL_DIV(j->k, slices), 16) * 16;
    cudaMemcpyKind in = cudaMemcpyHostToDevice;
    make_overlap_streams();
    CUDA_CHECK(cudaEventRecord(go, 0));
    CUDA_CHECK(cudaStreamWaitEvent(in_stream, go, 0));
    CUDA_CHECK(cudaStreamWaitEvent(out_stream, go, 0));
    for (int p = 0, r = 0; r < j->m; p++, r += rows) {
        int h = j->m - r < rows ? j->m - r : rows;
        step_begin(t, LANE_IN, p, in_stream);
        copy_rows(j->da, j->ha, r, h, j->k, j->lda, in, in_stream);
        if (j->beta != 0.0f)
            copy_rows(j->dc, j->hc0, r, h, j->n, j->ldc, in, in_stream);
        step_end(t, in_stream);
        CUDA_CHECK(cudaEventRecord(in_done[p], in_stream));
        if (p == 0) {
            for (int q = 0, p0 = 0; p0 < j->k; q++, p0 += ks) {
                int kq = j->k - p0 < ks ? j->k - p0 : ks;
                step_begin(t, LANE_IN, -1, in_stream);
                copy_rows(j->db, j->hb, p0, kq, j->n, j->ldb, in, in_stream);
                step_end(t, in_stream);
                CUDA_CHECK(cudaEventRecord(b_done[q], in_stream));
                CUDA_CHECK(cudaStreamWaitEvent(0, b_done[q], 0));
                step_begin(t, LANE_KERNEL, 0, 0);
                run_tuned(h, j->n, kq, j->alpha, j->da + p0, j->lda,
                          j->db + (size_t)p0 * j->ldb, j->ldb, q ? 1.0f : j->beta,
                          j->dc, j->ldc);
                step_end(t, 0);
            }
            CUDA_CHECK(cudaEventRecord(k_done[p], 0));
        } else {
            CUDA_CHECK(cudaStreamWaitEvent(0, in_done[p], 0));
            step_begin(t, LANE_KERNEL, p, 0);
            run_tuned(h, j->n, j->k, j->alpha, j->da + (size_t)r * j->lda, j->lda,
                      j->db, j->ldb, j->beta, j->dc + (size_t)r * j->ldc, j->ldc);
            step_end(t, 0);
            CUDA_CHECK(cudaEventRecord(k_done[p], 0));
        }
        CUDA_CHECK(cudaStreamWaitEvent(out_stream, k_done[p], 0));
        step_begin(t, LANE_OUT, p, out_stream);
        copy_rows(j->hc, j->dc, r, h, j->n, j->ldc, cudaMemcpyDeviceToHost,
                  out_stream);
        step_end(t, out_stream);
    }
    CUDA_CHECK(cudaEventRecord(done, out_stream));
    CUDA_CHECK(cudaStreamWaitEvent(0, done, 0));
}
static int panels_for(int m)
{
    int p = m / 512;
    return p < 1 ? 1 : p > 8 ? 8 : p;
}

void cpu_sgemm(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc)
{
    for (int row = 0; row < m; row++)
        for (int col = 0; col < n; col++) {
            float acc = 0.0f;
            for (int p = 0; p < k; p++)
                acc += a[row * lda + p] * b[p * ldb + col];
            float *cij = &c[row * ldc + col];
            *cij = beta == 0.0f ? alpha * acc : alpha * acc + beta * *cij;
        }
}
static void reference_product(int m, int n, int k, const float *a,
                              int lda, const float *b, int ldb,
                              double *out, double *scale)
{
    for (size_t i = 0; i < (size_t)m * n; i++)
        out[i] = scale[i] = 0.0;
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++) {
            double aip = a[(size_t)i * lda + p];
            const float *brow = b + (size_t)p * ldb;
            double *orow = out + (size_t)i * n, *srow = scale + (size_t)i * n;
            for (int j = 0; j < n; j++) {
                double t = aip * brow[j];
                orow[j] += t;
                srow[j] += t * t;
            }
        }
    for (size_t i = 0; i < (size_t)m * n; i++)
        scale[i] = sqrt(scale[i]);
}
static unsigned long long splitmix64(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void fill_random(float *x, size_t count,
                        unsigned long long seed)
{
    for (size_t i = 0; i < count; i++) {
        double r = (double)(splitmix64(&seed) >> 40);  /* 24 bits */
        x[i] = (float)((r + 0.5) / 8388608.0 - 1.0);
    }
}
static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

double median_ms(float *t, int n)
{
    qsort(t, n, sizeof *t, cmp_float);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}
static void quartiles(const float *t, int n, double q[2])
{
    for (int j = 0; j < 2; j++) {
        double x = (j ? 0.75 : 0.25) * (n - 1);
        int i = (int)x;
        q[j] = i + 1 < n ? t[i] + (x - i) * (t[i + 1] - t[i]) : t[i];
    }
}

struct timing { double ms, q[2]; int runs; };

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static struct timing summarize(float *t, int reps)
{
    struct timing r;
    r.ms = median_ms(t, reps);
    quartiles(t, reps, r.q);
    r.runs = reps;
    return r;
}

typedef void step_fn(void *arg);

static struct timing time_gpu(step_fn *f, void *arg, int reps)
{
    float t[64];
    cudaEvent_t e[65];
    reps = reps > 64 ? 64 : reps;
    f(arg);                                  /* warm-up */
    for (int i = 0; i <= reps; i++)
        CUDA_CHECK(cudaEventCreate(&e[i]));
    for (int i = 0; i < reps; i++) {
        CUDA_CHECK(cudaEventRecord(e[i], 0));
        f(arg);
    }
    CUDA_CHECK(cudaEventRecord(e[reps], 0));
    CUDA_CHECK(cudaEventSynchronize(e[reps]));
    CUDA_CHECK(cudaGetLastError());
    for (int i = 0; i < reps; i++)
        CUDA_CHECK(cudaEventElapsedTime(&t[i], e[i], e[i + 1]));
    for (int i = 0; i <= reps; i++)
        CUDA_CHECK(cudaEventDestroy(e[i]));
    return summarize(t, reps);
}
static int csv;
static char gpu_name[256];

static void print_row(const char *name, const char *what,
                      struct timing t, double bytes, const char *check)
{
    double gbs = bytes > 0 ? bytes / (t.ms * 1e6) : 0;
    if (!csv) {
        printf("%-16s %10.4f ms  %7.2f GB/s  %-6s %s\n", name, t.ms, gbs,
               check, what);
        fflush(stdout);
        return;
    }
    char date[16];
    time_t now = time(NULL);
    const char *commit = getenv("BOOK_COMMIT");
    const char *hash = getenv("BOOK_CODE_HASH");
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    printf("13,%s,%s,%.4f,%.4f,%.4f,%.2f,%d,%s,%s,%s,%s,%s\n", name, what,
           t.ms, t.q[0], t.q[1], gbs, t.runs, check, gpu_name, date,
           commit && *commit ? commit : "unknown",
           hash && *hash ? hash : "unknown");
    fflush(stdout);
}
struct copy_arg { void *dst, *src, *dst2, *src2; size_t bytes; };

static void copy_one(void *p)
{
    struct copy_arg *c = (struct copy_arg *)p;
    CUDA_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDefault,
                               0));
}

static void copy_both(void *p)
{
    struct copy_arg *c = (struct copy_arg *)p;
    make_overlap_streams();
    CUDA_CHECK(cudaEventRecord(go, 0));
    CUDA_CHECK(cudaStreamWaitEvent(in_stream, go, 0));
    CUDA_CHECK(cudaStreamWaitEvent(out_stream, go, 0));
    CUDA_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes,
                               cudaMemcpyDefault, in_stream));
    CUDA_CHECK(cudaMemcpyAsync(c->dst2, c->src2, c->bytes,
                               cudaMemcpyDefault, out_stream));
    CUDA_CHECK(cudaEventRecord(in_done[0], in_stream));
    CUDA_CHECK(cudaEventRecord(done, out_stream));
    CUDA_CHECK(cudaStreamWaitEvent(0, in_done[0], 0));
    CUDA_CHECK(cudaStreamWaitEvent(0, done, 0));
}

static void measure_link(void)
{
    size_t bytes = (size_t)64 << 20;
    void *dev, *dev2, *pinned, *pinned2, *pageable = malloc(bytes);
    if (!pageable)
        exit(3);
    memset(pageable, 1, bytes);
    CUDA_CHECK(cudaMalloc(&dev, bytes));
    CUDA_CHECK(cudaMalloc(&dev2, bytes));
    CUDA_CHECK(cudaMallocHost(&pinned, bytes));
    CUDA_CHECK(cudaMallocHost(&pinned2, bytes));
    memset(pinned, 1, bytes);
    struct copy_arg c[5] = { { dev, pageable }, { pageable, dev },
                             { dev, pinned }, { pinned, dev },
                             { dev, pinned, pinned2, dev2 } };
    const char *name[5] = { "h2d_pageable", "d2h_pageable", "h2d_pinned",
                            "d2h_pinned", "both_pinned" };
    const char *what[5] = { "64 MiB in from pageable memory",
                            "64 MiB out to pageable memory",
                            "64 MiB in from pinned memory",
                            "64 MiB out to pinned memory",
                            "64 MiB in and 64 MiB out at once" };
    for (int i = 0; i < 5; i++) {
        c[i].bytes = bytes;
        struct timing t = time_gpu(i < 4 ? copy_one : copy_both, &c[i], 15);
        print_row(name[i], what[i], t, i < 4 ? bytes : 2.0 * bytes, "-");
    }
    CUDA_CHECK(cudaFree(dev));
    CUDA_CHECK(cudaFree(dev2));
    CUDA_CHECK(cudaFreeHost(pinned));
    CUDA_CHECK(cudaFreeHost(pinned2));
    free(pageable);
}
static void measure_alloc(int n)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float t[3][7];
    for (int r = 0; r < 7; r++) {
        void *p[3];
        double t0 = wall_ms();
        for (int i = 0; i < 3; i++) {
            if (!(p[i] = malloc(bytes)))
                exit(3);
            memset(p[i], 0, bytes);
        }
        t[0][r] = (float)(wall_ms() - t0);
        for (int i = 0; i < 3; i++)
            free(p[i]);
        t0 = wall_ms();
        for (int i = 0; i < 3; i++)
            CUDA_CHECK(cudaMallocHost(&p[i], bytes));
        t[1][r] = (float)(wall_ms() - t0);
        for (int i = 0; i < 3; i++)
            CUDA_CHECK(cudaFreeHost(p[i]));
        t0 = wall_ms();
        for (int i = 0; i < 3; i++)
            CUDA_CHECK(cudaMalloc(&p[i], bytes));
        t[2][r] = (float)(wall_ms() - t0);
        for (int i = 0; i < 3; i++)
            CUDA_CHECK(cudaFree(p[i]));
    }
    const char *kind[3] = { "pageable", "pinned", "device" };
    const char *what[3] = { "malloc and first touch of A and B and C",
                            "cudaMallocHost of A and B and C",
                            "cudaMalloc of A and B and C" };
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "alloc_%s_%d", kind[i], n);
        print_row(name, what[i], summarize(t[i], 7), 0, "-");
    }
}
struct panel_arg { struct job j; int panels; };

static void panel_job(void *p)
{
    struct panel_arg *a = (struct panel_arg *)p;
    job_overlap(&a->j, a->panels, NULL);
}

static struct job make_job(int m, int n, int k, int pinned)
{
    struct job j = { m, n, k, k, n, n, 1.0f, 0.0f };
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    float *h[4];
    for (int i = 0; i < 4; i++) {
        size_t c = i == 0 ? na : i == 1 ? nb : nc;
        if (pinned)
            CUDA_CHECK(cudaMallocHost((void **)&h[i], c * sizeof(float)));
        else if (!(h[i] = (float *)malloc(c * sizeof(float))))
            exit(3);
    }
    fill_random(h[0], na, 11);
    fill_random(h[1], nb, 12);
    fill_random(h[2], nc, 13);
    j.ha = h[0];  j.hb = h[1];  j.hc0 = h[2];  j.hc = h[3];
    CUDA_CHECK(cudaMalloc((void **)&j.da, na * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&j.db, nb * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&j.dc, nc * sizeof(float)));
    return j;
}

static void free_job(struct job *j, int pinned)
{
    float *h[4] = { (float *)j->ha, (float *)j->hb, (float *)j->hc0,
                    j->hc };
    for (int i = 0; i < 4; i++)
        if (pinned)
            CUDA_CHECK(cudaFreeHost(h[i]));
        else
            free(h[i]);
    CUDA_CHECK(cudaFree(j->da));
    CUDA_CHECK(cudaFree(j->db));
    CUDA_CHECK(cudaFree(j->dc));
}

static int same_product(const float *x, const float *y, size_t count,
                        int k)
{
    double d = 0, s = 0;
    for (size_t i = 0; i < count; i++) {
        double e = (double)x[i] - y[i];
        if (!isfinite(y[i]) || !isfinite(x[i]))
            return 0;
        d += e * e;
        s += (double)x[i] * x[i];
    }
    return sqrt(d) <= 1e-6 * sqrt((double)k) * sqrt(s);
}

static int measure_panels(int n)
{
    static const int counts[] = { 1, 2, 4, 8, 16, 32 };
    struct panel_arg a = { make_job(n, n, n, 1), 1 };
    size_t nc = (size_t)n * n;
    float *first = (float *)malloc(nc * sizeof(float));
    int failures = 0;
    if (!first)
        exit(3);
    for (int i = 0; i < COUNT_OF(counts); i++) {
        char name[32], what[64];
        a.panels = counts[i];
        memset(a.j.hc, 0xff, nc * sizeof(float));       /* poison */
        struct timing t = time_gpu(panel_job, &a, 15);
        CUDA_CHECK(cudaDeviceSynchronize());
        if (i == 0)
            memcpy(first, a.j.hc, nc * sizeof(float));
        const char *ck = same_product(first, a.j.hc, nc, n) ? "ok"
                                                            : "FAIL";
        failures += ck[0] == 'F';
        snprintf(name, sizeof name, "panels_%d_%d", n, counts[i]);
        snprintf(what, sizeof what, "the overlapped job with %d panels",
                 counts[i]);
        print_row(name, what, t, 12.0 * n * n, ck);
    }
    free(first);
    free_job(&a.j, 1);
    return failures;
}
struct batch {
    int s, count;
    float *ha, *hb, *hc;          /* pinned: count products, back to back */
    float *da, *db, *dc;
};

struct cpu_share { const struct batch *b; int first, step; };

static void *cpu_products(void *p)
{
    const struct cpu_share *w = (const struct cpu_share *)p;
    const struct batch *b = w->b;
    size_t e = (size_t)b->s * b->s;
    for (int i = w->first; i < b->count; i += w->step)
        cpu_sgemm(b->s, b->s, b->s, 1.0f, b->ha + i * e, b->s,
                  b->hb + i * e, b->s, 0.0f, b->hc + i * e, b->s);
    return NULL;
}

static void cpu_batch(const struct batch *b, int threads)
{
    pthread_t t[256];
    struct cpu_share w[256];
    for (int i = 0; i < threads; i++) {
        w[i].b = b;
        w[i].first = i;
        w[i].step = threads;
        if (pthread_create(&t[i], NULL, cpu_products, &w[i]) != 0) {
            fprintf(stderr, "%s: cannot start a thread\n", progname);
            exit(3);
        }
    }
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
}
struct batch_arg { const struct batch *b; int how; };
enum { PER_PRODUCT, WHOLE_BATCH, RESIDENT };

static void gpu_batch(void *p)
{
    const struct batch_arg *w = (const struct batch_arg *)p;
    const struct batch *b = w->b;
    size_t e = (size_t)b->s * b->s, bytes = e * b->count * sizeof(float);
    cudaMemcpyKind in = cudaMemcpyHostToDevice;
    if (w->how == WHOLE_BATCH) {
        CUDA_CHECK(cudaMemcpyAsync(b->da, b->ha, bytes, in, 0));
        CUDA_CHECK(cudaMemcpyAsync(b->db, b->hb, bytes, in, 0));
    }
    for (int i = 0; i < b->count; i++) {
        struct job j = { b->s, b->s, b->s, b->s, b->s, b->s, 1.0f, 0.0f,
                         b->ha + i * e, b->hb + i * e, NULL, b->hc + i * e,
                         b->da + i * e, b->db + i * e, b->dc + i * e };
        if (w->how == PER_PRODUCT) {
            job_serial(&j, 1, NULL);
            CUDA_CHECK(cudaStreamSynchronize(0));
        } else {
            run_tuned(j.m, j.n, j.k, 1.0f, j.da, j.lda, j.db, j.ldb, 0.0f,
                      j.dc, j.ldc);
        }
    }
    if (w->how == WHOLE_BATCH)
        CUDA_CHECK(cudaMemcpyAsync(b->hc, b->dc, bytes,
                                   cudaMemcpyDeviceToHost, 0));
}
static const char *check_batch(const struct batch *b)
{
    int s = b->s;
    size_t e = (size_t)s * s;
    double *ref = (double *)malloc(e * sizeof(double));
    double *scale = (double *)malloc(e * sizeof(double));
    int ok = ref && scale;
    for (int t = 0; ok && t < 2; t++) {
        size_t i = t ? b->count - 1 : 0;
        double d = 0, r2 = 0;
        reference_product(s, s, s, b->ha + i * e, s, b->hb + i * e, s, ref,
                          scale);
        for (size_t x = 0; x < e; x++) {
            double c = b->hc[i * e + x];
            d += (c - ref[x]) * (c - ref[x]);
            r2 += ref[x] * ref[x];
        }
        ok = sqrt(d) <= 1e-6 * sqrt((double)s) * sqrt(r2);
    }
    free(ref);
    free(scale);
    return ok ? "ok" : "FAIL";
}
static int measure_small(int s, int threads)
{
    struct batch b = { s };
    size_t e = (size_t)s * s;
    int failures = 0;
    b.count = (int)((64 << 20) / (2 * e * sizeof(float)));
    b.count = b.count < 8 ? 8 : b.count > 4096 ? 4096 : b.count;
    size_t bytes = e * b.count * sizeof(float);
    CUDA_CHECK(cudaMallocHost((void **)&b.ha, bytes));
    CUDA_CHECK(cudaMallocHost((void **)&b.hb, bytes));
    CUDA_CHECK(cudaMallocHost((void **)&b.hc, bytes));
    CUDA_CHECK(cudaMalloc((void **)&b.da, bytes));
    CUDA_CHECK(cudaMalloc((void **)&b.db, bytes));
    CUDA_CHECK(cudaMalloc((void **)&b.dc, bytes));
    fill_random(b.ha, e * b.count, 21 + s);
    fill_random(b.hb, e * b.count, 22 + s);
    {
        float t[2][5];
        struct batch few = b;
        few.count = 1;
        double t0 = wall_ms();
        cpu_batch(&few, 1);
        double one = wall_ms() - t0;
        few.count = (int)(500 / (one + 1e-3)) + 1;
        few.count = few.count > b.count ? b.count : few.count;
        for (int r = 0; r < 3; r++) {
            t0 = wall_ms();
            cpu_batch(&few, 1);
            t[0][r] = (float)((wall_ms() - t0) / few.count);
            t0 = wall_ms();
            cpu_batch(&b, threads);
            t[1][r] = (float)((wall_ms() - t0) / b.count);
        }
        char nm[32];
        snprintf(nm, sizeof nm, "cpu_%d", s);
        print_row(nm, "serial C version per product", summarize(t[0], 3), 0,
                  "-");
        snprintf(nm, sizeof nm, "cpumt_%d", s);
        print_row(nm, "the C version on every core per product",
                  summarize(t[1], 3), 0, "-");
    }
    static const char *name[3] = { "job", "batch", "resident" };
    static const char *what[3] = {
        "pinned job per product waiting for each",
        "one copy in; a launch per product; one copy out",
        "a launch per product on data on the GPU" };
    for (int how = PER_PRODUCT; how <= RESIDENT; how++) {
        struct batch_arg w = { &b, how };
        char nm[32];
        memset(b.hc, 0xff, e * b.count * sizeof(float));      /* poison */
        if (how == RESIDENT)      /* its results stay on the GPU */
            CUDA_CHECK(cudaMemset(b.dc, 0xff, e * b.count * sizeof(float)));
        struct timing t = time_gpu(gpu_batch, &w, 5);
        CUDA_CHECK(cudaDeviceSynchronize());
        if (how == RESIDENT)
            CUDA_CHECK(cudaMemcpy(b.hc, b.dc, e * b.count * sizeof(float),
                                  cudaMemcpyDeviceToHost));
        const char *ck = check_batch(&b);
        failures += ck[0] == 'F';
        t.ms /= b.count;  t.q[0] /= b.count;  t.q[1] /= b.count;
        snprintf(nm, sizeof nm, "%s_%d", name[how], s);
        print_row(nm, what[how], t, how == RESIDENT ? 0 : 12.0 * e, ck);
    }
    CUDA_CHECK(cudaFreeHost(b.ha));
    CUDA_CHECK(cudaFreeHost(b.hb));
    CUDA_CHECK(cudaFreeHost(b.hc));
    CUDA_CHECK(cudaFree(b.da));
    CUDA_CHECK(cudaFree(b.db));
    CUDA_CHECK(cudaFree(b.dc));
    return failures;
}
static void print_trace(const char *flow, struct trace *t)
{
    static const char *lane[3] = { "copy in", "multiply", "copy out" };
    float s, e;
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < t->steps; i++) {
        CUDA_CHECK(cudaEventElapsedTime(&s, t->start[0], t->start[i]));
        CUDA_CHECK(cudaEventElapsedTime(&e, t->start[0], t->stop[i]));
        printf("%s,%s,%d,%.4f,%.4f\n", flow, lane[t->lane[i]],
               t->panel[i], s, e);
    }
}

static void trace_jobs(void)
{
    static struct trace t;
    struct job j = make_job(4096, 4096, 4096, 1);
    for (int i = 0; i < MAX_STEPS; i++) {
        CUDA_CHECK(cudaEventCreate(&t.start[i]));
        CUDA_CHECK(cudaEventCreate(&t.stop[i]));
    }
    printf("flow,lane,panel,start_ms,end_ms\n");
    for (int f = 0; f < 2; f++) {
        for (int r = 0; r < 2; r++) {      /* a warm-up, then the trace */
            t.steps = 0;
            if (f == 0)
                job_serial(&j, 1, r ? &t : NULL);
            else
                job_overlap(&j, panels_for(j.m), r ? &t : NULL);
        }
        print_trace(f == 0 ? "serial" : "overlapped", &t);
    }
    free_job(&j, 1);
}
int main(int argc, char **argv)
{
    int n = 0, events = 0, failures = 0;
    struct cudaDeviceProp prop;
    if (argc == 2 && !strcmp(argv[1], "--help")) {
        printf("usage: %s [--csv | --events]\nmeasures the link, allocations,"
               " the overlapped job's panels, and small products on the CPU"
               "\nand the GPU; --events prints a trace of a 4096^3 job\n",
               progname);
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "--csv"))
        csv = 1;
    else if (argc == 2 && !strcmp(argv[1], "--events"))
        events = 1;
    else if (argc > 1) {
        fprintf(stderr, "%s: unknown argument '%s' (try --help)\n", progname,
                argv[1]);
        return 2;
    }
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "%s: no CUDA GPU is available (%s)\n", progname,
                cudaGetErrorString(cudaGetDeviceCount(&n)));
        return 3;
    }
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 8) {
        fprintf(stderr, "%s: chapter 9's kernel needs compute capability "
                "8.0; the %s is %d.%d\n", progname, prop.name, prop.major,
                prop.minor);
        return 3;
    }
    snprintf(gpu_name, sizeof gpu_name, "%s", prop.name);
    if (events) {
        trace_jobs();
        return 0;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cores < 1 ? 1 : cores > 256 ? 256 : (int)cores;
    if (csv)
        printf("chapter,name,what,ms,ms_q1,ms_q3,gbs,runs,check,gpu,date,"
               "commit,code_hash\n");
    measure_link();
    measure_alloc(1024);
    measure_alloc(4096);
    failures += measure_panels(1024);
    failures += measure_panels(4096);
    for (int s = 32; s <= 512; s *= 2)
        failures += measure_small(s, threads);
    return failures ? 1 : 0;
}
