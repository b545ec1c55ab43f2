/* ch11.cu: FP32 accuracy from three TF32 products. */
#include "ch11.h"

/* ---- lab 11, Split a TF32 operand into a big and a small part: your code begins here ---- */
__device__ __forceinline__ void
split_tf32(unsigned x, unsigned *big, unsigned *small)
{
    /* Lab, chapter 11: x is an FP32 number's bits.  big must be x
       rounded to TF32 (its 10 bits of mantissa, to nearest), and small
       the TF32 rounding of what is left, x - big, so that big + small
       is x to some 21 bits.  As written, small is zero: a TF32
       product, not an FP32-accurate one. */
    *big = x;
    *small = 0;
}
/* ---- lab 11, Split a TF32 operand into a big and a small part: your code ends here ---- */

#define X3_TILES 128, 128, 64, 32, 3, 1

template <int BM, int BN, int WM, int WN, int STAGES, int MINB, int VEC>
__global__ void __launch_bounds__(BM / WM * (BN / WN) * 32, MINB)
tf32x3_mma(int m, int n, int k, float alpha,
           const float *a, int lda, const float *b, int ldb,
           float beta, float *c, int ldc)
{
    enum { BK = 32, PARTS = BK / 8, ROUND = 0, TRANSPOSE_B = 1 };
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
                        if (TRANSPOSE_B) {
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
                            if (TRANSPOSE_B) {
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
                    if (TRANSPOSE_B) {
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
                        if (TRANSPOSE_B) {
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
                            if (TRANSPOSE_B) {
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
                    if (TRANSPOSE_B) {
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
    enum { ROUND = 0, TRANSPOSE_B = 1 };
    dim3 grid(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    int threads = BM / WM * (BN / WN) * 32;
    size_t bytes = mma_bytes<BM, BN, WM, WN, STAGES>();
    static int ready;
    if (!ready) {
        CUDA_CHECK(cudaFuncSetAttribute(
            tf32x3_mma<BM, BN, WM, WN, STAGES, MINB, 4>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        CUDA_CHECK(cudaFuncSetAttribute(
            tf32x3_mma<BM, BN, WM, WN, STAGES, MINB, 1>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        ready = 1;
    }
    if (TRANSPOSE_B) {
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
        tf32x3_mma<BM, BN, WM, WN, STAGES, MINB, 4>
            <<<grid, threads, bytes>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        tf32x3_mma<BM, BN, WM, WN, STAGES, MINB, 1>
            <<<grid, threads, bytes>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    CUDA_CHECK(cudaGetLastError());
}

void run_3xtf32_mma(int m, int n, int k, float alpha,
                    const float *a, int lda, const float *b, int ldb,
                    float beta, float *c, int ldc)
{
    run_3xtf32<X3_TILES>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static const struct kernel kernels[] = {
    { .name = "fp32", .what = "chapter 9's FP32 kernel on CUDA cores",
      .function = FUNCTION(sgemm_dbuf<LARGE>),
      .run = run_tuned },
    { .name = "tf32", .what = "chapter 10's TF32 kernel",
      .function = FUNCTION(tf32_mma<TF32_LARGE, 4>),
      .precision = TF32, .run = run_mma,
      .setup = reserve_scratch, .teardown = free_scratch },
    { .name = "bf16", .what = "chapter 10's BF16 kernel",
      .function = FUNCTION(bf16_mma<BF16_SMALL, 8>),
      .precision = BF16, .run_bf16 = run_bf16,
      .setup = convert_to_bf16 },
    { .name = "3xtf32", .what = "3xTF32 on mma.sync, fresh sums every stage",
      .function = FUNCTION(tf32x3_mma<X3_TILES, 4>),
      .precision = FP32_3XTF32, .run = run_3xtf32<X3_TILES>,
      .setup = reserve_scratch, .teardown = free_scratch },
};

extern "C" const struct chapter ch11_program = {
    .title = "FP32 accuracy on tensor cores",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};
