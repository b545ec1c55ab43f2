/* hopper.h: chapter 12's Hopper instructions, shapes and tensor maps. */
#ifndef HOPPER_H
#define HOPPER_H
#include <stdio.h>
#include <stdlib.h>
#include <cuda.h>
#include <cudaTypedefs.h>
#include "ch12.h"

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n"
                 :: "r"(smem_addr(bar)), "r"(count));
}

__device__ __forceinline__ void mbar_expect_bytes(uint64_t *bar,
                                                  unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
                 :: "r"(smem_addr(bar)), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n"
                 :: "r"(smem_addr(bar)) : "memory");
}

__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity)
{
    asm volatile("{\n"
                 ".reg .pred done;\n"
                 "wait:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait;\n"
                 "}\n" :: "r"(smem_addr(bar)), "r"(parity) : "memory");
}
__device__ __forceinline__ void tma_load(void *dst, const CUtensorMap *map,
                                         uint64_t *bar, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n"
                 :: "r"(smem_addr(dst)), "l"(map), "r"(smem_addr(bar)),
                    "r"(x), "r"(y) : "memory");
}
__device__ __forceinline__ void wgmma_fence(void)
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void wgmma_commit(void)
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

template <int N>
__device__ __forceinline__ void wgmma_wait(void)
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(N) : "memory");
}
__device__ __forceinline__ uint64_t
wgmma_desc(const void *tile, unsigned lead, unsigned stride)
{
    return (uint64_t)((smem_addr(tile) & 0x3ffff) >> 4)
         | (uint64_t)(lead >> 4) << 16
         | (uint64_t)(stride >> 4) << 32
         | (uint64_t)1 << 62;
}
#define ACC64 \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, " \
    "%15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, " \
    "%28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, " \
    "%41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, " \
    "%54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define ACC64_OPERANDS(d) \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), \
    "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), \
    "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), \
    "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), \
    "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), \
    "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), \
    "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), \
    "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
    "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), \
    "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), \
    "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), \
    "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), \
    "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])

template <int B_MN_MAJOR>
__device__ __forceinline__ void
wgmma_bf16(float *d, uint64_t da, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
                 ACC64 ", %64, %65, p, 1, 1, 0, %67;\n}\n"
                 : ACC64_OPERANDS(d)
                 : "l"(da), "l"(db), "r"(1), "n"(B_MN_MAJOR));
}

__device__ __forceinline__ void
wgmma_tf32(float *d, uint64_t da, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
                 ACC64 ", %64, %65, p, 1, 1;\n}\n"
                 : ACC64_OPERANDS(d)
                 : "l"(da), "l"(db), "r"(1));
}


__device__ __forceinline__ void tma_store(const CUtensorMap *map,
                                          const void *src, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
                 " [%0, {%2, %3}], [%1];\n"
                 :: "l"(map), "r"(smem_addr(src)), "r"(x), "r"(y)
                 : "memory");
}

__device__ __forceinline__ void smem_to_async_proxy(void)
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

__device__ __forceinline__ void warpgroup_sync(int id)
{
    asm volatile("bar.sync %0, 128;\n" :: "r"(id) : "memory");
}

__device__ __forceinline__ void bulk_commit(void)
{
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

template <int N>
__device__ __forceinline__ void bulk_wait_read(void)
{
    asm volatile("cp.async.bulk.wait_group.read %0;\n" :: "n"(N) : "memory");
}
template <int R>
__device__ __forceinline__ void regs_down(void)
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" :: "n"(R));
}

template <int R>
__device__ __forceinline__ void regs_up(void)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" :: "n"(R));
}
__device__ __forceinline__ unsigned cluster_rank(void)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
    return r;
}

__device__ __forceinline__ void mbar_arrive_remote(uint64_t *bar,
                                                   unsigned cta)
{
    asm volatile("{\n.reg .b32 far;\n"
                 "mapa.shared::cluster.u32 far, %0, %1;\n"
                 "mbarrier.arrive.shared::cluster.b64 _, [far];\n}\n"
                 :: "r"(smem_addr(bar)), "r"(cta) : "memory");
}

__device__ __forceinline__ void
tma_load_multicast(void *dst, const CUtensorMap *map, uint64_t *bar, int x,
                   int y, unsigned short mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%3, %4}], [%2], %5;\n"
                 :: "r"(smem_addr(dst)), "l"(map), "r"(smem_addr(bar)),
                    "r"(x), "r"(y), "h"(mask) : "memory");
}

__device__ __forceinline__ void cluster_sync(void)
{
    asm volatile("barrier.cluster.arrive.release;\n"
                 "barrier.cluster.wait.acquire;\n" ::: "memory");
}

#define BF16_KIND 0
#define TF32_KIND 1
#define X3_KIND 2

template <int KIND, int M64 = KIND == X3_KIND ? 1 : 2, int ST = 0>
struct hopper_shape {
    enum {
        OPS = KIND == X3_KIND ? 2 : 1,        /* operand pairs per stage */
        MI = M64,                             /* m64 tiles per consumer */
        BM = 2 * 64 * MI, BN = 128,
        BK = KIND == BF16_KIND ? 64 : 32,     /* one 128-byte row */
        A_BYTES = BM * 128, B_BYTES = BN * 128,
        STAGE_BYTES = OPS * (A_BYTES + B_BYTES),
        STAGES = ST ? ST : KIND == X3_KIND ? 3 : 4,
        OUT_BYTES = 2 * 64 * 128,             /* two boxes of C per consumer */
        SMEM = STAGES * STAGE_BYTES + 2 * OUT_BYTES + 1024  /* + alignment */
    };
};

void tensor_map(CUtensorMap *map, const void *x, int bf16, int rows,
                int cols, int ld, int box_rows, int box_cols);
__global__ void split_rows(const float *a, int lda, float *big, float *small,
                           int ld, int m, int k);
#endif
