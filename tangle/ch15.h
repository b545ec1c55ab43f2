/* ch15.h: the Ozaki scheme II of chapter 15. */
#ifndef CH15_H
#define CH15_H
#include <cuda_runtime_api.h>
#include "ch12.h"

enum { MODULI_MAX = 12, OZAKI_MOST = 10 };
/* C = alpha A B + beta C from nmod INT8 products; with marks, five
   events recorded around the phases (scaling, residues, products,
   reconstruction). */
void ozaki_gemm(int nmod, int m, int n, int k, float alpha,
                const float *a, int lda, const float *b, int ldb,
                float beta, float *c, int ldc, cudaEvent_t *marks);
void ozaki_reserve(int nmod, int m, int n, int k);
void ozaki_release(void);
#endif
