/* sgemmbook.h: the dispatchers of "Fast Matrix Multiplication on
   NVIDIA GPUs" as a library: C = alpha A B + beta C, row-major. */
#ifndef SGEMMBOOK_H
#define SGEMMBOOK_H
#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    SGEMMBOOK_FP32,        /* CUDA cores, FP32's accuracy */
    SGEMMBOOK_TF32,        /* tensor cores, A and B rounded to TF32 */
    SGEMMBOOK_3XTF32,      /* tensor cores, FP32's accuracy */
    SGEMMBOOK_BF16         /* A and B in BF16, C in FP32 */
} sgemmbook_precision;

typedef enum {
    SGEMMBOOK_KERNELS_OWN,    /* the GPU's own: Hopper's on Hopper */
    SGEMMBOOK_KERNELS_AMPERE  /* those of any GPU from Ampere on */
} sgemmbook_kernels;
typedef enum {
    SGEMMBOOK_SUCCESS = 0,
    SGEMMBOOK_INVALID_HANDLE,      /* NULL */
    SGEMMBOOK_INVALID_PRECISION,   /* not one of the four */
    SGEMMBOOK_INVALID_SIZE,        /* m, n, k or a limit negative */
    SGEMMBOOK_INVALID_POINTER,     /* NULL where the call reads or writes */
    SGEMMBOOK_INVALID_LEADING_DIMENSION,   /* lda < k, ldb < n, ldc < n, or < 1 */
    SGEMMBOOK_TOO_LARGE,           /* a matrix past 2^31 - 1 numbers */
    SGEMMBOOK_NOT_SUPPORTED,       /* not on this GPU, with these kernels,
                                      or not on the library's GPU */
    SGEMMBOOK_ALLOC_FAILED,        /* GPU or host memory ran out */
    SGEMMBOOK_CUDA_ERROR,          /* a CUDA call failed */
    SGEMMBOOK_NO_DEVICE,           /* no GPU, or no driver for one */
    SGEMMBOOK_STATUS_COUNT
} sgemmbook_status;

#define SGEMMBOOK_VERSION "0.9.0"         /* the book's version */

struct CUstream_st;                       /* cudaStream_t points to one */
typedef struct sgemmbook_context *sgemmbook_handle;

const char *sgemmbook_version(void);
const char *sgemmbook_status_string(sgemmbook_status status);
sgemmbook_status sgemmbook_create(sgemmbook_handle *handle);
sgemmbook_status sgemmbook_destroy(sgemmbook_handle handle);
sgemmbook_status sgemmbook_set_stream(sgemmbook_handle handle,
                                      struct CUstream_st *stream);
sgemmbook_status sgemmbook_set_kernels(sgemmbook_handle handle,
                                       sgemmbook_kernels kernels);
sgemmbook_status sgemmbook_set_limits(sgemmbook_handle handle, int sms,
                                      long smem_per_block);
sgemmbook_status sgemmbook_gemm(sgemmbook_handle handle,
                                sgemmbook_precision precision,
                                int m, int n, int k, float alpha,
                                const void *a, int lda,
                                const void *b, int ldb,
                                float beta, float *c, int ldc);

#ifdef __cplusplus
}
#endif
#endif
