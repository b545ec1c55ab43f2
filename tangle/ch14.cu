/* ch14.cu: every shape, one entry point per precision. */
#include <stdio.h>
#include <stdlib.h>
#include "ch14.h"
#include "ch11.h"
#include "wgmma.h"
#include "plan14.h"

__device__ __forceinline__ float as_float(float x) { return x; }
__device__ __forceinline__ float as_float(bf16_bits x)
{
    return __uint_as_float((unsigned)x << 16);
}

template <typename T, int VEC>
__device__ __forceinline__ void
load16(float *v, const T *p, int valid)
{
    enum { W = 16 / sizeof(T) };
    if (VEC && valid == W && sizeof(T) == 4) {
        float4 q = __ldg((const float4 *)p);
        v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
    } else if (VEC && valid == W) {
        uint4 q = __ldg((const uint4 *)p);
        unsigned h[4] = { q.x, q.y, q.z, q.w };
        #pragma unroll
        for (int e = 0; e < 4; e++) {
            v[2 * e] = __uint_as_float(h[e] << 16);
            v[2 * e + 1] = __uint_as_float(h[e] & 0xffff0000u);
        }
    } else {
        #pragma unroll
        for (int e = 0; e < W; e++)
            v[e] = e < valid ? as_float(p[e]) : 0.0f;
    }
}
template <typename T, int VEC, int R>
__global__ void __launch_bounds__(THIN_THREADS, R == THIN ? 2 : 0)
thin_rows(int m, int n, int k, int kslice, float alpha,
          const T *a, int lda, const T *b, int ldb,
          float beta, float *c, int ldc)
{
    enum { W = 16 / sizeof(T) };
    __shared__ __align__(16) float as[R][THIN_KC];
    int groups = CEIL_DIV(m, R);
    int row0 = blockIdx.x % groups * R, rows = min(R, m - row0);
    int col = blockIdx.x / groups * W * blockDim.x + W * threadIdx.x;
    int k0 = blockIdx.y * kslice, k1 = min(k, k0 + kslice);
    int valid = min(W, n - col);
    float acc[R][W];
    #pragma unroll
    for (int r = 0; r < R; r++)
        #pragma unroll
        for (int e = 0; e < W; e++)
            acc[r][e] = 0.0f;
    for (int kc = k0; kc < k1; kc += THIN_KC) {
        __syncthreads();
        for (int i = threadIdx.x; i < R * THIN_KC; i += blockDim.x) {
            int r = i / THIN_KC, kk = i % THIN_KC;
            as[r][kk] = r < rows && kc + kk < k1
                ? as_float(a[(size_t)(row0 + r) * lda + kc + kk]) : 0.0f;
        }
        __syncthreads();
        int steps = min(THIN_KC, k1 - kc);
        if (valid > 0) {
            #pragma unroll 2
            for (int kk = 0; kk < steps; kk += 4) {
                float v[4][W];
                #pragma unroll
                for (int q = 0; q < 4; q++)
                    load16<T, VEC>(v[q], b + (size_t)(kc + kk + q) * ldb + col,
                                   kk + q < steps ? valid : 0);
                #pragma unroll
                for (int r = 0; r < R; r++) {
                    float4 x = *(const float4 *)&as[r][kk];
                    #pragma unroll
                    for (int e = 0; e < W; e++)
                        acc[r][e] += x.x * v[0][e] + x.y * v[1][e]
                                   + x.z * v[2][e] + x.w * v[3][e];
                }
            }
        }
    }
    if (gridDim.y > 1) {
        #pragma unroll
        for (int r = 0; r < R; r++)
            #pragma unroll
            for (int e = 0; e < W; e++)
                if (r < rows && e < valid)
                    atomicAdd(&c[(size_t)(row0 + r) * ldc + col + e], alpha * acc[r][e]);
    } else {
        __shared__ __align__(16) float cs[THIN_THREADS / 32][32 * W];
        float *stage = cs[threadIdx.x / 32];
        int lane = threadIdx.x % 32, first = col - W * lane;
        float *row = c + (size_t)row0 * ldc + first;
        #pragma unroll
        for (int r = 0; r < R; r++, row += ldc) {
            if (r >= rows)
                break;
            __syncwarp();
            #pragma unroll
            for (int e = 0; e < W; e += 4)
                *(float4 *)&stage[W * lane + e] = make_float4(acc[r][e], acc[r][e + 1],
                                                              acc[r][e + 2], acc[r][e + 3]);
            __syncwarp();
            #pragma unroll
            for (int i = 0; i < W; i++) {
                int j = 32 * i + lane;
                if (first + j < n)
                    row[j] = beta == 0.0f ? alpha * stage[j]
                                          : alpha * stage[j] + beta * row[j];
            }
        }
    }
}
template <typename T, int VEC, int COLS>
__global__ void __launch_bounds__(THIN_THREADS)
thin_cols(int m, int n, int k, int kslice, float alpha,
          const T *a, int lda, const T *b, int ldb,
          float beta, float *c, int ldc)
{
    __shared__ __align__(16) float bs[COLS][4 * THIN_KC + 4];
    int lane = threadIdx.x % 32, groups = CEIL_DIV(n, COLS);
    int col0 = blockIdx.x % groups * COLS, cols = min(COLS, n - col0);
    int row0 = (blockIdx.x / groups * (THIN_THREADS / 32)
                + threadIdx.x / 32) * 4;
    int k0 = blockIdx.y * kslice, k1 = min(k, k0 + kslice);
    float acc[4][COLS];
    #pragma unroll
    for (int r = 0; r < 4; r++)
        #pragma unroll
        for (int j = 0; j < COLS; j++)
            acc[r][j] = 0.0f;
    for (int kc = k0; kc < k1; kc += 4 * THIN_KC) {
        __syncthreads();
        for (int i = threadIdx.x; i < COLS * 4 * THIN_KC; i += THIN_THREADS) {
            int kk = i / COLS, j = i % COLS;
            bs[j][kk] = j < cols && kc + kk < k1
                ? as_float(b[(size_t)(kc + kk) * ldb + col0 + j]) : 0.0f;
        }
        __syncthreads();
        #pragma unroll 1
        for (int kk = 4 * lane; kk < 4 * THIN_KC; kk += 128) {
            float av[4][4];
            int valid = min(4, k1 - kc - kk);
            #pragma unroll
            for (int r = 0; r < 4; r++) {
                const T *p = a + (size_t)min(row0 + r, m - 1) * lda + kc + kk;
                if (VEC && sizeof(T) == 4 && valid == 4 && row0 + r < m) {
                    float4 q = __ldg((const float4 *)p);
                    av[r][0] = q.x; av[r][1] = q.y; av[r][2] = q.z; av[r][3] = q.w;
                } else {
                    #pragma unroll
                    for (int e = 0; e < 4; e++)
                        av[r][e] = e < valid && row0 + r < m ? as_float(p[e]) : 0.0f;
                }
            }
            #pragma unroll
            for (int j = 0; j < COLS; j++) {
                float4 x = *(const float4 *)&bs[j][kk];
                #pragma unroll
                for (int r = 0; r < 4; r++)
                    acc[r][j] += av[r][0] * x.x + av[r][1] * x.y
                               + av[r][2] * x.z + av[r][3] * x.w;
            }
        }
    }
    #pragma unroll
    for (int r = 0; r < 4; r++) {
        float mine = 0.0f;
        #pragma unroll
        for (int j = 0; j < COLS; j++) {
            float v = acc[r][j];
            for (int d = 16; d > 0; d /= 2)
                v += __shfl_xor_sync(0xffffffffu, v, d);
            if (lane == j)
                mine = v;
        }
        if (lane < cols && row0 + r < m) {
            float *cij = &c[(size_t)(row0 + r) * ldc + col0 + lane];
            if (gridDim.y > 1)
                atomicAdd(cij, alpha * mine);
            else
                *cij = beta == 0.0f ? alpha * mine : alpha * mine + beta * *cij;
        }
    }
}
template <typename T, int VEC, int R>
static void launch_thin_rows(const struct gemm_plan *p, int m, int n, int k, float alpha, const T *a, int lda, const T *b,
                                                        int ldb, float beta, float *c, int ldc)
{
    thin_rows<T, VEC, R><<<dim3(p->blocks, p->splits), p->threads>>>(m, n, k,
        p->kslice, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <typename T, int VEC, int COLS>
static void launch_thin_cols(const struct gemm_plan *p, int m, int n, int k, float alpha, const T *a, int lda, const T *b,
                                                        int ldb, float beta, float *c, int ldc)
{
    thin_cols<T, VEC, COLS><<<dim3(p->blocks, p->splits), THIN_THREADS>>>(
        m, n, k, p->kslice, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <typename T, int VEC>
static void launch_thin_vec(const struct gemm_plan *p, int m, int n, int k, float alpha, const T *a, int lda, const T *b,
                                                       int ldb, float beta, float *c, int ldc)
{
    enum { RMAX = sizeof(T) == 4 ? THIN : 4 };
    if (p->splits > 1)
        scale_c(m, n, beta, c, ldc);
    if (p->kernel == PLAN_THIN_COLS && p->rows == 1)
        launch_thin_cols<T, VEC, 1>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (p->kernel == PLAN_THIN_COLS && p->rows == 4)
        launch_thin_cols<T, VEC, 4>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (p->kernel == PLAN_THIN_COLS)
        launch_thin_cols<T, VEC, THIN>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (p->rows == 1)
        launch_thin_rows<T, VEC, 1>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (p->rows == 4)
        launch_thin_rows<T, VEC, 4>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        launch_thin_rows<T, VEC, RMAX>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    CUDA_CHECK(cudaGetLastError());
}

template <typename T>
static void launch_thin(const struct gemm_plan *p, int m, int n, int k, float alpha, const T *a, int lda, const T *b,
                                                   int ldb, float beta, float *c, int ldc)
{
    if (p->vec)
        launch_thin_vec<T, 1>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        launch_thin_vec<T, 0>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
enum { NARROW_KIND = DIRECT_NARROW,     /* BF16, A's rows first */
       DIRECT_KB = 200 };                /* shared memory for the stages */
static_assert(BF16_KIND == DIRECT_BF16 && TF32_KIND == DIRECT_TF32
              && X3_KIND == DIRECT_X3, "the plan's kinds are chapter 12's");

template <int KIND, int TN>
struct direct_shape {
    enum {
        X3 = KIND == X3_KIND, NARROW = KIND == NARROW_KIND,
        SIZE = KIND == BF16_KIND || NARROW ? 2 : 4,
        BM = NARROW ? 128 : TN, BN = NARROW ? TN : 128, BK = 128 / SIZE,
        BOXES = NARROW ? 1 : BN / BK,
        A_BYTES = BM * 128, B_BYTES = BOXES * BK * 128,
        B_AT = (1 + X3) * A_BYTES,                /* X3: A's two parts */
        STAGE_BYTES = B_AT + B_BYTES,
        STAGES = DIRECT_KB * 1024 / STAGE_BYTES,
        SMEM = STAGES * STAGE_BYTES + 1024          /* + alignment */
    };
};
__device__ __forceinline__ void consumers_sync(void)
{
    asm volatile("bar.sync 1, 256;\n" ::: "memory");
}

__device__ __forceinline__ void store_release(int *flag, int v)
{
    asm volatile("st.release.gpu.global.b32 [%0], %1;\n"
                 :: "l"(flag), "r"(v) : "memory");
}

__device__ __forceinline__ int load_acquire(const int *flag)
{
    int v;
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n"
                 : "=r"(v) : "l"(flag) : "memory");
    return v;
}
struct pieces {
    int next, whole;    /* whole tiles: the next, a grid apart, below whole */
    int unit;           /* then this unit of the last wave, or none (-1) */
    int tail, slice, steps;
};

__device__ __forceinline__ struct pieces pieces_of_block(int tiles,
                                                         struct last_wave lw,
                                                         int steps)
{
    struct pieces w;
    w.next = blockIdx.x;
    w.whole = tiles - lw.tiles;
    w.unit = blockIdx.x < lw.tiles * CEIL_DIV(steps, lw.slice)
             ? (int)blockIdx.x : -1;
    w.tail = lw.tiles;
    w.slice = lw.slice;
    w.steps = steps;
    return w;
}

__device__ __forceinline__ int next_piece(struct pieces *w, int *tile,
                                          int *first, int *last)
{
    if (w->next < w->whole) {
        *tile = w->next;
        *first = 0;
        *last = w->steps;
        w->next += gridDim.x;
        return 1;
    }
    if (w->unit < 0)
        return 0;
    *tile = w->whole + w->unit % w->tail;
    *first = w->unit / w->tail * w->slice;
    *last = min(*first + w->slice, w->steps);
    w->unit = -1;
    return 1;
}
struct direct_maps { CUtensorMap a, a_small, b; };

template <int KIND, int TN>
__global__ void __launch_bounds__(384, 1)
direct_gemm(const __grid_constant__ struct direct_maps maps, int m, int n,
            int k, float alpha, float beta, float *c_, int ldc,
            struct last_wave lw)
{
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __trap();                   /* built for a GPU without wgmma */
#else
    typedef direct_shape<KIND, TN> S;
    extern __shared__ __align__(1024) char smem_raw[];
    __shared__ __align__(8) uint64_t full[S::STAGES], empty[S::STAGES];
    char *stages = (char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    int steps = CEIL_DIV(k, S::BK);
    int tiles_m = CEIL_DIV(m, S::BM), tiles_n = CEIL_DIV(n, S::BN);
    int tiles = tiles_m * tiles_n;
    if (threadIdx.x == 0) {
        for (int s = 0; s < S::STAGES; s++) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], 2);
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    struct pieces work = pieces_of_block(tiles, lw, steps);
    int tile, first, last;
    if (threadIdx.x / 128 == 0) {
        regs_down<40>();
        if (threadIdx.x == 0)
            for (int it = 0; next_piece(&work, &tile, &first, &last); ) {
                int first_col = tile / (8 * tiles_m) * 8, cols = min(tiles_n - first_col, 8);
                int row0 = tile % (8 * tiles_m) / cols * S::BM;
                int col0 = (first_col + tile % (8 * tiles_m) % cols) * S::BN;
                for (int step = first; step < last; step++, it++) {
                    int s = it % S::STAGES;
                    char *st = stages + s * S::STAGE_BYTES;
                    if (it >= S::STAGES)
                        mbar_wait(&empty[s], (it / S::STAGES - 1) & 1);
                    mbar_expect_bytes(&full[s], S::STAGE_BYTES);
                    tma_load(st, &maps.a, &full[s], step * S::BK, row0);
                    if (S::X3)
                        tma_load(st + S::A_BYTES, &maps.a_small, &full[s],
                                 step * S::BK, row0);
                    for (int q = 0; q < S::BOXES; q++)
                        tma_load(st + S::B_AT + q * S::BK * 128, &maps.b,
                                 &full[s], col0 + S::BK * q, step * S::BK);
                }
            }
    } else {
        regs_up<232>();
        int c = threadIdx.x / 128 - 1, w = threadIdx.x % 128 / 32;
        int lane = threadIdx.x % 32;
        float acc[TN / 2], fresh[TN / 2];
        for (int it = 0; next_piece(&work, &tile, &first, &last); ) {
            int first_col = tile / (8 * tiles_m) * 8, cols = min(tiles_n - first_col, 8);
            int row0 = tile % (8 * tiles_m) / cols * S::BM;
            int col0 = (first_col + tile % (8 * tiles_m) % cols) * S::BN;
            #pragma unroll
            for (int i = 0; i < TN / 2; i++) {
                acc[i] = 0.0f;
                if (S::X3)
                    fresh[i] = 0.0f;
            }
            for (int step = first; step < last; step++, it++) {
                int s = it % S::STAGES;
                const char *st = stages + s * S::STAGE_BYTES;
                unsigned frag[4][4], small[4][4];
                mbar_wait(&full[s], (it / S::STAGES) & 1);
                if (KIND == BF16_KIND) {
                    #pragma unroll
                    for (int kk = 0; kk < 4; kk++) {
                        int j = lane / 8, kq = 16 * kk + 8 * (j / 2) + lane % 8;
                        int chunk = (2 * w + j % 2) ^ (kq % 8);
                        ldmatrix_x4_trans(frag[kk], st + S::B_AT + c * 8192 + kq * 128 + chunk * 16);
                    }
                } else if (!S::NARROW) {
                    #pragma unroll
                    for (int kk = 0; kk < 4; kk++)
                        #pragma unroll
                        for (int i = 0; i < 4; i++) {
                            int h = i % 2, g = lane / 4, kq = 8 * kk + lane % 4 + 4 * (i / 2);
                            int chunk = (4 * (g / 4) + w) ^ (kq % 8);
                            float v = *(const float *)(st + S::B_AT + (2 * c + h) * 4096
                                                       + kq * 128 + chunk * 16 + g % 4 * 4);
                            float big = tf32_rounded(v);
                            frag[kk][i] = __float_as_uint(big);
                            if (S::X3)
                                small[kk][i] = __float_as_uint(tf32_rounded(v - big));
                        }
                }
                wgmma_fence();
                #pragma unroll
                for (int kk = 0; kk < 4; kk++) {
                    uint64_t big_a = wgmma_desc(st + 32 * kk, 0, 1024);
                    if constexpr (S::NARROW) {
                        wgmma_bf16_smem<TN>(acc, wgmma_desc(st + 64 * 128 * c + 32 * kk, 0, 1024),
                                            wgmma_desc(st + S::B_AT + 16 * 128 * kk, 8192, 1024));
                    } else if (S::X3) {
                        uint64_t small_a = wgmma_desc(st + S::A_BYTES + 32 * kk, 0, 1024);
                        wgmma_regs<KIND, TN>(fresh, small[kk], big_a);
                        wgmma_regs<KIND, TN>(fresh, frag[kk], small_a);
                        wgmma_regs<KIND, TN>(fresh, frag[kk], big_a);
                    } else {
                        wgmma_regs<KIND, TN>(acc, frag[kk], big_a);
                    }
                }
                wgmma_commit();
                wgmma_wait<0>();
                if (threadIdx.x % 128 == 0)
                    mbar_arrive(&empty[s]);
                if (S::X3)
                    #pragma unroll
                    for (int i = 0; i < TN / 2; i++) {
                        acc[i] += fresh[i];
                        fresh[i] = 0.0f;
                    }
            }
            if (last - first < steps) {
                int q = blockIdx.x / lw.tiles, slices = CEIL_DIV(steps, lw.slice);
                for (int d = 1; d < slices; d *= JOIN_RADIX) {
                    if (q % (JOIN_RADIX * d)) {
                        float *mine = lw.partials + (size_t)blockIdx.x * TN * 128 + threadIdx.x - 128;
                        #pragma unroll
                        for (int i = 0; i < TN / 2; i++)
                            __stcg(&mine[256 * i], acc[i]);
                        __threadfence();
                        consumers_sync();
                        if (threadIdx.x == 128)
                            store_release(&lw.flags[blockIdx.x], lw.epoch);
                        break;
                    }
                    for (int e = 1; e < JOIN_RADIX && q + e * d < slices; e++) {
                        int b = blockIdx.x + e * d * lw.tiles;
                        if (threadIdx.x == 128)
                            while (load_acquire(&lw.flags[b]) != lw.epoch)
                                ;
                        consumers_sync();
                        const float *theirs = lw.partials + (size_t)b * TN * 128 + threadIdx.x - 128;
                        #pragma unroll
                        for (int i = 0; i < TN / 2; i++)
                            acc[i] += __ldcg(&theirs[256 * i]);
                    }
                }
                if (q > 0)                  /* its sums are handed over */
                    continue;
            }
            #pragma unroll
            for (int i = 0; i < TN / 2; i++) {
                int e = i % 4, g = lane / 4;
                int row = row0 + 8 * (i / 4) + 2 * (lane % 4) + e % 2;
                int col = col0 + 64 * c + (KIND == BF16_KIND
                                           ? 16 * w + 8 * (e / 2) + g
                                           : 32 * (e / 2) + 16 * (g / 4) + 4 * w + g % 4);
                if (S::NARROW) {                /* the sums are C itself */
                    row = row0 + 64 * c + 16 * w + 8 * (e / 2) + g;
                    col = col0 + 8 * (i / 4) + 2 * (lane % 4) + e % 2;
                }
                if (row < m && col < n) {
                    float *cij = &c_[(size_t)row * ldc + col];
                    *cij = beta == 0.0f ? alpha * acc[i] : alpha * acc[i] + beta * *cij;
                }
            }
        }
    }
#endif
}
static struct gemm_workspace own_work, *work = &own_work;

void gemm_use(struct gemm_workspace *w)
{
    work = w ? w : &own_work;
    use_scratch(w ? &w->scratch : NULL);
    use_passes(w ? &w->passes : NULL);
}
static void split_release(void)
{
    float *partials = work->partials;
    int *flags = work->flags;
    work->partials = NULL;        /* nothing held if a free fails */
    work->flags = NULL;
    work->sms = 0;
    if (partials)
        CUDA_CHECK(cudaFree(partials));
    if (flags)
        CUDA_CHECK(cudaFree(flags));
}

static void split_reserve(void)
{
    int sms = sm_count();
    if (sms <= work->sms)
        return;
    split_release();
    CUDA_CHECK(cudaMalloc((void **)&work->partials,
                          (size_t)sms * 256 * 128 * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&work->flags, sms * sizeof(int)));
    CUDA_CHECK(cudaMemset(work->flags, 0, sms * sizeof(int)));
    work->sms = sms;
}

template <int KIND, int TN, typename T>
static void launch_direct(const struct gemm_plan *p, int m, int n, int k,
                          float alpha, const T *a, int lda, const T *b,
                          int ldb, float beta, float *c, int ldc)
{
    typedef direct_shape<KIND, TN> S;
    static int ready;
    struct direct_maps maps;
    int bf16 = S::SIZE == 2;
    struct last_wave lw = { p->wave.tiles, p->wave.slice, NULL, NULL, 0 };
    if (lw.tiles) {
        split_reserve();
        lw.partials = work->partials;
        lw.flags = work->flags;
        lw.epoch = work->epoch = work->epoch % 0x7fffffff + 1;   /* never 0 */
    }
    if (S::X3) {
        int ld = CEIL_DIV(k, 8) * 8;                /* rows on 32 bytes */
        float *big = scratch(0, 2 * (size_t)m * ld), *small = big + (size_t)m * ld;
        split_rows<<<dim3(m, CEIL_DIV(ld / 4, 128)), 128>>>((const float *)a,
                                                           lda, big, small,
                                                           ld, m, k);
        CUDA_CHECK(cudaGetLastError());
        tensor_map(&maps.a, big, 0, m, k, ld, TN, S::BK);
        tensor_map(&maps.a_small, small, 0, m, k, ld, TN, S::BK);
    } else {
        tensor_map(&maps.a, a, bf16, m, k, lda, S::BM, S::BK);
    }
    tensor_map(&maps.b, b, bf16, k, n, ldb, S::BK, S::BK);
    if (!ready) {
        CUDA_CHECK(cudaFuncSetAttribute(direct_gemm<KIND, TN>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)S::SMEM));
        ready = 1;
    }
    direct_gemm<KIND, TN><<<p->wave.blocks, 384, S::SMEM>>>(maps, m, n, k,
                                                        alpha, beta, c, ldc,
                                                        lw);
    CUDA_CHECK(cudaGetLastError());
}

template <int KIND, typename T>
static void launch_direct_rows(const struct gemm_plan *p, int m, int n,
                               int k, float alpha, const T *a, int lda,
                               const T *b, int ldb, float beta, float *c,
                               int ldc)
{
    if (p->rows == 16)
        launch_direct<KIND, 16>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (p->rows == 32)
        launch_direct<KIND, 32>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (p->rows == 64)
        launch_direct<KIND, 64>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if constexpr (KIND != NARROW_KIND) {
        if (p->rows == 128)
            launch_direct<KIND, 128>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        else if constexpr (KIND != X3_KIND) {
            if (p->rows == 192)
                launch_direct<KIND, 192>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
            else
                launch_direct<KIND, 256>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        }
    }
}

enum { PAD_THREADS = 256, PAD_UNROLL = 4 };

template <typename T>
__global__ void pad_rows(T *to, int ld_to, const T *x, int ld, int rows,
                         int cols)
{
    for (int r = blockIdx.y; r < rows; r += gridDim.y)
        for (int c = blockIdx.x * PAD_THREADS * PAD_UNROLL + threadIdx.x;
             c < cols; c += gridDim.x * PAD_THREADS * PAD_UNROLL) {
            T v[PAD_UNROLL] = {};
            #pragma unroll
            for (int u = 0; u < PAD_UNROLL; u++)
                if (c + u * PAD_THREADS < cols)
                    v[u] = x[(size_t)r * ld + c + u * PAD_THREADS];
            #pragma unroll
            for (int u = 0; u < PAD_UNROLL; u++)
                if (c + u * PAD_THREADS < cols)
                    to[(size_t)r * ld_to + c + u * PAD_THREADS] = v[u];
        }
}

static int padded(int cols, int size)   /* a copy's leading dimension */
{
    return (int)(CEIL_DIV((long)cols * size, 32) * 32 / size);
}

static const void *aligned_copy(const void *x, int rows, int cols, int ld,
                                int size, size_t at, int *ld_to)
{
    dim3 grid(CEIL_DIV(cols, PAD_THREADS * PAD_UNROLL),
              rows < 65535 ? rows : 65535);
    *ld_to = padded(cols, size);
    if (size == 4)
        pad_rows<float><<<grid, PAD_THREADS>>>((float *)(work->pad + at),
            *ld_to, (const float *)x, ld, rows, cols);
    else
        pad_rows<bf16_bits><<<grid, PAD_THREADS>>>((bf16_bits *)(work->pad + at),
            *ld_to, (const bf16_bits *)x, ld, rows, cols);
    CUDA_CHECK(cudaGetLastError());
    return work->pad + at;
}

static void pad_free(void)
{
    char *old = work->pad;
    work->pad = NULL;
    work->pad_len = 0;
    if (old)
        CUDA_CHECK(cudaFree(old));
}

static void pad_reserve(int m, int n, int k)
{
    size_t len = 4 * ((size_t)m * padded(k, 4) + (size_t)k * padded(n, 4));
    if (len > work->pad_len) {
        pad_free();               /* nothing held if a call fails */
        CUDA_CHECK(cudaMalloc((void **)&work->pad, len));
        work->pad_len = len;
    }
}
void gemm_reserve(int m, int n, int k, const struct operands *set)
{
    hopper_reserve(m, n, k, set);
    split_reserve();
    pad_reserve(m, n, k);
}

void gemm_release(void)
{
    hopper_release();
    split_release();
    free_scratch();
    pad_free();
}
template <typename F>
static struct kernel_use use_of(F *kernel, const struct gpu_limits *g)
{
    cudaFuncAttributes fa;
    CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel));
    struct kernel_use u = { fa.numRegs, (int)fa.sharedSizeBytes };
    for (int t = 32; t <= THIN_THREADS; t += 32) {
        int per_sm = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
                                                                 t, 0));
        if (per_sm != resident(u, t, g))
            cannot_run("the runtime holds %d blocks of %d threads of a thin "
                       "kernel an SM, the plan counts %d", per_sm, t,
                       resident(u, t, g));
    }
    return u;
}

template <typename T, int VEC>
static void thin_uses(struct kernel_use u[THIN_KINDS], const struct gpu_limits *g)
{
    enum { RMAX = sizeof(T) == 4 ? THIN : 4 };
    u[THIN_R1] = use_of(thin_rows<T, VEC, 1>, g);
    u[THIN_R4] = use_of(thin_rows<T, VEC, 4>, g);
    u[THIN_R16] = use_of(thin_rows<T, VEC, RMAX>, g);
    u[THIN_C1] = use_of(thin_cols<T, VEC, 1>, g);
    u[THIN_C4] = use_of(thin_cols<T, VEC, 4>, g);
    u[THIN_C16] = use_of(thin_cols<T, VEC, THIN>, g);
}

static struct gpu_limits limits_here(void)
{
    enum { DEVICES = 64 };
    static struct gpu_limits each[DEVICES];  /* each device's, once */
    int dev;
    CUDA_CHECK(cudaGetDevice(&dev));
    if (dev >= DEVICES)
        cannot_run("device %d: the program keeps the limits of %d",
                   dev, DEVICES);
    if (!each[dev].threads_per_sm) {    /* filled whole, or not at all */
        struct gpu_limits g = {};
        CUDA_CHECK(cudaDeviceGetAttribute(&g.regs_per_sm,
                   cudaDevAttrMaxRegistersPerMultiprocessor, dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&g.blocks_per_sm,
                   cudaDevAttrMaxBlocksPerMultiprocessor, dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&g.smem_per_sm,
                   cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&g.smem_reserved,
                   cudaDevAttrReservedSharedMemoryPerBlock, dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&g.threads_per_sm,
                   cudaDevAttrMaxThreadsPerMultiProcessor, dev));
        thin_uses<float, 0>(g.thin[0][0], &g);
        thin_uses<float, 1>(g.thin[0][1], &g);
        thin_uses<bf16_bits, 0>(g.thin[1][0], &g);
        thin_uses<bf16_bits, 1>(g.thin[1][1], &g);
        cudaFuncAttributes fa;          /* built from Hopper's PTX here? */
        CUDA_CHECK(cudaFuncGetAttributes(&fa, direct_gemm<TF32_KIND, 256>));
        g.hopper = fa.ptxVersion >= 90;
        each[dev] = g;
    }
    struct gpu_limits g = each[dev];
    g.sms = sm_count();
    g.hopper = g.hopper && hopper_kernels();
    return g;
}

static int align_of(const void *x)   /* the power of two x is a multiple of */
{
    int bytes = 1;
    while (bytes < 256 && (uintptr_t)x % (2 * bytes) == 0)
        bytes *= 2;
    return bytes;
}

static struct gemm_shape shape_of(int m, int n, int k, const void *a, int lda,
                                  const void *b, int ldb, const float *c,
                                  int ldc)
{
    struct gemm_shape s = { m, n, k, lda, ldb, ldc,
                            align_of(a), align_of(b), align_of(c) };
    return s;
}
template <typename T>
static void run_plan(const struct gemm_plan *p, int m, int n, int k, float alpha, const T *a, int lda, const T *b,
                                                int ldb, float beta, float *c, int ldc)
{
    char said[160];
    if (p->size == 4 && (p->kernel == PLAN_HOPPER || p->kind == DIRECT_X3))
        gemm_reserve(m, n, k, NULL);        /* the passes' buffers */
    if (p->copy_a || p->copy_b)
        pad_reserve(m, n, k);
    if (p->copy_a)
        a = (const T *)aligned_copy(a, m, k, lda, sizeof(T), 0, &lda);
    if (p->copy_b)
        b = (const T *)aligned_copy(b, k, n, ldb, sizeof(T),
                                    (size_t)m * padded(k, sizeof(T)) * sizeof(T),
                                    &ldb);
    describe_plan(p, said, sizeof said);
    switch (p->kernel) {
    case PLAN_EMPTY:
        if (m > 0 && n > 0)
            scale_c(m, n, beta, c, ldc);    /* K = 0: C = beta C */
        break;
    case PLAN_THIN_ROWS:
    case PLAN_THIN_COLS:
        launch_thin<T>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        break;
    case PLAN_DIRECT:
        if constexpr (sizeof(T) == 4) {
            if (p->kind == DIRECT_X3)
                launch_direct_rows<X3_KIND>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
            else
                launch_direct_rows<TF32_KIND>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        } else if (p->kind == DIRECT_NARROW) {
            launch_direct_rows<NARROW_KIND>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        } else {
            launch_direct_rows<BF16_KIND>(p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        }
        break;
    case PLAN_HOPPER:
        if (p->splits > 1)
            scale_c(m, n, beta, c, ldc);
        if constexpr (sizeof(T) == 4) {
            if (p->splits > 1)
                hopper_tf32_split(p->splits, m, n, k, alpha, a, lda, b, ldb, c, ldc);
            else
                hopper_tf32(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        } else if (p->splits > 1) {
            hopper_bf16_split(p->splits, m, n, k, alpha, a, lda, b, ldb, c, ldc);
        } else {
            hopper_bf16(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        }
        break;
    case PLAN_SPLIT:
    case PLAN_STREAMK:
    case PLAN_WIDE:
    case PLAN_TUNED:
        if constexpr (sizeof(T) == 4) {
            if (p->kernel == PLAN_SPLIT)
                run_split(p->splits, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
            else if (p->kernel == PLAN_STREAMK)
                run_streamk_middle(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
            else if (p->kernel == PLAN_WIDE)
                run_wide(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
            else
                run_tuned(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        }
        break;
    case PLAN_MMA:
        if constexpr (sizeof(T) == 4)
            run_mma(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        else
            run_bf16(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        break;
    case PLAN_MMA_X3:
        if constexpr (sizeof(T) == 4)
            run_3xtf32_mma(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        break;
    }
    chose("%s", said);
}
typedef struct gemm_plan (*plan_rule)(const struct gemm_shape *,
                                      const struct gpu_limits *);

template <plan_rule RULE, typename T>
static void planned(int m, int n, int k, float alpha, const T *a, int lda,
                    const T *b, int ldb, float beta, float *c, int ldc)
{
    struct gpu_limits g = limits_here();
    struct gemm_shape s = shape_of(m, n, k, a, lda, b, ldb, c, ldc);
    struct gemm_plan p = RULE(&s, &g);
    run_plan(&p, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm_fp32(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc)
{
    planned<plan_fp32>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm_tf32(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc)
{
    planned<plan_tf32>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm_3xtf32(int m, int n, int k, float alpha,
                 const float *a, int lda, const float *b, int ldb,
                 float beta, float *c, int ldc)
{
    planned<plan_3xtf32>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm_bf16(int m, int n, int k, float alpha, const bf16_bits *a,
               int lda, const bf16_bits *b, int ldb, float beta, float *c,
               int ldc)
{
    planned<plan_bf16>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static struct gemm_plan plan_fp32_thin(const struct gemm_shape *s,
                                       const struct gpu_limits *g)
{
    return plan_thin(s, 4, g);
}

static struct gemm_plan plan_tf32_direct(const struct gemm_shape *s,
                                         const struct gpu_limits *g)
{
    return plan_tf32_rules(s, g, 1);
}

static struct gemm_plan plan_bf16_direct(const struct gemm_shape *s,
                                         const struct gpu_limits *g)
{
    return plan_bf16_rules(s, g, 1);
}

static void fp32_split(int m, int n, int k, float alpha,
                       const float *a, int lda, const float *b, int ldb,
                       float beta, float *c, int ldc)
{
    struct gpu_limits g = limits_here();
    run_split(fp32_slices(m, n, k, &g), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static void setup_fp32(int m, int n, int k, const struct operands *)
{
    pad_reserve(m, n, k);
}

static void setup_bf16(int m, int n, int k, const struct operands *set)
{
    convert_to_bf16(m, n, k, set);
    gemm_reserve(m, n, k, set);
}

static void setup_3xtf32(int m, int n, int k, const struct operands *set)
{
    gemm_reserve(m, n, k, set);
    scratch(0, 2 * (size_t)m * CEIL_DIV(k, 8) * 8);   /* A's two parts */
}

static const struct kernel kernels[] = {
    { .name = "fp32", .what = "the FP32 dispatcher (CUDA cores)",
      .function = FUNCTION(sgemm_dbuf<LARGE>), .run = gemm_fp32,
      .setup = setup_fp32, .teardown = gemm_release },
    { .name = "fp32-tiles", .what = "chapter 9's tuned kernel alone",
      .function = FUNCTION(sgemm_dbuf<LARGE>), .run = run_tuned },
    { .name = "fp32-thin", .what = "the thin kernels alone, FP32",
      .function = "thin_rows<float, 1, 16>",
      .run = planned<plan_fp32_thin, float> },
    { .name = "fp32-split", .what = "chapter 9's split alone, by the rule",
      .function = FUNCTION(sgemm_dbuf<SMALL>), .run = fp32_split },
    { .name = "tf32", .what = "the TF32 dispatcher",
      .function = "direct_gemm<1, 256>",
      .precision = TF32, .run = gemm_tf32,
      .setup = gemm_reserve, .teardown = gemm_release },
    { .name = "tf32-tiles", .what = "chapter 12's TF32 product alone",
      .function = "hopper_gemm<1, 1, 2, 0>",
      .precision = TF32, .run = hopper_tf32,
      .setup = hopper_reserve, .teardown = hopper_release,
      .needs = 90, .exact = 1 },
    { .name = "tf32-direct",
      .what = "the TF32 dispatcher, without passes wherever the rows allow",
      .function = "direct_gemm<1, 256>",
      .precision = TF32, .run = planned<plan_tf32_direct, float>,
      .setup = gemm_reserve, .teardown = gemm_release },
    { .name = "3xtf32", .what = "the 3xTF32 dispatcher",
      .function = "direct_gemm<2, 128>",
      .precision = FP32_3XTF32, .run = gemm_3xtf32,
      .setup = setup_3xtf32, .teardown = gemm_release },
    { .name = "3xtf32-tiles", .what = "chapter 12's 3xTF32 product alone",
      .function = "hopper_gemm<2, 1, 1, 0>",
      .precision = FP32_3XTF32, .run = hopper_3xtf32,
      .setup = hopper_reserve, .teardown = hopper_release,
      .needs = 90, .exact = 1 },
    { .name = "bf16", .what = "the BF16 dispatcher",
      .function = "hopper_gemm<0, 1, 2, 0>",
      .precision = BF16, .run_bf16 = gemm_bf16,
      .setup = setup_bf16, .teardown = gemm_release },
    { .name = "bf16-direct",
      .what = "the BF16 dispatcher, C^T = B^T A^T at every shape",
      .function = "direct_gemm<0, 128>",
      .precision = BF16, .run_bf16 = planned<plan_bf16_direct, bf16_bits>,
      .setup = setup_bf16, .teardown = gemm_release },
    { .name = "bf16-tiles",
      .what = "chapter 12's BF16 product alone (chapter 10's if unaligned)",
      .function = "hopper_gemm<0, 1, 2, 0>",
      .precision = BF16, .run_bf16 = hopper_bf16,
      .setup = convert_to_bf16, .needs = 90, .exact = 1 },
    { .name = "cublas-fp32", .what = "cuBLAS FP32, for its error",
      .run = cublas_sgemm },
};

extern "C" const struct chapter ch14_program = {
    .title = "every shape, one entry point per precision",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};
