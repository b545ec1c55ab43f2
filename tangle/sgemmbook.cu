/* sgemmbook.cu: chapter 14's dispatchers behind the interface of
   sgemmbook.h, for code that links no harness. */
#include <mutex>
#include <new>
#include "ch14.h"
#include "sgemmbook-check.h"

#define API extern "C" __attribute__((visibility("default")))

namespace {
struct cuda_failure {
    cudaError_t error;
};
struct cannot_run_here {};
}

void check_cuda(cudaError_t e, const char *call, const char *file, int line)
{
    (void)call, (void)file, (void)line;
    if (e != cudaSuccess)
        throw cuda_failure{ e };
}

static int limit_sms(void);
static long limit_smem(void);
static int hopper_asked(void);

int sm_count(void)
{
    int dev, sms;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return limit_sms() && limit_sms() < sms ? limit_sms() : sms;
}

size_t smem_limit(void)
{
    int dev, bytes;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&bytes,
               cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    return limit_smem() && limit_smem() < bytes ? (size_t)limit_smem() : (size_t)bytes;
}

int hopper_kernels(void)
{
    return hopper_asked();
}

void chose(const char *fmt, ...)
{
    (void)fmt;
}

void cannot_run(const char *fmt, ...)
{
    (void)fmt;
    throw cannot_run_here{};
}

void cublas_sgemm(int m, int n, int k, float alpha, const float *a, int lda,
                  const float *b, int ldb, float beta, float *c, int ldc)
{
    (void)m, (void)n, (void)k, (void)alpha, (void)a, (void)lda;
    (void)b, (void)ldb, (void)beta, (void)c, (void)ldc;
    throw cuda_failure{ cudaErrorNotSupported };
}
struct sgemmbook_context {
    int device;                 /* the GPU the handle was made on */
    int hopper;                 /* the GPU runs Hopper's kernels */
    sgemmbook_kernels kernels;  /* the kernels asked for */
    int sms;                    /* plan as for this many SMs (0: all) */
    long smem;                  /* ... and shared memory a block (0: all) */
    cudaStream_t stream;        /* the caller's; 0 is the legacy stream */
    cudaEvent_t ready;          /* what the caller's stream held before */
    struct gemm_workspace work; /* its buffers */
};

namespace {
std::mutex lock;                /* over the chapters' host state */
int handles;                    /* alive; the event last goes with the last */
int device = -1;                /* the GPU the library runs on */
const sgemmbook_context *calling;   /* the handle of the call under way */
cudaEvent_t last;               /* the library's latest work */

sgemmbook_status status_of(cudaError_t e)
{
    switch (e) {
    case cudaErrorMemoryAllocation:
        return SGEMMBOOK_ALLOC_FAILED;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
        return SGEMMBOOK_NO_DEVICE;
    default:
        return SGEMMBOOK_CUDA_ERROR;
    }
}
}

static int limit_sms(void) { return calling ? calling->sms : 0; }
static long limit_smem(void) { return calling ? calling->smem : 0; }
static int hopper_asked(void)
{
    return calling && calling->hopper && calling->kernels == SGEMMBOOK_KERNELS_OWN;
}
API sgemmbook_status sgemmbook_create(sgemmbook_handle *handle)
{
    int dev, major, minor;
    if (!handle)
        return SGEMMBOOK_INVALID_POINTER;
    *handle = NULL;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return status_of(e);
    }
    if (major < 8)
        return SGEMMBOOK_NOT_SUPPORTED;
    std::lock_guard<std::mutex> held(lock);
    if (device >= 0 && dev != device)
        return SGEMMBOOK_NOT_SUPPORTED;   /* the library's GPU is another */
    sgemmbook_context *h = new (std::nothrow) sgemmbook_context{
        dev, major == 9 && minor == 0, SGEMMBOOK_KERNELS_OWN, 0, 0, 0, 0, {} };
    if (!h)
        return SGEMMBOOK_ALLOC_FAILED;
    e = cudaEventCreateWithFlags(&h->ready, cudaEventDisableTiming);
    if (e == cudaSuccess && !handles)
        e = cudaEventCreateWithFlags(&last, cudaEventDisableTiming);
    if (e != cudaSuccess) {
        if (h->ready)
            cudaEventDestroy(h->ready);
        delete h;
        cudaGetLastError();
        return status_of(e);
    }
    handles++;
    device = dev;
    *handle = h;
    return SGEMMBOOK_SUCCESS;
}
API sgemmbook_status sgemmbook_destroy(sgemmbook_handle h)
{
    sgemmbook_status s = SGEMMBOOK_SUCCESS;
    if (!h)
        return SGEMMBOOK_INVALID_HANDLE;
    std::lock_guard<std::mutex> held(lock);
    int saved = -1, last_one = --handles == 0;
    try {
        CUDA_CHECK(cudaGetDevice(&saved));
        CUDA_CHECK(cudaSetDevice(h->device));
        gemm_use(&h->work);
        gemm_release();
    } catch (const cuda_failure &f) {
        s = status_of(f.error);
        cudaGetLastError();
    }
    gemm_use(NULL);
    if ((cudaEventDestroy(h->ready) != cudaSuccess
         || (last_one && cudaEventDestroy(last) != cudaSuccess))
        && s == SGEMMBOOK_SUCCESS)
        s = SGEMMBOOK_CUDA_ERROR;
    cudaGetLastError();
    if (saved >= 0)
        cudaSetDevice(saved);
    delete h;
    return s;
}

API sgemmbook_status sgemmbook_set_stream(sgemmbook_handle h,
                                          struct CUstream_st *stream)
{
    if (!h)
        return SGEMMBOOK_INVALID_HANDLE;
    std::lock_guard<std::mutex> held(lock);   /* a product may be reading */
    h->stream = stream;
    return SGEMMBOOK_SUCCESS;
}

API sgemmbook_status sgemmbook_set_kernels(sgemmbook_handle h,
                                           sgemmbook_kernels kernels)
{
    if (!h)
        return SGEMMBOOK_INVALID_HANDLE;
    if (kernels != SGEMMBOOK_KERNELS_OWN && kernels != SGEMMBOOK_KERNELS_AMPERE)
        return SGEMMBOOK_NOT_SUPPORTED;
    std::lock_guard<std::mutex> held(lock);
    h->kernels = kernels;
    return SGEMMBOOK_SUCCESS;
}

API sgemmbook_status sgemmbook_set_limits(sgemmbook_handle h, int sms,
                                          long smem_per_block)
{
    if (!h)
        return SGEMMBOOK_INVALID_HANDLE;
    if (sms < 0 || smem_per_block < 0)
        return SGEMMBOOK_INVALID_SIZE;
    std::lock_guard<std::mutex> held(lock);
    h->sms = sms;
    h->smem = smem_per_block;
    return SGEMMBOOK_SUCCESS;
}
API sgemmbook_status sgemmbook_gemm(sgemmbook_handle h,
                                    sgemmbook_precision precision,
                                    int m, int n, int k, float alpha,
                                    const void *a, int lda,
                                    const void *b, int ldb,
                                    float beta, float *c, int ldc)
{
    sgemmbook_status s = sgemmbook_check(precision, m, n, k, a, lda,
                                         b, ldb, c, ldc);
    if (s != SGEMMBOOK_SUCCESS)
        return s;
    if (!h)
        return SGEMMBOOK_INVALID_HANDLE;
    if (m == 0 || n == 0)
        return SGEMMBOOK_SUCCESS;
    cudaStream_t caller = cudaStreamLegacy;
    std::unique_lock<std::mutex> held(lock, std::defer_lock);
    int saved = -1, waiting = 0;
    try {
        held.lock();
        calling = h;
        gemm_use(&h->work);
        if (h->stream)
            caller = h->stream;
        CUDA_CHECK(cudaGetDevice(&saved));
        CUDA_CHECK(cudaSetDevice(h->device));
        CUDA_CHECK(cudaEventRecord(h->ready, caller));
        CUDA_CHECK(cudaStreamWaitEvent(cudaStreamPerThread, h->ready, 0));
        CUDA_CHECK(cudaStreamWaitEvent(cudaStreamPerThread, last, 0));
        waiting = 1;
        const float *fa = (const float *)a, *fb = (const float *)b;
        switch (precision) {
        case SGEMMBOOK_FP32:
            gemm_fp32(m, n, k, alpha, fa, lda, fb, ldb, beta, c, ldc);
            break;
        case SGEMMBOOK_TF32:
            gemm_tf32(m, n, k, alpha, fa, lda, fb, ldb, beta, c, ldc);
            break;
        case SGEMMBOOK_3XTF32:
            gemm_3xtf32(m, n, k, alpha, fa, lda, fb, ldb, beta, c, ldc);
            break;
        case SGEMMBOOK_BF16:
            gemm_bf16(m, n, k, alpha, (const bf16_bits *)a, lda,
                      (const bf16_bits *)b, ldb, beta, c, ldc);
            break;
        }
    } catch (const cuda_failure &f) {
        s = status_of(f.error);
        cudaGetLastError();
    } catch (const cannot_run_here &) {
        s = SGEMMBOOK_NOT_SUPPORTED;
    } catch (const std::bad_alloc &) {
        s = SGEMMBOOK_ALLOC_FAILED;
    } catch (...) {             /* nothing thrown crosses into C */
        s = SGEMMBOOK_CUDA_ERROR;
    }
    /* what was queued, the caller's stream waits for, even after a failure */
    if (waiting && (cudaEventRecord(last, cudaStreamPerThread) != cudaSuccess
                    || cudaStreamWaitEvent(caller, last, 0) != cudaSuccess)) {
        cudaGetLastError();
        if (s == SGEMMBOOK_SUCCESS)
            s = SGEMMBOOK_CUDA_ERROR;
    }
    if (held.owns_lock()) {
        gemm_use(NULL);
        calling = NULL;
    }
    if (saved >= 0)
        cudaSetDevice(saved);
    return s;
}
API const char *sgemmbook_version(void)
{
    return SGEMMBOOK_VERSION;
}

API const char *sgemmbook_status_string(sgemmbook_status status)
{
    static const char *const said[SGEMMBOOK_STATUS_COUNT] = {
        "success",
        "the handle is NULL",
        "the precision is not one of the four",
        "M, N, K or a limit is negative",
        "a pointer the call needs is NULL",
        "a leading dimension is shorter than its row, or below 1",
        "a matrix holds 2^31 numbers or more",
        "not supported: the library needs compute capability 8.0 or more, "
        "kernels it knows, and the GPU its first handle was made on",
        "GPU or host memory ran out",
        "a CUDA call failed",
        "there is no GPU, or no driver for one",
    };
    if ((int)status < 0 || status >= SGEMMBOOK_STATUS_COUNT)
        return "not a status of the library";
    return said[status];
}
