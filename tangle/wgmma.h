/* wgmma.h: the wgmma instructions of the kernel without passes. */
#ifndef WGMMA_H
#define WGMMA_H
#include "hopper.h"

#define ACC8 "{%0, %1, %2, %3, %4, %5, %6, %7}"
#define ACC16 \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, " \
    "%14, %15}"
#define ACC32 \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, " \
    "%14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, " \
    "%26, %27, %28, %29, %30, %31}"
#define ACC96 \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, " \
    "%14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, " \
    "%27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, " \
    "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, " \
    "%53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, " \
    "%66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, " \
    "%79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, " \
    "%92, %93, %94, %95}"
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
#define ACC8_OPERANDS(d) \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), \
    "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
#define ACC16_OPERANDS(d) ACC8_OPERANDS(d), ACC8_OPERANDS((d + 8))
#define ACC32_OPERANDS(d) ACC16_OPERANDS(d), ACC16_OPERANDS((d + 16))
#define ACC96_OPERANDS(d) ACC64_OPERANDS(d), ACC32_OPERANDS((d + 64))
#define ACC128_OPERANDS(d) ACC64_OPERANDS(d), ACC64_OPERANDS((d + 64))

template <int N>
__device__ __forceinline__ void
wgmma_tf32_regs(float *d, const unsigned *a, uint64_t db);
template <int N>
__device__ __forceinline__ void
wgmma_bf16_regs(float *d, const unsigned *a, uint64_t db);

#define WGMMA_REGS(F, N, SHAPE, TAIL, ACC, OPERANDS, A0, A1, A2, A3, DB, P) \
    template <>                                                             \
    __device__ __forceinline__ void                                         \
    F<N>(float *d, const unsigned *a, uint64_t db)                          \
    {                                                                       \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #P ", 0;\n"      \
                     "wgmma.mma_async.sync.aligned." SHAPE " " ACC         \
                     ", {%" #A0 ", %" #A1 ", %" #A2 ", %" #A3 "}, %" #DB   \
                     ", p, 1, 1" TAIL ";\n}\n"                              \
                     : OPERANDS(d)                                          \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]),          \
                       "l"(db), "r"(1));                                    \
    }

WGMMA_REGS(wgmma_tf32_regs, 16, "m64n16k8.f32.tf32.tf32", "",
           ACC8, ACC8_OPERANDS, 8, 9, 10, 11, 12, 13)
WGMMA_REGS(wgmma_tf32_regs, 32, "m64n32k8.f32.tf32.tf32", "",
           ACC16, ACC16_OPERANDS, 16, 17, 18, 19, 20, 21)
WGMMA_REGS(wgmma_tf32_regs, 64, "m64n64k8.f32.tf32.tf32", "",
           ACC32, ACC32_OPERANDS, 32, 33, 34, 35, 36, 37)
WGMMA_REGS(wgmma_tf32_regs, 128, "m64n128k8.f32.tf32.tf32", "",
           ACC64, ACC64_OPERANDS, 64, 65, 66, 67, 68, 69)
WGMMA_REGS(wgmma_tf32_regs, 192, "m64n192k8.f32.tf32.tf32", "",
           ACC96, ACC96_OPERANDS, 96, 97, 98, 99, 100, 101)
WGMMA_REGS(wgmma_tf32_regs, 256, "m64n256k8.f32.tf32.tf32", "",
           ACC128, ACC128_OPERANDS, 128, 129, 130, 131, 132, 133)
WGMMA_REGS(wgmma_bf16_regs, 16, "m64n16k16.f32.bf16.bf16", ", 0",
           ACC8, ACC8_OPERANDS, 8, 9, 10, 11, 12, 13)
WGMMA_REGS(wgmma_bf16_regs, 32, "m64n32k16.f32.bf16.bf16", ", 0",
           ACC16, ACC16_OPERANDS, 16, 17, 18, 19, 20, 21)
WGMMA_REGS(wgmma_bf16_regs, 64, "m64n64k16.f32.bf16.bf16", ", 0",
           ACC32, ACC32_OPERANDS, 32, 33, 34, 35, 36, 37)
WGMMA_REGS(wgmma_bf16_regs, 128, "m64n128k16.f32.bf16.bf16", ", 0",
           ACC64, ACC64_OPERANDS, 64, 65, 66, 67, 68, 69)
WGMMA_REGS(wgmma_bf16_regs, 192, "m64n192k16.f32.bf16.bf16", ", 0",
           ACC96, ACC96_OPERANDS, 96, 97, 98, 99, 100, 101)
WGMMA_REGS(wgmma_bf16_regs, 256, "m64n256k16.f32.bf16.bf16", ", 0",
           ACC128, ACC128_OPERANDS, 128, 129, 130, 131, 132, 133)

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

#define WGMMA_DESCS(N, ACC, OPERANDS, DA, DB, P)                            \
    template <>                                                             \
    __device__ __forceinline__ void                                         \
    wgmma_bf16_smem<N>(float *d, uint64_t da, uint64_t db)                  \
    {                                                                       \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #P ", 0;\n"      \
                     "wgmma.mma_async.sync.aligned.m64n" #N "k16"           \
                     ".f32.bf16.bf16 " ACC ", %" #DA ", %" #DB              \
                     ", p, 1, 1, 0, 1;\n}\n"                                \
                     : OPERANDS(d)                                          \
                     : "l"(da), "l"(db), "r"(1));                           \
    }

WGMMA_DESCS(16, ACC8, ACC8_OPERANDS, 8, 9, 10)
WGMMA_DESCS(32, ACC16, ACC16_OPERANDS, 16, 17, 18)
WGMMA_DESCS(64, ACC32, ACC32_OPERANDS, 32, 33, 34)
#endif
