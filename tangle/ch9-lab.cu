/* ch9.cu: double buffering, a cp.async pipeline, tuned tiles. */
#include "ch9.h"

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

#define APAD 0
#define AT(p, r) apipe[(s * BK + (p)) * BM + ((r) ^ (p) % 4 * 8)]
#define BT(p, c) bpipe[(s * BK + (p)) * BN + ((c) ^ BSWIZZLE(c))]

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN,
          int STAGES, int MINB, int VEC>
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
    /* ---- lab 9, Pipelined main loop: your code begins here ---- */
    /* Lab, chapter 9: the main loop of the cp.async pipeline, over
       steps = CEIL_DIV(k, BK) steps of K.  Before it, issue the copies of
       the first STAGES - 1 steps, one commit group each.  At every step:
       wait until at most STAGES - 2 groups are in flight, synchronize,
       issue the copies of the step STAGES - 1 ahead into the stage that
       the last step freed (an empty group past the end), commit, and
       accumulate the outer products of this step's stage.  The line below
       only lets the program compile: replace it. */
    (void)apipe; (void)bpipe;
    /* ---- lab 9, Pipelined main loop: your code ends here ---- */
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

void scale_c(int m, int n, float beta, float *c, int ldc)
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

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int MINB>
static void run_streamk(int m, int n, int k, float alpha,
                        const float *a, int lda, const float *b, int ldb,
                        float beta, float *c, int ldc)
{
    static int per_sm;             /* blocks an SM runs at once */
    int threads = BM / WM * (BN / WN) * 32;
    if (!per_sm)
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm,
                   sgemm_streamk<BM, BN, BK, WM, WN, TM, TN, MINB>,
                   threads, 0));
    int slots = per_sm * sm_count();   /* on the SMs it may use, now */
    chose("stream-K over %dx%dx%d tiles: %d blocks", BM, BN, BK, slots);
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
            sgemm_pipe<BM, BN, BK, WM, WN, TM, TN, STAGES, MINB, 4>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        CUDA_CHECK(cudaFuncSetAttribute(
            sgemm_pipe<BM, BN, BK, WM, WN, TM, TN, STAGES, MINB, 1>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        ready = 1;
    }
    if (vec)
        sgemm_pipe<BM, BN, BK, WM, WN, TM, TN, STAGES, MINB, 4>
            <<<grid, threads, bytes>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        sgemm_pipe<BM, BN, BK, WM, WN, TM, TN, STAGES, MINB, 1>
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
        chose("%dx%dx%d tiles: %d in one grid", BM, BN, BK, tx * ty);
        launch_dbuf<BM, BN, BK, WM, WN, TM, TN, MINB>(1, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    chose("%dx%dx%d tiles: %d then %d split %d ways", BM, BN, BK,
          (ty - rows) * tx, rows * tx, splits);
    int top = (ty - rows) * BM;             /* rows of C in full waves */
    launch_dbuf<BM, BN, BK, WM, WN, TM, TN, MINB>(1, top, n, k, alpha,
                a, lda, b, ldb, beta, c, ldc);
    launch_dbuf<BM, BN, BK, WM, WN, TM, TN, MINB>(splits, m - top, n, k,
                alpha, a + top * lda, lda, b, ldb, beta, c + top * ldc, ldc);
}

void run_tuned(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc)
{
    int sms = sm_count();
    if (4 * CEIL_DIV(m, 256) * CEIL_DIV(n, 128) >= 3 * sms)
        run_waves<LARGE>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (CEIL_DIV(m, 128) * CEIL_DIV(n, 64) <= sms) {
        chose("128x64x16 tiles: %d blocks",
              CEIL_DIV(m, 128) * CEIL_DIV(n, 64));
        run_dbuf<SMALL>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    } else
        run_streamk<MIDDLE>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void run_split(int splits, int m, int n, int k, float alpha,
                           const float *a, int lda, const float *b, int ldb,
                           float beta, float *c, int ldc)
{
    int steps = CEIL_DIV(k, 16), slice = CEIL_DIV(steps, splits);
    splits = CEIL_DIV(steps, slice);
    chose("128x64x16 tiles: %d blocks; K split %d ways",
          CEIL_DIV(m, 128) * CEIL_DIV(n, 64), splits);
    launch_dbuf<SMALL>(splits, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void run_streamk_middle(int m, int n, int k, float alpha,
                        const float *a, int lda, const float *b, int ldb,
                        float beta, float *c, int ldc)
{
    run_streamk<MIDDLE>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void run_wide(int m, int n, int k, float alpha,
              const float *a, int lda, const float *b, int ldb,
              float beta, float *c, int ldc)
{
    run_dbuf<WIDE>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static const struct kernel kernels[] = {
    { .name = "dbuf",
      .what = "ch8's kernel, double-buffered through registers",
      .function = FUNCTION(sgemm_dbuf<WARP_TILING, 2>),
      .run = run_dbuf<WARP_TILING, 2> },
    { .name = "pipe",
      .what = "cp.async pipeline, 3 stages, 128x128x16 tiles",
      .function = FUNCTION(sgemm_pipe<WARP_TILING, 3, 2, 4>),
      .run = run_pipe<WARP_TILING, 3, 2>, .needs = 80 },
    { .name = "tuned",
      .what = "the kernel and tiles the tuning chose for the shape",
      .function = FUNCTION(sgemm_dbuf<LARGE>),
      .run = run_tuned },
};

extern "C" const struct chapter ch9_program = {
    .title = "double buffering, a pipeline, and tuning",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};

#define PIPE(bm, bn, bk, wm, wn, tm, tn, s, minb) \
    { .name = "pipe-" #bm "x" #bn "x" #bk "-w" #wm "x" #wn "-t" #tm "x" \
              #tn "-s" #s "-b" #minb, \
      .what = "pipelined kernel", \
      .function = FUNCTION(sgemm_pipe<bm, bn, bk, wm, wn, tm, tn, s, \
                                      minb, 4>), \
      .run = run_pipe<bm, bn, bk, wm, wn, tm, tn, s, minb>, .needs = 80 }
#define DBUF(bm, bn, bk, wm, wn, tm, tn, minb) \
    { .name = "dbuf-" #bm "x" #bn "x" #bk "-w" #wm "x" #wn "-t" #tm "x" \
              #tn "-b" #minb, \
      .what = "double-buffered kernel", \
      .function = FUNCTION(sgemm_dbuf<bm, bn, bk, wm, wn, tm, tn, minb>), \
      .run = run_dbuf<bm, bn, bk, wm, wn, tm, tn, minb> }

#define SK(bm, bn, bk, wm, wn, tm, tn, minb) \
    { .name = "sk-" #bm "x" #bn "x" #bk "-w" #wm "x" #wn "-t" #tm "x" \
              #tn "-b" #minb, \
      .what = "stream-K kernel", \
      .function = FUNCTION(sgemm_streamk<bm, bn, bk, wm, wn, tm, tn, \
                                         minb>), \
      .run = run_streamk<bm, bn, bk, wm, wn, tm, tn, minb> }
#define WARP(...) WARP_(__VA_ARGS__)
#define WARP_(bm, bn, bk, wm, wn, tm, tn) \
    { .name = "warp-" #bm "x" #bn "x" #bk "-w" #wm "x" #wn "-t" #tm "x" #tn, \
      .what = "chapter 8's kernel", \
      .function = FUNCTION(sgemm_warptile<bm, bn, bk, wm, wn, tm, tn>), \
      .run = run_warptile_ch8 }

static const struct kernel sweep_kernels[] = {
    WARP(WARP_TILING),
    DBUF(128, 128, 16, 32, 64, 8, 8, 1),
    DBUF(128, 128, 8, 32, 64, 8, 8, 2),
    DBUF(128, 128, 16, 64, 32, 8, 8, 1),
    DBUF(128, 256, 8, 64, 64, 8, 16, 1),
    DBUF(256, 128, 8, 64, 64, 16, 8, 1),
    DBUF(256, 128, 16, 64, 64, 16, 8, 1),
    DBUF(128, 64, 16, 32, 32, 8, 4, 2),
    DBUF(64, 64, 16, 32, 32, 8, 4, 4),
    PIPE(128, 128, 16, 32, 64, 8, 8, 4, 2),
    PIPE(128, 128, 8, 32, 64, 8, 8, 3, 2),
    PIPE(128, 256, 16, 64, 64, 8, 16, 3, 1),
    PIPE(64, 64, 16, 32, 32, 8, 4, 4, 4),
    SK(256, 128, 16, 64, 64, 16, 8, 1),
    SK(128, 128, 16, 32, 64, 8, 8, 1),
    SK(128, 64, 16, 32, 32, 8, 4, 2),
};

extern "C" const struct chapter ch9sweep_program = {
    .title = "the tuning sweep of chapter 9",
    .kernels = sweep_kernels, .nkernels = COUNT_OF(sweep_kernels),
};
