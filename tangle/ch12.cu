/* ch12.cu: the Hopper way, TMA and wgmma. */
#include <stdio.h>
#include <stdlib.h>
#include "hopper.h"

struct hopper_maps { CUtensorMap a[2], b[2], c; };

template <int KIND, int CLUSTER, int M64, int ST>
__global__ void __launch_bounds__(384, 1)
hopper_gemm(const __grid_constant__ struct hopper_maps maps, int m, int n,
            int k, float alpha, float beta, float *c_, int ldc, int group,
            int store, int slice)
{
    typedef hopper_shape<KIND, M64, ST> S;
    extern __shared__ __align__(1024) char smem_raw[];
    __shared__ __align__(8) uint64_t full[S::STAGES], empty[S::STAGES];
    char *stages = (char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    int wg = threadIdx.x / 128, steps = CEIL_DIV(k, S::BK);
    int rank = CLUSTER == 1 ? 0 : cluster_rank();
    int tiles_m = CEIL_DIV(m, S::BM), tiles_n = CEIL_DIV(n, CLUSTER * S::BN);
    int tiles = tiles_m * tiles_n, slices = CEIL_DIV(steps, slice);
    int units = tiles * slices;
    if (threadIdx.x == 0) {
        for (int s = 0; s < S::STAGES; s++) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], 2 * CLUSTER);
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    if (CLUSTER == 1)
        __syncthreads();
    else
        cluster_sync();
    if (wg == 0) {
        regs_down<40>();
        if (threadIdx.x == 0)
            for (int unit = blockIdx.x / CLUSTER, it = 0; unit < units;
                 unit += gridDim.x / CLUSTER) {
                int tile = unit % tiles, first = unit / tiles * slice;
                int last = min(first + slice, steps);
                int tiles_in_group = group * tiles_n;
                int first_row = tile / tiles_in_group * group;
                int rows_here = min(tiles_m - first_row, group);
                int row0 = (first_row + tile % tiles_in_group % rows_here) * S::BM;
                int col0 = (tile % tiles_in_group / rows_here * CLUSTER + rank) * S::BN;
                for (int step = first; step < last; step++, it++) {
                    int s = it % S::STAGES;
                    char *st = stages + s * S::STAGE_BYTES;
                    if (it >= S::STAGES)
                        mbar_wait(&empty[s], (it / S::STAGES - 1) & 1);
                    mbar_expect_bytes(&full[s], S::STAGE_BYTES);
                    for (int op = 0; op < S::OPS; op++) {
                        char *at = st + op * S::A_BYTES;
                        char *bt = st + S::OPS * S::A_BYTES + op * S::B_BYTES;
                        if (CLUSTER == 1) {
                            tma_load(at, &maps.a[op], &full[s], step * S::BK, row0);
                        } else {
                            tma_load_multicast(at + rank * (S::A_BYTES / CLUSTER), &maps.a[op],
                                               &full[s], step * S::BK, row0 + rank * (S::BM / CLUSTER),
                                               (1 << CLUSTER) - 1);
                        }
                        if (KIND == BF16_KIND) {
                            tma_load(bt, &maps.b[op], &full[s], col0, step * S::BK);
                            tma_load(bt + S::B_BYTES / 2, &maps.b[op], &full[s], col0 + 64,
                                     step * S::BK);
                        } else {
                            tma_load(bt, &maps.b[op], &full[s], step * S::BK, col0);
                        }
                    }
                }
            }
    } else {
        regs_up<232>();
        int c = wg - 1;
        float acc[S::MI][64], fresh[64];
        for (int unit = blockIdx.x / CLUSTER, it = 0; unit < units;
             unit += gridDim.x / CLUSTER) {
            int tile = unit % tiles, first = unit / tiles * slice;
            int last = min(first + slice, steps);
            int tiles_in_group = group * tiles_n;
            int first_row = tile / tiles_in_group * group;
            int rows_here = min(tiles_m - first_row, group);
            int row0 = (first_row + tile % tiles_in_group % rows_here) * S::BM;
            int col0 = (tile % tiles_in_group / rows_here * CLUSTER + rank) * S::BN;
            #pragma unroll
            for (int i = 0; i < 64; i++) {
                #pragma unroll
                for (int mi = 0; mi < S::MI; mi++)
                    acc[mi][i] = 0.0f;
                fresh[i] = 0.0f;
            }
            for (int step = first; step < last; step++, it++) {
                int s = it % S::STAGES;
                char *st = stages + s * S::STAGE_BYTES;
                mbar_wait(&full[s], (it / S::STAGES) & 1);
                wgmma_fence();
                #pragma unroll
                for (int kk = 0; kk < 4; kk++)
                    #pragma unroll
                    for (int mi = 0; mi < S::MI; mi++)
                        if (KIND == X3_KIND) {
                            uint64_t big_a, big_b, small_a, small_b;
                            {
                                int op = 0;
                                char *at = st + op * S::A_BYTES + (c * S::MI + mi) * 64 * 128 + kk * 32;
                                char *bt = st + S::OPS * S::A_BYTES + op * S::B_BYTES;
                                uint64_t da = wgmma_desc(at, 0, 1024);
                                uint64_t db = KIND == BF16_KIND
                                    ? wgmma_desc(bt + kk * 2048, S::B_BYTES / 2, 1024)
                                    : wgmma_desc(bt + kk * 32, 0, 1024);
                                big_a = da;
                                big_b = db;
                            }
                            {
                                int op = 1;
                                char *at = st + op * S::A_BYTES + (c * S::MI + mi) * 64 * 128 + kk * 32;
                                char *bt = st + S::OPS * S::A_BYTES + op * S::B_BYTES;
                                uint64_t da = wgmma_desc(at, 0, 1024);
                                uint64_t db = KIND == BF16_KIND
                                    ? wgmma_desc(bt + kk * 2048, S::B_BYTES / 2, 1024)
                                    : wgmma_desc(bt + kk * 32, 0, 1024);
                                small_a = da;
                                small_b = db;
                            }
                            wgmma_tf32(fresh, small_a, big_b);
                            wgmma_tf32(fresh, big_a, small_b);
                            wgmma_tf32(fresh, big_a, big_b);
                        } else {
                            int op = 0;
                            char *at = st + op * S::A_BYTES + (c * S::MI + mi) * 64 * 128 + kk * 32;
                            char *bt = st + S::OPS * S::A_BYTES + op * S::B_BYTES;
                            uint64_t da = wgmma_desc(at, 0, 1024);
                            uint64_t db = KIND == BF16_KIND
                                ? wgmma_desc(bt + kk * 2048, S::B_BYTES / 2, 1024)
                                : wgmma_desc(bt + kk * 32, 0, 1024);
                            if (KIND == BF16_KIND)
                                wgmma_bf16<1>(acc[mi], da, db);
                            else
                                wgmma_tf32(acc[mi], da, db);
                        }
                wgmma_commit();
                if (KIND == X3_KIND) {
                    wgmma_wait<0>();
                    #pragma unroll
                    for (int i = 0; i < 64; i++) {
                        acc[0][i] += fresh[i];
                        fresh[i] = 0.0f;
                    }
                } else {
                    wgmma_wait<1>();
                }
                if (step > first && threadIdx.x % 128 == 0)
                    {
                        int done = (it - 1) % S::STAGES;
                        if (CLUSTER == 1)
                            mbar_arrive(&empty[done]);
                        else
                            for (int r = 0; r < CLUSTER; r++)
                                mbar_arrive_remote(&empty[done], r);
                    }
            }
            wgmma_wait<0>();
            if (threadIdx.x % 128 == 0)
                {
                    int done = (it - 1) % S::STAGES;
                    if (CLUSTER == 1)
                        mbar_arrive(&empty[done]);
                    else
                        for (int r = 0; r < CLUSTER; r++)
                            mbar_arrive_remote(&empty[done], r);
                }
            if (store) {
                int w = threadIdx.x % 128 / 32, lane = threadIdx.x % 32;
                char *boxes = stages + S::STAGES * S::STAGE_BYTES + c * S::OUT_BYTES;
                #pragma unroll
                for (int mi = 0; mi < S::MI; mi++)
                    #pragma unroll
                    for (int j = 0; j < 4; j++) {
                        char *box = boxes + (mi * 4 + j) % 2 * (S::OUT_BYTES / 2);
                        int y = row0 + (c * S::MI + mi) * 64, x0 = col0 + 32 * j;
                        if (threadIdx.x % 128 == 0)
                            bulk_wait_read<1>();
                        warpgroup_sync(1 + c);
                        #pragma unroll
                        for (int i = 16 * j; i < 16 * j + 16; i += 2) {
                            int r = 16 * w + lane / 4 + 8 * (i % 4 / 2);
                            int x = 8 * (i / 4 % 4) + 2 * (lane % 4);
                            float2 v = make_float2(alpha * acc[mi][i], alpha * acc[mi][i + 1]);
                            if (beta != 0.0f && y + r < m) {
                                const float *old = &c_[(size_t)(y + r) * ldc + x0 + x];
                                if (x0 + x < n)
                                    v.x += beta * old[0];
                                if (x0 + x + 1 < n)
                                    v.y += beta * old[1];
                            }
                            *(float2 *)(box + r * 128 + (x / 4 ^ r % 8) * 16 + x % 4 * 4) = v;
                        }
                        smem_to_async_proxy();
                        warpgroup_sync(1 + c);
                        if (threadIdx.x % 128 == 0) {
                            tma_store(&maps.c, box, x0, y);
                            bulk_commit();
                        }
                    }
            } else {
                {
                    int w = threadIdx.x % 128 / 32, lane = threadIdx.x % 32;
                    int pairs = ldc % 2 == 0 && (uintptr_t)c_ % 8 == 0;
                    #pragma unroll
                    for (int mi = 0; mi < S::MI; mi++)
                        #pragma unroll
                        for (int i = 0; i < 64; i += 2) {
                            int row = row0 + (c * S::MI + mi) * 64 + 16 * w + lane / 4
                                      + 8 * (i % 4 / 2);
                            int col = col0 + 8 * (i / 4) + 2 * (lane % 4);
                            float *cij = &c_[(size_t)row * ldc + col];
                            float2 v = make_float2(alpha * acc[mi][i], alpha * acc[mi][i + 1]);
                            if (slices > 1) {
                                if (row < m && col + 1 < n && pairs) {
                                    atomicAdd((float2 *)cij, v);
                                } else if (row < m && col < n) {
                                    atomicAdd(cij, v.x);
                                    if (col + 1 < n)
                                        atomicAdd(cij + 1, v.y);
                                }
                            } else if (row < m && col + 1 < n && pairs) {
                                if (beta != 0.0f) {
                                    float2 old = *(float2 *)cij;
                                    v.x += beta * old.x;
                                    v.y += beta * old.y;
                                }
                                *(float2 *)cij = v;
                            } else if (row < m && col < n) {
                                cij[0] = beta == 0.0f ? v.x : v.x + beta * cij[0];
                                if (col + 1 < n)
                                    cij[1] = beta == 0.0f ? v.y : v.y + beta * cij[1];
                            }
                        }
                }
            }
        }
        if (store && threadIdx.x % 128 == 0)
            bulk_wait_read<0>();
    }
    if (CLUSTER > 1)
        cluster_sync();
}

template <int ST>
struct one_shape {
    enum {
        OPS = 1, MI = 1,                      /* one operand pair, one m64 tile */
        BM = 64, BN = 128, BK = 64,
        A_BYTES = BM * 128, B_BYTES = BN * 128,
        STAGE_BYTES = A_BYTES + B_BYTES,
        STAGES = ST, SMEM = ST * STAGE_BYTES + 1024   /* + alignment */
    };
};

template <int ST>
__global__ void __launch_bounds__(128)
hopper_one(const __grid_constant__ CUtensorMap map_a,
           const __grid_constant__ CUtensorMap map_b, int m, int n, int k,
           float alpha, float beta, float *c_, int ldc)
{
    typedef one_shape<ST> S;
    enum { KIND = BF16_KIND };
    const int c = 0, slices = 1;
    extern __shared__ __align__(1024) char smem_raw[];
    __shared__ __align__(8) uint64_t full[S::STAGES];
    char *stages = (char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    int steps = CEIL_DIV(k, S::BK), tiles_n = CEIL_DIV(n, S::BN);
    int row0 = blockIdx.x / tiles_n * S::BM, col0 = blockIdx.x % tiles_n * S::BN;
    float acc[1][64];
    if (threadIdx.x == 0) {
        for (int s = 0; s < S::STAGES; s++)
            mbar_init(&full[s], 1);
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
        for (int j = 0; j < min(steps, (int)S::STAGES); j++)
            {
                char *st = stages + j % S::STAGES * S::STAGE_BYTES;
                uint64_t *bar = &full[j % S::STAGES];
                mbar_expect_bytes(bar, S::STAGE_BYTES);
                tma_load(st, &map_a, bar, j * S::BK, row0);
                tma_load(st + S::A_BYTES, &map_b, bar, col0, j * S::BK);
                tma_load(st + S::A_BYTES + S::B_BYTES / 2, &map_b, bar, col0 + 64,
                         j * S::BK);
            }
    }
    __syncthreads();
    #pragma unroll
    for (int i = 0; i < 64; i++)
        acc[0][i] = 0.0f;
    for (int step = 0; step < steps; step++) {
        char *st = stages + step % S::STAGES * S::STAGE_BYTES;
        mbar_wait(&full[step % S::STAGES], (step / S::STAGES) & 1);
        wgmma_fence();
        #pragma unroll
        for (int kk = 0; kk < 4; kk++)
            for (int mi = 0; mi < S::MI; mi++) {
                int op = 0;
                char *at = st + op * S::A_BYTES + (c * S::MI + mi) * 64 * 128 + kk * 32;
                char *bt = st + S::OPS * S::A_BYTES + op * S::B_BYTES;
                uint64_t da = wgmma_desc(at, 0, 1024);
                uint64_t db = KIND == BF16_KIND
                    ? wgmma_desc(bt + kk * 2048, S::B_BYTES / 2, 1024)
                    : wgmma_desc(bt + kk * 32, 0, 1024);
                wgmma_bf16<1>(acc[mi], da, db);
            }
        wgmma_commit();
        wgmma_wait<0>();
        __syncthreads();                  /* no wgmma reads the stage now */
        if (threadIdx.x == 0 && step + S::STAGES < steps) {
            int j = step + S::STAGES;
            {
                char *st = stages + j % S::STAGES * S::STAGE_BYTES;
                uint64_t *bar = &full[j % S::STAGES];
                mbar_expect_bytes(bar, S::STAGE_BYTES);
                tma_load(st, &map_a, bar, j * S::BK, row0);
                tma_load(st + S::A_BYTES, &map_b, bar, col0, j * S::BK);
                tma_load(st + S::A_BYTES + S::B_BYTES / 2, &map_b, bar, col0 + 64,
                         j * S::BK);
            }
        }
    }
    {
        int w = threadIdx.x % 128 / 32, lane = threadIdx.x % 32;
        int pairs = ldc % 2 == 0 && (uintptr_t)c_ % 8 == 0;
        #pragma unroll
        for (int mi = 0; mi < S::MI; mi++)
            #pragma unroll
            for (int i = 0; i < 64; i += 2) {
                int row = row0 + (c * S::MI + mi) * 64 + 16 * w + lane / 4
                          + 8 * (i % 4 / 2);
                int col = col0 + 8 * (i / 4) + 2 * (lane % 4);
                float *cij = &c_[(size_t)row * ldc + col];
                float2 v = make_float2(alpha * acc[mi][i], alpha * acc[mi][i + 1]);
                if (slices > 1) {
                    if (row < m && col + 1 < n && pairs) {
                        atomicAdd((float2 *)cij, v);
                    } else if (row < m && col < n) {
                        atomicAdd(cij, v.x);
                        if (col + 1 < n)
                            atomicAdd(cij + 1, v.y);
                    }
                } else if (row < m && col + 1 < n && pairs) {
                    if (beta != 0.0f) {
                        float2 old = *(float2 *)cij;
                        v.x += beta * old.x;
                        v.y += beta * old.y;
                    }
                    *(float2 *)cij = v;
                } else if (row < m && col < n) {
                    cij[0] = beta == 0.0f ? v.x : v.x + beta * cij[0];
                    if (col + 1 < n)
                        cij[1] = beta == 0.0f ? v.y : v.y + beta * cij[1];
                }
            }
    }
}

void tensor_map(CUtensorMap *map, const void *x, int bf16, int rows,
                int cols, int ld, int box_rows, int box_cols)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode;
    int size = bf16 ? 2 : 4;
    cuuint64_t dims[2] = { (cuuint64_t)cols, (cuuint64_t)rows };
    cuuint64_t strides[1] = { (cuuint64_t)ld * size };
    cuuint32_t box[2] = { (cuuint32_t)box_cols, (cuuint32_t)box_rows };
    cuuint32_t unit[2] = { 1, 1 };
    if (!encode) {
        enum cudaDriverEntryPointQueryResult found;
        CUDA_CHECK(cudaGetDriverEntryPointByVersion(
            "cuTensorMapEncodeTiled", (void **)&encode, 12000,
            cudaEnableDefault, &found));
        if (found != cudaDriverEntryPointSuccess)
            cannot_run("the driver has no cuTensorMapEncodeTiled");
    }
    CUresult r = encode(map, bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                  : CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                        2, (void *)x, dims, strides, box, unit,
                        CU_TENSOR_MAP_INTERLEAVE_NONE,
                        CU_TENSOR_MAP_SWIZZLE_128B,
                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)       /* a map the driver refuses: a failed call */
        check_cuda(cudaErrorInvalidValue, "cuTensorMapEncodeTiled",
                   __FILE__, __LINE__);
}

int tma_ok(const void *x, int ld, int size)
{
    return (uintptr_t)x % 16 == 0 && (size_t)ld * size % 16 == 0;
}

__device__ __forceinline__ void split_value(float v, float *big, float *small)
{
    *big = tf32_rounded(v);
    *small = tf32_rounded(v - *big);
}

__global__ void split_rows(const float *a, int lda, float *big, float *small,
                           int ld, int m, int k)
{
    int row = blockIdx.x, col = (blockIdx.y * blockDim.x + threadIdx.x) * 4;
    if (row >= m || col >= ld)
        return;
    const float *x = a + (size_t)row * lda + col;
    float v[4], hi[4], lo[4];
    if (col + 4 <= k && (uintptr_t)x % 16 == 0) {
        float4 q = *(const float4 *)x;
        v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
    } else {
        for (int e = 0; e < 4; e++)
            v[e] = col + e < k ? x[e] : 0.0f;
    }
    for (int e = 0; e < 4; e++)
        split_value(v[e], &hi[e], &lo[e]);
    size_t at = (size_t)row * ld + col;
    *(float4 *)&big[at] = make_float4(hi[0], hi[1], hi[2], hi[3]);
    if (small)
        *(float4 *)&small[at] = make_float4(lo[0], lo[1], lo[2], lo[3]);
}

__global__ void split_transposed(const float *b, int ldb, float *big,
                                 float *small, int ld, int k, int n)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < n && y + j < k)
            tile[threadIdx.y + j][threadIdx.x] = b[(size_t)(y + j) * ldb + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < ld && y + j < n) {
            float v = x < k ? tile[threadIdx.x][threadIdx.y + j] : 0.0f, hi, lo;
            split_value(v, &hi, &lo);
            big[(size_t)(y + j) * ld + x] = hi;
            if (small)
                small[(size_t)(y + j) * ld + x] = lo;
        }
}
static struct pass_set own_passes, *passes_now = &own_passes;

void use_passes(struct pass_set *set)
{
    passes_now = set ? set : &own_passes;
}

static void free_passes(void)
{
    float *old = passes_now->buf;
    passes_now->buf = NULL;       /* nothing held if the free fails */
    passes_now->len = 0;
    if (old)
        CUDA_CHECK(cudaFree(old));
}

static void reserve_passes(int m, int n, int k, const struct operands *set)
{
    size_t floats = 2 * ((size_t)m + n) * (CEIL_DIV(k, 4) * 4);
    (void)set;
    if (floats > passes_now->len) {
        free_passes();            /* nothing held if the allocation fails */
        CUDA_CHECK(cudaMalloc((void **)&passes_now->buf, floats * sizeof(float)));
        passes_now->len = floats;
    }
}

enum { BLOCK_PER_TILE = 0, PERSISTENT = 1 };   /* PERSIST: the grid */
enum { STORE_DIRECT = 0, STORE_BY_TMA = 1 };   /* STORE: the epilogue */

template <int KIND, int PERSIST, int GROUP, int M64, int STORE, int ST = 0>
static void launch_hopper(struct hopper_maps *maps, int splits, int m,
                          int n, int k, float alpha, float beta, float *c,
                          int ldc)
{
    typedef hopper_shape<KIND, M64, ST> S;
    static int ready;
    int tiles = CEIL_DIV(m, S::BM) * CEIL_DIV(n, S::BN);
    int steps = CEIL_DIV(k, S::BK), slice = CEIL_DIV(steps, splits);
    int units = tiles * CEIL_DIV(steps, slice);
    int store = STORE && tma_ok(c, ldc, 4) && n % 4 == 0;
    if (store)
        tensor_map(&maps->c, c, 0, m, n, ldc, 64, 32);
    if (!ready) {
        CUDA_CHECK(cudaFuncSetAttribute(hopper_gemm<KIND, 1, M64, ST>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)S::SMEM));
        ready = 1;
    }
    int grid = PERSIST ? min(units, sm_count()) : units;
    hopper_gemm<KIND, 1, M64, ST><<<grid, 384, S::SMEM>>>(*maps, m, n, k, alpha,
                                                      beta, c, ldc, GROUP,
                                                      store, slice);
    CUDA_CHECK(cudaGetLastError());
}

template <int PERSIST, int GROUP, int M64, int STORE, int ST = 0>
static void slices_bf16(int splits, int m, int n, int k, float alpha,
                        const bf16_bits *a, int lda, const bf16_bits *b,
                        int ldb, float beta, float *c, int ldc)
{
    struct hopper_maps maps;
    if (!tma_ok(a, lda, 2) || !tma_ok(b, ldb, 2)) {
        run_bf16(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    tensor_map(&maps.a[0], a, 1, m, k, lda, 128 * M64, 64);
    tensor_map(&maps.b[0], b, 1, k, n, ldb, 64, 64);
    launch_hopper<BF16_KIND, PERSIST, GROUP, M64, STORE, ST>(&maps, splits, m,
                                                            n, k, alpha, beta,
                                                            c, ldc);
}

template <int PERSIST, int GROUP, int M64, int STORE, int ST = 0>
static void run_hopper_bf16(int m, int n, int k, float alpha,
                            const bf16_bits *a, int lda, const bf16_bits *b,
                            int ldb, float beta, float *c, int ldc)
{
    slices_bf16<PERSIST, GROUP, M64, STORE, ST>(1, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

int hopper_tall(int m, int n)
{
    return CEIL_DIV(m, 256) * CEIL_DIV(n, 128) > sm_count() / 2;
}

template <int STORE>
static void run_hopper(int m, int n, int k, float alpha, const bf16_bits *a,
                       int lda, const bf16_bits *b, int ldb, float beta,
                       float *c, int ldc)
{
    if (hopper_tall(m, n))
        run_hopper_bf16<PERSISTENT, 8, 2, STORE>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        run_hopper_bf16<PERSISTENT, 8, 1, STORE>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <int KIND, int M64, int STORE>
static void slices_tf32(int splits, int m, int n, int k, float alpha,
                                    const float *a, int lda, const float *b, int ldb,
                                    float beta, float *c, int ldc)
{
    typedef hopper_shape<KIND, M64> S;
    struct hopper_maps maps;
    int ld = CEIL_DIV(k, 4) * 4, x3 = KIND == X3_KIND;
    float *ab = passes_now->buf, *as = ab + (size_t)m * ld;
    float *bb = as + (size_t)m * ld, *bs = bb + (size_t)n * ld;
    split_rows<<<dim3(m, CEIL_DIV(ld / 4, 128)), 128>>>(a, lda, ab,
                                                       x3 ? as : NULL, ld, m, k);
    CUDA_CHECK(cudaGetLastError());
    split_transposed<<<dim3(CEIL_DIV(n, 32), CEIL_DIV(k, 32)), dim3(32, 8)>>>(
        b, ldb, bb, x3 ? bs : NULL, ld, k, n);
    CUDA_CHECK(cudaGetLastError());
    tensor_map(&maps.a[0], ab, 0, m, k, ld, S::BM, 32);
    tensor_map(&maps.b[0], bb, 0, n, k, ld, S::BN, 32);
    if (x3) {
        tensor_map(&maps.a[1], as, 0, m, k, ld, S::BM, 32);
        tensor_map(&maps.b[1], bs, 0, n, k, ld, S::BN, 32);
    }
    launch_hopper<KIND, PERSISTENT, 8, M64, STORE>(&maps, splits, m, n, k,
                                                 alpha, beta, c, ldc);
}

template <int KIND>
static void run_hopper_tf32(int m, int n, int k, float alpha,
                            const float *a, int lda, const float *b, int ldb,
                            float beta, float *c, int ldc)
{
    slices_tf32<KIND, hopper_shape<KIND>::MI, STORE_BY_TMA>(1, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
template <int CLUSTER, int STORE>
static void launch_hopper_clusters(struct hopper_maps *maps, int m, int n,
                                   int k, float alpha, float beta, float *c,
                                   int ldc)
{
    typedef hopper_shape<BF16_KIND> S;
    static int most;
    int tiles = CEIL_DIV(m, S::BM) * CEIL_DIV(n, CLUSTER * S::BN);
    int store = STORE && tma_ok(c, ldc, 4) && n % 4 == 0;
    if (store)
        tensor_map(&maps->c, c, 0, m, n, ldc, 64, 32);
    cudaLaunchConfig_t cfg = { 0 };
    cudaLaunchAttribute dims;
    dims.id = cudaLaunchAttributeClusterDimension;
    dims.val.clusterDim.x = CLUSTER;
    dims.val.clusterDim.y = 1;
    dims.val.clusterDim.z = 1;
    cfg.gridDim = dim3(CLUSTER);
    cfg.blockDim = dim3(384);
    cfg.dynamicSmemBytes = S::SMEM;
    cfg.attrs = &dims;
    cfg.numAttrs = 1;
    if (!most) {
        CUDA_CHECK(cudaFuncSetAttribute(hopper_gemm<BF16_KIND, CLUSTER, 2, 0>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)S::SMEM));
        CUDA_CHECK(cudaOccupancyMaxActiveClusters(
            &most, hopper_gemm<BF16_KIND, CLUSTER, 2, 0>, &cfg));
        if (most < 1)
            cannot_run("no cluster of %d blocks fits on this GPU", CLUSTER);
    }
    cfg.gridDim = dim3(CLUSTER * min(tiles, most));
    CUDA_CHECK(cudaLaunchKernelEx(&cfg, hopper_gemm<BF16_KIND, CLUSTER, 2, 0>,
                                  *maps, m, n, k, alpha, beta, c, ldc, 8,
                                  store, CEIL_DIV(k, S::BK)));
}

template <int CLUSTER, int STORE>
static void run_hopper_clusters(int m, int n, int k, float alpha,
                                const bf16_bits *a, int lda,
                                const bf16_bits *b, int ldb, float beta,
                                float *c, int ldc)
{
    struct hopper_maps maps;
    if (!tma_ok(a, lda, 2) || !tma_ok(b, ldb, 2)
        || CEIL_DIV(n, hopper_shape<BF16_KIND>::BN) % CLUSTER != 0) {
        run_hopper_bf16<PERSISTENT, 8, 2, STORE>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    tensor_map(&maps.a[0], a, 1, m, k, lda, 256 / CLUSTER, 64);
    tensor_map(&maps.b[0], b, 1, k, n, ldb, 64, 64);
    launch_hopper_clusters<CLUSTER, STORE>(&maps, m, n, k, alpha, beta, c,
                                           ldc);
}

template <int ST>
static void run_hopper_one(int m, int n, int k, float alpha,
                           const bf16_bits *a, int lda, const bf16_bits *b,
                           int ldb, float beta, float *c, int ldc)
{
    typedef one_shape<ST> S;
    static int ready;
    CUtensorMap map_a, map_b;
    if (!tma_ok(a, lda, 2) || !tma_ok(b, ldb, 2)) {
        run_bf16(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    tensor_map(&map_a, a, 1, m, k, lda, S::BM, S::BK);
    tensor_map(&map_b, b, 1, k, n, ldb, S::BK, 64);
    if (!ready) {
        CUDA_CHECK(cudaFuncSetAttribute(hopper_one<ST>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)S::SMEM));
        ready = 1;
    }
    hopper_one<ST><<<CEIL_DIV(m, S::BM) * CEIL_DIV(n, S::BN), 128, S::SMEM>>>(
        map_a, map_b, m, n, k, alpha, beta, c, ldc);
    CUDA_CHECK(cudaGetLastError());
}

static const struct kernel kernels[] = {
    { .name = "mma-bf16", .what = "chapter 10's BF16 kernel (mma.sync)",
      .function = FUNCTION(bf16_mma<BF16_SMALL, 8>),
      .precision = BF16, .run_bf16 = run_bf16,
      .setup = convert_to_bf16 },
    { .name = "mma-tf32", .what = "chapter 10's TF32 kernel (mma.sync)",
      .function = FUNCTION(tf32_mma<TF32_LARGE, 4>),
      .precision = TF32, .run = run_mma,
      .setup = reserve_scratch, .teardown = free_scratch },
    { .name = "bf16-one",
      .what = "wgmma BF16, TMA, one warpgroup, one stage",
      .function = FUNCTION(hopper_one<1>),
      .precision = BF16, .run_bf16 = run_hopper_one<1>,
      .setup = convert_to_bf16 },
    { .name = "bf16-ring",
      .what = "the same with a ring of 4 stages",
      .function = FUNCTION(hopper_one<4>),
      .precision = BF16, .run_bf16 = run_hopper_one<4>,
      .setup = convert_to_bf16 },
    { .name = "bf16-tiles",
      .what = "wgmma BF16, TMA, 4 stages; a block per tile, by rows",
      .function = FUNCTION(hopper_gemm<BF16_KIND, 1, 2, 0>),
      .precision = BF16,
      .run_bf16 = run_hopper_bf16<BLOCK_PER_TILE, 1, 2, STORE_DIRECT>,
      .setup = convert_to_bf16 },
    { .name = "bf16-grouped",
      .what = "the same, tiles in groups of 8 rows",
      .function = FUNCTION(hopper_gemm<BF16_KIND, 1, 2, 0>),
      .precision = BF16,
      .run_bf16 = run_hopper_bf16<BLOCK_PER_TILE, 8, 2, STORE_DIRECT>,
      .setup = convert_to_bf16 },
    { .name = "bf16-persistent",
      .what = "the same, persistent: a block per SM; half tiles when small",
      .function = FUNCTION(hopper_gemm<BF16_KIND, 1, 2, 0>),
      .precision = BF16, .run_bf16 = run_hopper<STORE_DIRECT>,
      .setup = convert_to_bf16 },
    { .name = "bf16",
      .what = "persistent, the epilogue through shared memory and TMA",
      .function = FUNCTION(hopper_gemm<BF16_KIND, 1, 2, 0>),
      .precision = BF16, .run_bf16 = run_hopper<STORE_BY_TMA>,
      .setup = convert_to_bf16 },
    { .name = "bf16-pairs",
      .what = "bf16 in clusters of 2 that share the tile of A",
      .function = FUNCTION(hopper_gemm<BF16_KIND, 2, 2, 0>),
      .precision = BF16, .run_bf16 = run_hopper_clusters<2, STORE_BY_TMA>,
      .setup = convert_to_bf16 },
    { .name = "tf32", .what = "wgmma TF32 after a rounding pass",
      .function = FUNCTION(hopper_gemm<TF32_KIND, 1, 2, 0>),
      .precision = TF32, .run = run_hopper_tf32<TF32_KIND>,
      .setup = reserve_passes, .teardown = free_passes },
    { .name = "3xtf32", .what = "wgmma 3xTF32 after a splitting pass",
      .function = FUNCTION(hopper_gemm<X3_KIND, 1, 1, 0>),
      .precision = FP32_3XTF32, .run = run_hopper_tf32<X3_KIND>,
      .setup = reserve_passes, .teardown = free_passes },
};

extern "C" const struct chapter ch12_program = {
    .title = "the Hopper way: TMA and wgmma",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
};

#define HOPPER(st, g) \
    { .name = "bf16-s" #st "-g" #g, \
      .what = "wgmma BF16, persistent, epilogue through TMA", \
      .function = FUNCTION(hopper_gemm<BF16_KIND, 1, 2, st>), \
      .precision = BF16, \
      .run_bf16 = run_hopper_bf16<PERSISTENT, g, 2, STORE_BY_TMA, st>, \
      .setup = convert_to_bf16 }

static const struct kernel sweep_kernels[] = {
    HOPPER(2, 8), HOPPER(3, 8), HOPPER(4, 8),
    HOPPER(4, 1), HOPPER(4, 4), HOPPER(4, 16),
};

extern "C" const struct chapter ch12sweep_program = {
    .title = "the Hopper kernel: ring depths and tile orders",
    .kernels = sweep_kernels, .nkernels = COUNT_OF(sweep_kernels),
};

void hopper_bf16(int m, int n, int k, float alpha, const bf16_bits *a,
                 int lda, const bf16_bits *b, int ldb, float beta, float *c,
                 int ldc)
{
    run_hopper<STORE_BY_TMA>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void hopper_tf32(int m, int n, int k, float alpha,
                 const float *a, int lda, const float *b, int ldb,
                 float beta, float *c, int ldc)
{
    run_hopper_tf32<TF32_KIND>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void hopper_3xtf32(int m, int n, int k, float alpha,
                   const float *a, int lda, const float *b, int ldb,
                   float beta, float *c, int ldc)
{
    run_hopper_tf32<X3_KIND>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void hopper_bf16_split(int splits, int m, int n, int k, float alpha,
                       const bf16_bits *a, int lda, const bf16_bits *b,
                       int ldb, float *c, int ldc)
{
    slices_bf16<PERSISTENT, 8, 1, STORE_DIRECT>(splits, m, n, k, alpha, a,
                                                lda, b, ldb, 1.0f, c, ldc);
}

void hopper_tf32_split(int splits, int m, int n, int k, float alpha,
                       const float *a, int lda, const float *b, int ldb,
                       float *c, int ldc)
{
    slices_tf32<TF32_KIND, 1, STORE_DIRECT>(splits, m, n, k, alpha, a, lda,
                                            b, ldb, 1.0f, c, ldc);
}

void hopper_3xtf32_split(int splits, int m, int n, int k, float alpha,
                         const float *a, int lda, const float *b, int ldb,
                         float *c, int ldc)
{
    slices_tf32<X3_KIND, 1, STORE_DIRECT>(splits, m, n, k, alpha, a, lda,
                                          b, ldb, 1.0f, c, ldc);
}

void hopper_reserve(int m, int n, int k, const struct operands *set)
{
    reserve_passes(m, n, k, set);
}

void hopper_release(void)
{
    free_passes();
}
