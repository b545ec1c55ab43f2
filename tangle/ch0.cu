/* ch0.cu: cuBLAS, the serial CPU version, and the GPU's ceilings. */
#include "harness.h"

enum { FFMA_CHAINS = 8, FFMA_ITERS = 4096, FFMA_THREADS = 256 };

__global__ void ffma_kernel(float *out, float x, float y)
{
    float v[FFMA_CHAINS];
    #pragma unroll
    for (int c = 0; c < FFMA_CHAINS; c++)
        v[c] = threadIdx.x + c;
    for (int i = 0; i < FFMA_ITERS; i++) {
        #pragma unroll
        for (int c = 0; c < FFMA_CHAINS; c++)
            v[c] = fmaf(v[c], x, y);
    }
    float s = 0.0f;
    #pragma unroll
    for (int c = 0; c < FFMA_CHAINS; c++)
        s += v[c];
    if (s == -1.0f)
        out[threadIdx.x] = s;
}
static double ffma_tflops(int sms, int threads_per_sm)
{
    int blocks = sms * threads_per_sm / FFMA_THREADS;
    float *out, ms[7];
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaMalloc((void **)&out, sizeof(float) * 1024));
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    for (int i = -1; i < 7; i++) {      /* one warm-up launch */
        CUDA_CHECK(cudaEventRecord(e0, 0));
        ffma_kernel<<<blocks, FFMA_THREADS>>>(out, 0.999f, 0.001f);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(e1, 0));
        CUDA_CHECK(cudaEventSynchronize(e1));
        if (i >= 0)
            CUDA_CHECK(cudaEventElapsedTime(&ms[i], e0, e1));
    }
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    CUDA_CHECK(cudaFree(out));
    double flop = 2.0 * blocks * FFMA_THREADS * FFMA_ITERS
                  * FFMA_CHAINS;
    return flop / (median_ms(ms, 7) * 1e-3) / 1e12;
}

static const struct kernel kernels[] = {
    { .name = "cublas", .what = "cuBLAS SGEMM, CUBLAS_COMPUTE_32F",
      .run = cublas_sgemm },
};

extern "C" const struct chapter ch0_program = {
    .title = "the harness and cuBLAS",
    .kernels = kernels, .nkernels = COUNT_OF(kernels),
    .cpu = cpu_sgemm, .ffma_tflops = ffma_tflops,
};
