/* wgmma.h: the wgmma instructions of the kernel without passes. */
#ifndef WGMMA_H
#define WGMMA_H
#include "hopper.h"

#define ACC128 \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, " \
    "%14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, " \
    "%26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, " \
    "%38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, " \
    "%50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, " \
    "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, " \
    "%74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, " \
    "%86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, " \
    "%98, %99, %100, %101, %102, %103, %104, %105, %106, %107, " \
    "%108, %109, %110, %111, %112, %113, %114, %115, %116, %117, " \
    "%118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"

#define ACC96 \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, " \
    "%14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, " \
    "%27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, " \
    "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, " \
    "%53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, " \
    "%66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, " \
    "%79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, " \
    "%92, %93, %94, %95}"

template <int N>
__device__ __forceinline__ void
wgmma_tf32_regs(float *d, const unsigned *a, uint64_t db);

#define ACC8 \
    "{%0, %1, %2, %3, %4, %5, %6, %7}"
#define ACC8_OPERANDS(d) \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), \
    "+f"(d[5]), "+f"(d[6]), "+f"(d[7])

#define ACC16 \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, " \
    "%14, %15}"
#define ACC16_OPERANDS(d) \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), \
    "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), \
    "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), \
    "+f"(d[15])

#define ACC32 \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, " \
    "%14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, " \
    "%26, %27, %28, %29, %30, %31}"
#define ACC32_OPERANDS(d) \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), \
    "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), \
    "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), \
    "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), \
    "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), \
    "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), \
    "+f"(d[30]), "+f"(d[31])

template <>
__device__ __forceinline__ void
wgmma_tf32_regs<16>(float *d, const unsigned *a, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 "
                 ACC8 ", {%8, %9, %10, %11}, %12, p, 1, 1;\n}\n"
                 : ACC8_OPERANDS(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(1));
}

template <>
__device__ __forceinline__ void
wgmma_tf32_regs<32>(float *d, const unsigned *a, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 "
                 ACC16 ", {%16, %17, %18, %19}, %20, p, 1, 1;\n}\n"
                 : ACC16_OPERANDS(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(1));
}

template <>
__device__ __forceinline__ void
wgmma_tf32_regs<64>(float *d, const unsigned *a, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 "
                 ACC32 ", {%32, %33, %34, %35}, %36, p, 1, 1;\n}\n"
                 : ACC32_OPERANDS(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(1));
}

template <>
__device__ __forceinline__ void
wgmma_tf32_regs<128>(float *d, const unsigned *a, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
                 ACC64 ", {%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
                 : ACC64_OPERANDS(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(1));
}

template <>
__device__ __forceinline__ void
wgmma_tf32_regs<192>(float *d, const unsigned *a, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %101, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n192k8.f32.tf32.tf32 "
                 ACC96 ", {%96, %97, %98, %99}, %100, p, 1, 1;\n}\n"
                 : ACC64_OPERANDS(d), ACC32_OPERANDS((d + 64))
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(1));
}

template <>
__device__ __forceinline__ void
wgmma_tf32_regs<256>(float *d, const unsigned *a, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
                 ACC128 ", {%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
                 : ACC64_OPERANDS(d), ACC64_OPERANDS((d + 64))
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(1));
}

template <int N>
__device__ __forceinline__ void
wgmma_bf16_regs(float *d, const unsigned *a, uint64_t db);

template <>
__device__ __forceinline__ void
wgmma_bf16_regs<16>(float *d, const unsigned *a, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
                 ACC8 ", {%8, %9, %10, %11}, %12, p, 1, 1, 0;\n}\n"
                 : ACC8_OPERANDS(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(1));
}

template <>
__device__ __forceinline__ void
wgmma_bf16_regs<32>(float *d, const unsigned *a, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
                 ACC16 ", {%16, %17, %18, %19}, %20, p, 1, 1, 0;\n}\n"
                 : ACC16_OPERANDS(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(1));
}

template <>
__device__ __forceinline__ void
wgmma_bf16_regs<64>(float *d, const unsigned *a, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
                 ACC32 ", {%32, %33, %34, %35}, %36, p, 1, 1, 0;\n}\n"
                 : ACC32_OPERANDS(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(1));
}

template <>
__device__ __forceinline__ void
wgmma_bf16_regs<128>(float *d, const unsigned *a, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
                 ACC64 ", {%64, %65, %66, %67}, %68, p, 1, 1, 0;\n}\n"
                 : ACC64_OPERANDS(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(1));
}

template <>
__device__ __forceinline__ void
wgmma_bf16_regs<192>(float *d, const unsigned *a, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %101, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16 "
                 ACC96 ", {%96, %97, %98, %99}, %100, p, 1, 1, 0;\n}\n"
                 : ACC64_OPERANDS(d), ACC32_OPERANDS((d + 64))
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(1));
}

template <>
__device__ __forceinline__ void
wgmma_bf16_regs<256>(float *d, const unsigned *a, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
                 ACC128 ", {%128, %129, %130, %131}, %132, p, 1, 1, 0;\n}\n"
                 : ACC64_OPERANDS(d), ACC64_OPERANDS((d + 64))
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(1));
}

template <int KIND, int N>
__device__ __forceinline__ void
wgmma_regs(float *d, const unsigned *a, uint64_t db)
{
    if constexpr (KIND == BF16_KIND)
        wgmma_bf16_regs<N>(d, a, db);
    else
        wgmma_tf32_regs<N>(d, a, db);
}
template <int N>
__device__ __forceinline__ void
wgmma_bf16_smem(float *d, uint64_t da, uint64_t db);

template <>
__device__ __forceinline__ void
wgmma_bf16_smem<16>(float *d, uint64_t da, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
                 ACC8 ", %8, %9, p, 1, 1, 0, 1;\n}\n"
                 : ACC8_OPERANDS(d)
                 : "l"(da), "l"(db), "r"(1));
}

template <>
__device__ __forceinline__ void
wgmma_bf16_smem<32>(float *d, uint64_t da, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
                 ACC16 ", %16, %17, p, 1, 1, 0, 1;\n}\n"
                 : ACC16_OPERANDS(d)
                 : "l"(da), "l"(db), "r"(1));
}

template <>
__device__ __forceinline__ void
wgmma_bf16_smem<64>(float *d, uint64_t da, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
                 ACC32 ", %32, %33, p, 1, 1, 0, 1;\n}\n"
                 : ACC32_OPERANDS(d)
                 : "l"(da), "l"(db), "r"(1));
}
#endif
