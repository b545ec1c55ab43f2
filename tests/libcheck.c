/* libcheck: the library (build/lib/libsgemmbook.a or .so) as a C99
   program links it, on the CPU: every bad argument to sgemmbook_gemm
   gives its status, whatever the handle; good arguments with a NULL
   handle give SGEMMBOOK_INVALID_HANDLE; every status has its own
   sentence; the version is the header's.  Last, the status of
   sgemmbook_create on this machine ("create: N"), which the test holds
   against the GPU there is or is not.  The program defines names the
   chapters' code also defines (sm_count, check_cuda, chose): linked
   with the static library, it shows that the library exports none. */
#include <stdio.h>
#include <string.h>
#include "sgemmbook.h"

int sm_count(void) { return -1; }
void check_cuda(void) { }
void chose(void) { }

/* The arguments' check through the library: with a NULL handle, a good
   product says so, and a bad one names its argument first. */
static sgemmbook_status sgemmbook_check(sgemmbook_precision p, int m, int n, int k,
                                        const void *a, int lda, const void *b,
                                        int ldb, float *c, int ldc)
{
    sgemmbook_status s = sgemmbook_gemm(NULL, p, m, n, k, 1.0f, a, lda, b, ldb,
                                        0.0f, c, ldc);
    return s == SGEMMBOOK_INVALID_HANDLE ? SGEMMBOOK_SUCCESS : s;
}

static int passed, failed;

static void expect(sgemmbook_status got, sgemmbook_status want, const char *what)
{
    if (got == want) {
        passed++;
    } else {
        failed++;
        printf("FAIL - %s: status %d, not %d\n", what, (int)got, (int)want);
    }
}

int main(void)
{
    static float x[64];
    const void *a = x, *b = x;
    float *c = x;
    sgemmbook_precision p = SGEMMBOOK_FP32;
    /* good */
    expect(sgemmbook_check(p, 4, 5, 6, a, 6, b, 5, c, 5), SGEMMBOOK_SUCCESS, "a plain product");
    expect(sgemmbook_check(SGEMMBOOK_BF16, 4, 5, 6, a, 8, b, 9, c, 7), SGEMMBOOK_SUCCESS, "padded rows");
    expect(sgemmbook_check(p, 0, 5, 6, NULL, 6, NULL, 5, NULL, 5), SGEMMBOOK_SUCCESS, "M = 0 reads nothing");
    expect(sgemmbook_check(p, 4, 0, 6, NULL, 6, NULL, 1, NULL, 1), SGEMMBOOK_SUCCESS, "N = 0 reads nothing");
    expect(sgemmbook_check(p, 4, 5, 0, NULL, 1, NULL, 5, c, 5), SGEMMBOOK_SUCCESS, "K = 0 reads only C");
    /* bad */
    expect(sgemmbook_check((sgemmbook_precision)4, 4, 5, 6, a, 6, b, 5, c, 5), SGEMMBOOK_INVALID_PRECISION, "a fifth precision");
    expect(sgemmbook_check((sgemmbook_precision)-1, 4, 5, 6, a, 6, b, 5, c, 5), SGEMMBOOK_INVALID_PRECISION, "a negative precision");
    expect(sgemmbook_check(p, -1, 5, 6, a, 6, b, 5, c, 5), SGEMMBOOK_INVALID_SIZE, "M < 0");
    expect(sgemmbook_check(p, 4, -5, 6, a, 6, b, 5, c, 5), SGEMMBOOK_INVALID_SIZE, "N < 0");
    expect(sgemmbook_check(p, 4, 5, -6, a, 6, b, 5, c, 5), SGEMMBOOK_INVALID_SIZE, "K < 0");
    expect(sgemmbook_check(p, 4, 5, 6, a, 5, b, 5, c, 5), SGEMMBOOK_INVALID_LEADING_DIMENSION, "lda < K");
    expect(sgemmbook_check(p, 4, 5, 6, a, 6, b, 4, c, 5), SGEMMBOOK_INVALID_LEADING_DIMENSION, "ldb < N");
    expect(sgemmbook_check(p, 4, 5, 6, a, 6, b, 5, c, 4), SGEMMBOOK_INVALID_LEADING_DIMENSION, "ldc < N");
    expect(sgemmbook_check(p, 4, 5, 0, NULL, 0, NULL, 5, c, 5), SGEMMBOOK_INVALID_LEADING_DIMENSION, "lda = 0");
    expect(sgemmbook_check(p, 4, 5, 6, NULL, 6, b, 5, c, 5), SGEMMBOOK_INVALID_POINTER, "A NULL");
    expect(sgemmbook_check(p, 4, 5, 6, a, 6, NULL, 5, c, 5), SGEMMBOOK_INVALID_POINTER, "B NULL");
    expect(sgemmbook_check(p, 4, 5, 6, a, 6, b, 5, NULL, 5), SGEMMBOOK_INVALID_POINTER, "C NULL");
    expect(sgemmbook_check(p, 4, 5, 0, NULL, 1, NULL, 5, NULL, 5), SGEMMBOOK_INVALID_POINTER, "K = 0, C NULL");
    expect(sgemmbook_check(p, 65536, 65536, 8, a, 8, b, 65536, c, 65536), SGEMMBOOK_TOO_LARGE, "C of 2^32 numbers");
    expect(sgemmbook_check(p, 46341, 8, 46341, a, 46341, b, 8, c, 8), SGEMMBOOK_TOO_LARGE, "A of 46341^2 numbers");
    expect(sgemmbook_check(p, 8, 46341, 46341, a, 46341, b, 46341, c, 46341), SGEMMBOOK_TOO_LARGE, "B of 46341^2 numbers");
    expect(sgemmbook_check(p, 46340, 8, 46340, a, 46340, b, 8, c, 8), SGEMMBOOK_SUCCESS, "A of 46340^2 numbers, below 2^31");
    expect(sgemmbook_check(p, 46341, 8, 0, NULL, 46341, NULL, 8, c, 8), SGEMMBOOK_SUCCESS,
           "K = 0: A, which is not read, may span 2^31");
    /* the handle is checked after the other arguments, even where M is 0 */
    expect(sgemmbook_gemm(NULL, p, 0, 5, 6, 1.0f, NULL, 6, NULL, 5, 0.0f, NULL, 5),
           SGEMMBOOK_INVALID_HANDLE, "an empty product without a handle");
    expect(sgemmbook_gemm(NULL, p, 4, 5, 6, 1.0f, a, 6, b, 5, 0.0f, c, 5),
           SGEMMBOOK_INVALID_HANDLE, "a good product without a handle");
    expect(sgemmbook_create(NULL), SGEMMBOOK_INVALID_POINTER, "create into NULL");
    expect(sgemmbook_destroy(NULL), SGEMMBOOK_INVALID_HANDLE, "destroy NULL");
    expect(sgemmbook_set_stream(NULL, NULL), SGEMMBOOK_INVALID_HANDLE, "a stream for NULL");
    expect(sgemmbook_set_kernels(NULL, SGEMMBOOK_KERNELS_AMPERE), SGEMMBOOK_INVALID_HANDLE,
           "kernels for NULL");
    expect(sgemmbook_set_limits(NULL, 108, 166912), SGEMMBOOK_INVALID_HANDLE, "limits for NULL");
    /* a sentence for each status, each its own; one for what is none */
    for (int i = 0; i < SGEMMBOOK_STATUS_COUNT; i++)
        for (int j = 0; j < i; j++)
            expect(strcmp(sgemmbook_status_string((sgemmbook_status)i),
                          sgemmbook_status_string((sgemmbook_status)j)) != 0
                   && sgemmbook_status_string((sgemmbook_status)i)[0] != 0,
                   1, "each status its own sentence");
    expect(strcmp(sgemmbook_status_string(SGEMMBOOK_STATUS_COUNT),
                  "not a status of the library") == 0, 1, "a status past the last");
    expect(strcmp(sgemmbook_version(), SGEMMBOOK_VERSION) == 0, 1, "the header's version");
    sgemmbook_handle h = NULL;
    sgemmbook_status made = sgemmbook_create(&h);
    if (made == SGEMMBOOK_SUCCESS) {
        expect(sgemmbook_gemm(h, p, 4, 5, 6, 1.0f, a, 6, b, 4, 0.0f, c, 5),
               SGEMMBOOK_INVALID_LEADING_DIMENSION, "a bad argument with a handle");
        expect(sgemmbook_set_kernels(h, (sgemmbook_kernels)2), SGEMMBOOK_NOT_SUPPORTED,
               "kernels that are none");
        expect(sgemmbook_set_limits(h, -1, 0), SGEMMBOOK_INVALID_SIZE, "fewer than no SMs");
        expect(sgemmbook_destroy(h), SGEMMBOOK_SUCCESS, "destroy");
    } else {
        expect(h == NULL, 1, "no handle where create fails");
    }
    printf("create: %d\n", (int)made);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
