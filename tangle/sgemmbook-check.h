/* sgemmbook-check.h: the check of the library's arguments (C99). */
#ifndef SGEMMBOOK_CHECK_H
#define SGEMMBOOK_CHECK_H
#include <limits.h>
#include "sgemmbook.h"

static inline int sgemmbook_fits(int rows, int ld)   /* rows x ld < 2^31 */
{
    return rows == 0 || (long long)rows * ld <= INT_MAX;
}

static inline sgemmbook_status
sgemmbook_check(sgemmbook_precision precision, int m, int n, int k,
                const void *a, int lda, const void *b, int ldb,
                const float *c, int ldc)
{
    if (precision < SGEMMBOOK_FP32 || precision > SGEMMBOOK_BF16)
        return SGEMMBOOK_INVALID_PRECISION;
    if (m < 0 || n < 0 || k < 0)
        return SGEMMBOOK_INVALID_SIZE;
    if (lda < (k > 1 ? k : 1) || ldb < (n > 1 ? n : 1) || ldc < (n > 1 ? n : 1))
        return SGEMMBOOK_INVALID_LEADING_DIMENSION;
    if (m == 0 || n == 0)
        return SGEMMBOOK_SUCCESS;                     /* nothing to do */
    if (!c || (k > 0 && (!a || !b)))
        return SGEMMBOOK_INVALID_POINTER;
    if ((k > 0 && (!sgemmbook_fits(m, lda) || !sgemmbook_fits(k, ldb)))
        || !sgemmbook_fits(m, ldc))
        return SGEMMBOOK_TOO_LARGE;
    return SGEMMBOOK_SUCCESS;
}
#endif
