/* ch14.cu: every shape, one entry point per precision. */
#include <stdio.h>
#include <stdlib.h>
#include "ch14.h"
#include "wgmma.h"

enum { THIN = 16, THIN_THREADS = 256, THIN_KC = 64 };
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
__global__ void __launch_bounds__(THIN_THREADS)
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
        /* ---- lab 14, Stream the rows of $B$ from [[kc]]: your code begins here ---- */
        /* Lab, chapter 14: the main loop of the thin kernel for few rows.
           The block has staged as[r][kk] = A[row0 + r][kc + kk] for r < R and
           kk < THIN_KC (zero past the rows or the slice).  This thread owns
           the W adjacent columns col .. col + W - 1 of C, of which valid lie
           inside the matrix.  For every k from kc up to the end of the step,
           min(kc + THIN_KC, k1), read the W values of row k of B from column
           col, b + (size_t)k * ldb + col, with load16<T, VEC> (valid of them;
           past the slice, none) and
           add as[r][k - kc] times them into acc[r][0 .. W-1] for every r.
           The kernel is bound by memory: keep several loads of B in flight
           before using them.  As written, nothing is added, and C comes out
           as beta times C. */
        /* ---- lab 14, Stream the rows of $B$ from [[kc]]: your code ends here ---- */
    }
    for (int r = 0; r < rows; r++)
        for (int e = 0; e < valid; e++) {
            float *cij = &c[(size_t)(row0 + r) * ldc + col + e];
            if (gridDim.y > 1)
                atomicAdd(cij, alpha * acc[r][e]);
            else
                *cij = beta == 0.0f ? alpha * acc[r][e]
                                    : alpha * acc[r][e] + beta * *cij;
        }
}
template <typename T, int VEC>
__global__ void __launch_bounds__(THIN_THREADS)
thin_cols(int m, int n, int k, int kslice, float alpha,
          const T *a, int lda, const T *b, int ldb,
          float beta, float *c, int ldc)
{
    __shared__ __align__(16) float bs[THIN][4 * THIN_KC + 4];
    int lane = threadIdx.x % 32, groups = CEIL_DIV(n, THIN);
    int col0 = blockIdx.x % groups * THIN, cols = min(THIN, n - col0);
    int row0 = (blockIdx.x / groups * (THIN_THREADS / 32)
                + threadIdx.x / 32) * 4;
    int k0 = blockIdx.y * kslice, k1 = min(k, k0 + kslice);
    float acc[4][THIN];
    #pragma unroll
    for (int r = 0; r < 4; r++)
        #pragma unroll
        for (int j = 0; j < THIN; j++)
            acc[r][j] = 0.0f;
    for (int kc = k0; kc < k1; kc += 4 * THIN_KC) {
        __syncthreads();
        for (int i = threadIdx.x; i < THIN * 4 * THIN_KC; i += THIN_THREADS) {
            int kk = i / THIN, j = i % THIN;
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
            for (int j = 0; j < THIN; j++) {
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
        for (int j = 0; j < THIN; j++) {
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
template <typename F>
static int resident(F *kernel, int threads)
{
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
                                                             threads, 0));
    return per_sm * sm_count();
}

static int split_for(int blocks, int threads, int resident, int k, int step)
{
    int steps = CEIL_DIV(k, step);
    int most = 4 * THIN_THREADS / threads * sm_count();  /* 1024 threads an SM */
    int splits = CEIL_DIV(min(resident, most), blocks);
    return splits < 1 ? 1 : splits > steps ? steps : splits;
}
template <typename T, int VEC, int R>
static void launch_thin_rows(int threads, int blocks, int splits,
                             int kslice, int m, int n, int k, float alpha, const T *a, int lda, const T *b,
                                         int ldb, float beta, float *c, int ldc)
{
    thin_rows<T, VEC, R><<<dim3(blocks, splits), threads>>>(m, n, k, kslice,
        alpha, a, lda, b, ldb, beta, c, ldc);
}

template <typename T, int VEC>
static void launch_thin(int m, int n, int k, float alpha, const T *a, int lda, const T *b,
                        int ldb, float beta, float *c, int ldc)
{
    enum { W = 16 / sizeof(T) };
    if (m <= n) {
        enum { RMAX = sizeof(T) == 4 ? THIN : 4 };   /* BF16: 4 rows */
        int r = m <= 1 ? 1 : m <= 4 ? 4 : (int)RMAX;
        int threads = min(4 * THIN_THREADS / W,
                          CEIL_DIV(CEIL_DIV(n, W), 32) * 32);
        int blocks = CEIL_DIV(m, r) * CEIL_DIV(n, W * threads);
        int res = r == 1 ? resident(thin_rows<T, VEC, 1>, threads)
                : r == 4 ? resident(thin_rows<T, VEC, 4>, threads)
                : resident(thin_rows<T, VEC, RMAX>, threads);
        int splits = split_for(blocks, threads, res, k, THIN_KC);
        int kslice = CEIL_DIV(CEIL_DIV(k, splits), THIN_KC) * THIN_KC;
        splits = CEIL_DIV(k, kslice);
        if (splits > 1)
            scale_c(m, n, beta, c, ldc);
        if (r == 1)
            launch_thin_rows<T, VEC, 1>(threads, blocks, splits, kslice,
                                        m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        else if (r == 4)
            launch_thin_rows<T, VEC, 4>(threads, blocks, splits, kslice,
                                        m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        else
            launch_thin_rows<T, VEC, RMAX>(threads, blocks, splits, kslice,
                                           m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        chose("thin rows: %d a block; %d blocks of %d threads; K split %d ways",
              r, blocks, threads, splits);
    } else {
        int blocks = CEIL_DIV(n, THIN) * CEIL_DIV(m, 4 * THIN_THREADS / 32);
        int splits = split_for(blocks, THIN_THREADS,
                               resident(thin_cols<T, VEC>, THIN_THREADS),
                               k, 4 * THIN_KC);
        int kslice = CEIL_DIV(CEIL_DIV(k, splits), 4 * THIN_KC) * 4 * THIN_KC;
        splits = CEIL_DIV(k, kslice);
        if (splits > 1)
            scale_c(m, n, beta, c, ldc);
        thin_cols<T, VEC><<<dim3(blocks, splits), THIN_THREADS>>>(
            m, n, k, kslice, alpha, a, lda, b, ldb, beta, c, ldc);
        chose("thin columns: %d blocks; K split %d ways", blocks, splits);
    }
    CUDA_CHECK(cudaGetLastError());
}

template <typename T>
static void run_thin(int m, int n, int k, float alpha, const T *a, int lda, const T *b,
                     int ldb, float beta, float *c, int ldc)
{
    const T *s = m <= n ? b : a;          /* the operand that streams */
    int ld = m <= n ? ldb : lda;
    if ((uintptr_t)s % 16 == 0 && ld * sizeof(T) % 16 == 0)
        launch_thin<T, 1>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        launch_thin<T, 0>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
enum { NARROW_KIND = 3, NARROW_COLS = 64 };   /* BF16, A's rows first */

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
        STAGES = 200 * 1024 / STAGE_BYTES,
        SMEM = STAGES * STAGE_BYTES + 1024          /* + alignment */
    };
};
enum { JOIN_RADIX = 4 };        /* slices a round of the join adds into one */

struct last_wave {
    int tiles;          /* how many tiles, the last ones, are split */
    int slice;          /* the steps of a slice */
    float *partials;    /* one tile of sums per block */
    int *flags;         /* per block: the launch whose sums are there */
    int epoch;          /* this launch */
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
}
enum { READ_COST = 2 };          /* stages per slice the first block reads */

struct wave_plan { int tiles, slice, blocks; long time; };

static int join_reads(int slices)   /* the first block's, all rounds */
{
    int reads = 0;
    for (int d = 1; d < slices; d *= JOIN_RADIX)
        reads += min(JOIN_RADIX - 1, CEIL_DIV(slices, d) - 1);
    return reads;
}

static struct wave_plan plan_waves(int tiles, int steps)
{
    int sms = sm_count(), rest = tiles % sms;
    struct wave_plan p = { 0, steps, min(tiles, sms),
                           (long)CEIL_DIV(tiles, sms) * steps };
    long best = steps * 9 / 10;                   /* save a tenth or more */
    for (int s = 2; rest && s * rest <= sms && s <= steps; s++) {
        int slice = CEIL_DIV(steps, s), slices = CEIL_DIV(steps, slice);
        long time = slice + READ_COST * join_reads(slices);
        if (time < best) {
            best = time;
            p.tiles = rest;
            p.slice = slice;
            p.blocks = tiles < sms ? rest * slices : sms;
        }
    }
    if (p.tiles)
        p.time += best - steps;
    return p;
}
static float *split_partials;
static int *split_flags, split_epoch, last_tiles, last_split, last_slices;

static void split_reserve(void)
{
    int sms = sm_count();
    if (split_partials)
        return;
    CUDA_CHECK(cudaMalloc((void **)&split_partials,
                          (size_t)sms * 256 * 128 * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&split_flags, sms * sizeof(int)));
    CUDA_CHECK(cudaMemset(split_flags, 0, sms * sizeof(int)));
}

static void split_release(void)
{
    if (split_partials) {
        CUDA_CHECK(cudaFree(split_partials));
        CUDA_CHECK(cudaFree(split_flags));
    }
    split_partials = NULL;
    split_flags = NULL;
}

template <int KIND, int TN, typename T>
static void launch_direct(int m, int n, int k, float alpha, const T *a,
                          int lda, const T *b, int ldb, float beta, float *c,
                          int ldc)
{
    typedef direct_shape<KIND, TN> S;
    static int ready;
    struct direct_maps maps;
    int tiles = CEIL_DIV(m, S::BM) * CEIL_DIV(n, S::BN), bf16 = S::SIZE == 2;
    int steps = CEIL_DIV(k, S::BK);
    struct wave_plan plan = plan_waves(tiles, steps);
    struct last_wave lw = { plan.tiles, plan.slice, NULL, NULL, 0 };
    if (lw.tiles) {
        split_reserve();
        lw.partials = split_partials;
        lw.flags = split_flags;
        lw.epoch = split_epoch = split_epoch % 0x7fffffff + 1;   /* never 0 */
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
    direct_gemm<KIND, TN><<<plan.blocks, 384, S::SMEM>>>(maps, m, n, k, alpha,
                                                     beta, c, ldc, lw);
    CUDA_CHECK(cudaGetLastError());
    last_tiles = tiles;
    last_split = lw.tiles;
    last_slices = CEIL_DIV(steps, lw.slice);
}

static int direct_rows(int m, int most)   /* the fewest rows that hold m */
{
    int tn = 16;
    while (tn < m && tn < most)
        tn *= 2;
    return tn;
}

static const int tall_rows[3] = { 256, 192, 128 };
static const int tall_cost[3] = { 14, 11, 8 };   /* eighths of a 128-row stage */

static int direct_tall(int m, int n, int steps)   /* which of tall_rows */
{
    int cols = CEIL_DIV(n, 128), best = 0;
    long least = 0;
    for (int i = 0; i < 3; i++) {
        long t = tall_cost[i] * plan_waves(CEIL_DIV(m, tall_rows[i]) * cols, steps).time;
        if (i == 0 || t < least) {
            best = i;
            least = t;
        }
    }
    return best;
}

template <int KIND, typename T>
static void direct_product(const char *what, int m, int n, int k,
                           float alpha, const T *a, int lda, const T *b,
                           int ldb, float beta, float *c, int ldc)
{
    int steps = CEIL_DIV(k, (direct_shape<KIND, 16>::BK));
    int narrow = KIND == NARROW_KIND;
    int tn = narrow ? direct_rows(n, NARROW_COLS)
           : KIND != X3_KIND && m > 128 ? tall_rows[direct_tall(m, n, steps)]
           : direct_rows(m, 128);
    if (tn == 16)
        launch_direct<KIND, 16>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (tn == 32)
        launch_direct<KIND, 32>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (tn == 64)
        launch_direct<KIND, 64>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if constexpr (KIND != NARROW_KIND) {
        if (tn == 128)
            launch_direct<KIND, 128>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        else if constexpr (KIND != X3_KIND) {
            if (tn == 192)
                launch_direct<KIND, 192>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
            else
                launch_direct<KIND, 256>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        }
    }
    if (last_split)
        chose("%d-%s tiles: %s; %d of %d tiles split %d ways", tn,
              narrow ? "column" : "row", what, last_split, last_tiles,
              last_slices);
    else
        chose("%d-%s tiles: %s", tn, narrow ? "column" : "row", what);
}
static int thin(int m, int n, int most)
{
    return m <= most || n <= most;
}

enum { SPLIT_SAVES = 16, X3_SHORT_K = 192, X3_FEW = 64 };

static int slices_for(int tiles, int per_sm, int steps, int floor)
{
    int splits = per_sm * sm_count() / tiles;   /* one wave of blocks */
    if (splits > steps / floor)
        splits = steps / floor;                 /* slices long enough */
    if (splits < 2)
        return 1;
    int slice = CEIL_DIV(steps, splits);
    return steps - slice >= SPLIT_SAVES ? CEIL_DIV(steps, slice) : 1;
}
enum { UNIT_BF16 = 10, UNIT_TF32 = 18 };

static int wave_slices(int m, int n, int steps, int tall, int cost)
{
    int sms = sm_count(), half = CEIL_DIV(m, 128) * CEIL_DIV(n, 128);
    int tiles = tall ? CEIL_DIV(m, 256) * CEIL_DIV(n, 128) : half;
    long whole = (long)CEIL_DIV(tiles, sms) * steps * (tall ? 7 : 4) / 4;
    long best = whole * 9 / 10;                /* save a tenth or more */
    int splits = 1;
    for (int s = 2; s <= steps / 8; s++) {
        int slice = CEIL_DIV(steps, s), units = half * CEIL_DIV(steps, slice);
        long time = (long)CEIL_DIV(units, sms) * (slice + cost);
        if (time < best) {
            best = time;
            splits = CEIL_DIV(steps, slice);
        }
    }
    return splits;
}
static char *pad_buf;
static size_t pad_len;

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

static int on_32_bytes(const void *x, int ld, int size)
{
    return (uintptr_t)x % 32 == 0 && (size_t)ld * size % 32 == 0;
}

static const void *aligned_copy(const void *x, int rows, int cols, int ld,
                                int size, size_t at, int *ld_to)
{
    dim3 grid(CEIL_DIV(cols, PAD_THREADS * PAD_UNROLL),
              rows < 65535 ? rows : 65535);
    *ld_to = padded(cols, size);
    if (size == 4)
        pad_rows<float><<<grid, PAD_THREADS>>>((float *)(pad_buf + at),
            *ld_to, (const float *)x, ld, rows, cols);
    else
        pad_rows<bf16_bits><<<grid, PAD_THREADS>>>((bf16_bits *)(pad_buf + at),
            *ld_to, (const bf16_bits *)x, ld, rows, cols);
    CUDA_CHECK(cudaGetLastError());
    return pad_buf + at;
}

static void pad_reserve(int m, int n, int k)
{
    size_t len = 4 * ((size_t)m * padded(k, 4) + (size_t)k * padded(n, 4));
    if (len > pad_len) {
        if (pad_buf)
            CUDA_CHECK(cudaFree(pad_buf));
        CUDA_CHECK(cudaMalloc((void **)&pad_buf, len));
        pad_len = len;
    }
}
enum { ALIGN_PAYS = 1000, RATE_WIDE = 98, RATE_STREAMK = 93,
       STREAMK_STEPS = 32 };

static int fp32_slices(int m, int n, int k)
{
    return slices_for(CEIL_DIV(m, 128) * CEIL_DIV(n, 64), 2,
                      CEIL_DIV(k, 16), 16);
}

enum { STREAM, WAVES, WAVES_SPLIT };

static int filled(int m, int n, int k, int bm, int bn, int how)
{
    int sms = sm_count(), tx = CEIL_DIV(n, bn), tiles = CEIL_DIV(m, bm) * tx;
    int last = tiles % sms, rows = CEIL_DIV(last, tx);   /* as run_waves */
    int splits = last ? sms / (rows * tx) : 1;
    long held = how == STREAM ? tiles : (long)CEIL_DIV(tiles, sms) * sms;
    if (splits > k / 256)
        splits = k / 256;
    if (how == WAVES_SPLIT && tiles >= sms && 2 * last <= sms && splits >= 2)
        held = (long)CEIL_DIV(tiles - rows * tx, sms) * sms + sms / splits;
    return (int)(100 * (long)m * n / (held * bm * bn));
}

static int streamk_pays(int m, int n, int k)
{
    return (long)CEIL_DIV(m, 128) * CEIL_DIV(n, 128) * CEIL_DIV(k, 16)
           >= (long)STREAMK_STEPS * sm_count();
}
extern "C" const struct chapter ch9sweep_program;
#define WIDE 128, 256, 8, 64, 64, 8, 16, 1

static gemm_fn *swept(const char *function)
{
    for (int i = 0; i < ch9sweep_program.nkernels; i++)
        if (strcmp(ch9sweep_program.kernels[i].function, function) == 0)
            return ch9sweep_program.kernels[i].run;
    fprintf(stderr, "ch14: chapter 9's sweep has no %s\n", function);
    exit(3);
}

void gemm_fp32(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc)
{
    static const char *const copied[4] = { "", "after an aligned copy of A; ",
        "after an aligned copy of B; ", "after aligned copies of A and B; " };
    if (thin(m, n, THIN)) {
        run_thin<float>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    int splits = fp32_slices(m, n, k);
    if (n <= 64 || (splits > 1 && !streamk_pays(m, n, k))) {
        run_split(splits, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    int large = filled(m, n, k, 256, 128, WAVES_SPLIT);
    int wide = filled(m, n, k, 128, 256, WAVES) * RATE_WIDE / 100;
    int stream = streamk_pays(m, n, k)
                 ? filled(m, n, k, 128, 128, STREAM) * RATE_STREAMK / 100 : 0;
    if (stream > large && stream >= wide) {
        swept(FUNCTION(sgemm_streamk<MIDDLE>))(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        chose("stream-K over 128x128x16 tiles");
        return;
    }
    int need_a = !tma_ok(a, lda, 4), need_b = !tma_ok(b, ldb, 4), copies = 0;
    if ((need_a || need_b) && (!need_a || n >= ALIGN_PAYS)
        && (!need_b || m >= ALIGN_PAYS)) {
        pad_reserve(m, n, k);
        if (need_a)
            a = (const float *)aligned_copy(a, m, k, lda, 4, 0, &lda);
        if (need_b)
            b = (const float *)aligned_copy(b, k, n, ldb, 4,
                                            (size_t)m * padded(k, 4) * 4, &ldb);
        copies = need_a + 2 * need_b;
    }
    if (wide > large) {
        swept(FUNCTION(sgemm_dbuf<WIDE>))(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        chose("%s128x256x8 tiles", copied[copies]);
    } else {
        run_tuned(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        chose("%stiles: chapter 9's tuned kernel", copied[copies]);
    }
}
template <typename T>
static void on_tensor_cores(const char *what, int bk, int tall, int cost,
                            void (*whole)(int, int, int, float, const T *,
                                          int, const T *, int, float,
                                          float *, int),
                            void (*split)(int, int, int, int, float,
                                          const T *, int, const T *, int,
                                          float *, int),
                            int m, int n, int k, float alpha, const T *a,
                            int lda, const T *b, int ldb, float beta,
                            float *c, int ldc)
{
    int splits = slices_for(CEIL_DIV(m, 128) * CEIL_DIV(n, 128), 1,
                            CEIL_DIV(k, bk), 8);
    if (splits == 1)
        splits = wave_slices(m, n, CEIL_DIV(k, bk), tall, cost);
    if (splits > 1) {
        scale_c(m, n, beta, c, ldc);
        split(splits, m, n, k, alpha, a, lda, b, ldb, c, ldc);
        chose("half tiles: %s; K split %d ways", what, splits);
    } else {
        whole(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        chose("tiles: %s", what);
    }
}
enum { PASSES_PAY = 3000 };
static int always_direct;                       /* the program's -direct entries */

static int without_passes(int m, int n)
{
    return always_direct || (long)PASSES_PAY * (m + n) >= (long)m * n;
}

void gemm_tf32(int m, int n, int k, float alpha,
               const float *a, int lda, const float *b, int ldb,
               float beta, float *c, int ldc)
{
    if (m == 1 || n <= THIN) {
        run_thin<float>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    if (tma_ok(a, lda, 4) && tma_ok(b, ldb, 4) && without_passes(m, n)) {
        direct_product<TF32_KIND>("TF32 without passes", m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    gemm_reserve(m, n, k, NULL);
    on_tensor_cores<float>("chapter 12's TF32 product", 32, 1, UNIT_TF32,
                           hopper_tf32, hopper_tf32_split, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void gemm_3xtf32(int m, int n, int k, float alpha,
                 const float *a, int lda, const float *b, int ldb,
                 float beta, float *c, int ldc)
{
    if (k < X3_SHORT_K || thin(m, n, THIN) || n <= X3_FEW) {
        gemm_fp32(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    gemm_reserve(m, n, k, NULL);
    int copy = !tma_ok(b, ldb, 4);
    if (copy)
        b = (const float *)aligned_copy(b, k, n, ldb, 4, 0, &ldb);
    direct_product<X3_KIND>(copy ? "3xTF32 with a pass over A and an aligned copy of B"
                                 : "3xTF32 with a pass over A alone",
                            m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
enum { BF16_FEW_ROWS = 128, BF16_SHORT_K = 32, DIRECT_EPILOGUE = 3,
       A_COPY_PAYS = 1500 };

static int bf16_direct(int m, int n, int k, const float *c, int ldc)
{
    int steps = CEIL_DIV(k, 64), sms = sm_count(), cols = CEIL_DIV(n, 128);
    int tall = hopper_tall(m, n), tiles = CEIL_DIV(m, tall ? 256 : 128) * cols;
    int dtall = m > 128 ? direct_tall(m, n, steps) : 2;
    int dtiles = CEIL_DIV(m, tall_rows[dtall]) * cols;
    int half = CEIL_DIV(m, 128) * cols, hs = slices_for(half, 1, steps, 8);
    long hopper = hs > 1
        ? (long)CEIL_DIV(half * hs, sms) * (CEIL_DIV(steps, hs) + UNIT_BF16) * 8
        : (long)CEIL_DIV(tiles, sms) * steps * (tall ? 14 : 8);
    long direct = (plan_waves(dtiles, steps).time
                   + DIRECT_EPILOGUE * CEIL_DIV(dtiles, sms)) * tall_cost[dtall];
    return always_direct || m <= BF16_FEW_ROWS || !tma_ok(c, ldc, 4)
           || (steps >= BF16_SHORT_K && direct < hopper);
}

void gemm_bf16(int m, int n, int k, float alpha, const bf16_bits *a,
               int lda, const bf16_bits *b, int ldb, float beta, float *c,
               int ldc)
{
    static const char *const what[3][3] = {
        { "chapter 12's BF16 product",
          "chapter 12's BF16 product after 1 aligned copy",
          "chapter 12's BF16 product after 2 aligned copies" },
        { "BF16 as C^T = B^T A^T",
          "BF16 as C^T = B^T A^T after 1 aligned copy",
          "BF16 as C^T = B^T A^T after 2 aligned copies" },
        { "BF16 as C = AB",
          "BF16 as C = AB after 1 aligned copy",
          "BF16 as C = AB after 2 aligned copies" } };
    if (n <= 4) {
        run_thin<bf16_bits>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    int copy_a = !tma_ok(a, lda, 2) || (!on_32_bytes(a, lda, 2) && n >= A_COPY_PAYS);
    int copies = copy_a + !tma_ok(b, ldb, 2);
    if (copies)
        gemm_reserve(m, n, k, NULL);
    if (copy_a)
        a = (const bf16_bits *)aligned_copy(a, m, k, lda, 2, 0, &lda);
    if (!tma_ok(b, ldb, 2))
        b = (const bf16_bits *)aligned_copy(b, k, n, ldb, 2,
                                            (size_t)m * padded(k, 2) * 2, &ldb);
    if (!always_direct && n < m && (n <= NARROW_COLS
                                    || (n <= 2 * NARROW_COLS
                                        && CEIL_DIV(k, 64) >= BF16_SHORT_K)))
        direct_product<NARROW_KIND>(what[2][copies], m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (bf16_direct(m, n, k, c, ldc))
        direct_product<BF16_KIND>(what[1][copies], m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        on_tensor_cores<bf16_bits>(what[0][copies], 64, hopper_tall(m, n),
                                   UNIT_BF16, hopper_bf16, hopper_bf16_split,
                                   m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
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
    if (pad_buf)
        CUDA_CHECK(cudaFree(pad_buf));
    pad_buf = NULL;
    pad_len = 0;
}

static void fp32_split(int m, int n, int k, float alpha,
                       const float *a, int lda, const float *b, int ldb,
                       float beta, float *c, int ldc)
{
    run_split(fp32_slices(m, n, k), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
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

static void bf16_direct_entry(int m, int n, int k, float alpha,
                              const bf16_bits *a, int lda, const bf16_bits *b,
                              int ldb, float beta, float *c, int ldc)
{
    always_direct = 1;
    gemm_bf16(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    always_direct = 0;
}

static void tf32_direct_entry(int m, int n, int k, float alpha,
                              const float *a, int lda, const float *b, int ldb,
                              float beta, float *c, int ldc)
{
    always_direct = 1;
    gemm_tf32(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    always_direct = 0;
}

static const struct kernel kernels[] = {
    { .name = "fp32", .what = "the FP32 dispatcher (CUDA cores)",
      .function = FUNCTION(sgemm_dbuf<LARGE>), .run = gemm_fp32,
      .setup = setup_fp32, .teardown = gemm_release },
    { .name = "fp32-tiles", .what = "chapter 9's tuned kernel alone",
      .function = FUNCTION(sgemm_dbuf<LARGE>), .run = run_tuned },
    { .name = "fp32-thin", .what = "the thin kernels alone, FP32",
      .function = "thin_rows<float, 1, 16>",
      .run = run_thin<float> },
    { .name = "fp32-split", .what = "chapter 9's split alone, by the rule",
      .function = FUNCTION(sgemm_dbuf<SMALL>), .run = fp32_split },
    { .name = "tf32", .what = "the TF32 dispatcher",
      .function = "direct_gemm<1, 256>",
      .precision = TF32, .run = gemm_tf32,
      .setup = gemm_reserve, .teardown = gemm_release },
    { .name = "tf32-tiles", .what = "chapter 12's TF32 product alone",
      .function = "hopper_gemm<1, 1, 2, 0>",
      .precision = TF32, .run = hopper_tf32,
      .setup = hopper_reserve, .teardown = hopper_release },
    { .name = "tf32-direct",
      .what = "the TF32 dispatcher, without passes wherever the rows allow",
      .function = "direct_gemm<1, 256>",
      .precision = TF32, .run = tf32_direct_entry,
      .setup = gemm_reserve, .teardown = gemm_release },
    { .name = "3xtf32", .what = "the 3xTF32 dispatcher",
      .function = "direct_gemm<2, 128>",
      .precision = FP32_3XTF32, .run = gemm_3xtf32,
      .setup = setup_3xtf32, .teardown = gemm_release },
    { .name = "3xtf32-tiles", .what = "chapter 12's 3xTF32 product alone",
      .function = "hopper_gemm<2, 1, 1, 0>",
      .precision = FP32_3XTF32, .run = hopper_3xtf32,
      .setup = hopper_reserve, .teardown = hopper_release },
    { .name = "bf16", .what = "the BF16 dispatcher",
      .function = "hopper_gemm<0, 1, 2, 0>",
      .precision = BF16, .run_bf16 = gemm_bf16,
      .setup = setup_bf16, .teardown = gemm_release },
    { .name = "bf16-direct",
      .what = "the BF16 dispatcher, C^T = B^T A^T at every shape",
      .function = "direct_gemm<0, 128>",
      .precision = BF16, .run_bf16 = bf16_direct_entry,
      .setup = setup_bf16, .teardown = gemm_release },
    { .name = "bf16-tiles",
      .what = "chapter 12's BF16 product alone (chapter 10's if unaligned)",
      .function = "hopper_gemm<0, 1, 2, 0>",
      .precision = BF16, .run_bf16 = hopper_bf16,
      .setup = convert_to_bf16 },
    { .name = "cublas-fp32", .what = "cuBLAS FP32, for its error",
      .run = cublas_sgemm },
};

extern "C" const struct chapter ch14_program = {
    .title = "every shape, one entry point per precision",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};
