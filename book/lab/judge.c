/* judge.c: the grader's verdict on one check of a lab (build/lab/judge,
   which links no student code).  It makes the check's A, B and C0 again
   from its seed (lab.h), computes alpha AB + beta C0 in float64 on the
   CPU (the harness's reference_product) or, past 2^26 multiply-adds, on
   the GPU with its own cuBLAS, and verifies the C that the lab's runner
   wrote (labrun.c) with the harness's own tolerance for the entry's
   precision, which the grader takes from the book's program, not from
   the student's, and its measures but one: the normwise error is taken
   against the norm of the elements' scales, ||C - R||_F / ||S||_F, not
   of the reference, ||R||_F.  For a large product of random inputs the
   two norms are about equal; for a product of one or a few elements R
   may cancel to nearly nothing while S does not, and a grading's fresh
   seed would then fail a right kernel by chance (chapter 10's own TF32
   kernel failed so at 1x1x300).  C's padding must hold what it held before
   the run: nothing outside m x n may change.  Prints one line, "ok" or
   "WRONG" with the error, the worst element or the first changed
   padding element.  Exit: 0 correct, 1 wrong (a missing or short file
   too), 2 bad options, 3 no GPU for a large product. */
#include "harness.h"
#include "lab.h"
#include <math.h>
#include <cublas_v2.h>

static void cublas_ok(cublasStatus_t s, const char *call)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "judge: cuBLAS error %d in %s\n", (int)s, call);
        exit(2);
    }
}

/* out = A B (square: of the elements' squares), m x n, in float64 */
static void dgemm(cublasHandle_t h, const float *a, int lda,
                  const float *b, int ldb, int m, int n, int k,
                  int square, double *out)
{
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    double *wa = host(na * sizeof *wa), *wb = host(nb * sizeof *wb);
    for (int i = 0; i < m; i++)
        for (int p = 0; p < k; p++) {
            double v = a[(size_t)i * lda + p];
            wa[(size_t)i * k + p] = square ? v * v : v;
        }
    for (int p = 0; p < k; p++)
        for (int j = 0; j < n; j++) {
            double v = b[(size_t)p * ldb + j];
            wb[(size_t)p * n + j] = square ? v * v : v;
        }
    double *da, *db, *dc;
    const double one = 1.0, zero = 0.0;
    CUDA_CHECK(cudaMalloc((void **)&da, na * sizeof *da));
    CUDA_CHECK(cudaMalloc((void **)&db, nb * sizeof *db));
    CUDA_CHECK(cudaMalloc((void **)&dc, nc * sizeof *dc));
    CUDA_CHECK(cudaMemcpy(da, wa, na * sizeof *da, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, wb, nb * sizeof *db, cudaMemcpyHostToDevice));
    /* row-major C = A B is column-major C^T = B^T A^T */
    cublas_ok(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, db, n,
                          da, k, &zero, dc, n), "cublasDgemm");
    CUDA_CHECK(cudaMemcpy(out, dc, nc * sizeof *dc, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(da));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dc));
    free(wa);
    free(wb);
}

int main(int argc, char **argv)
{
    struct check c;
    harness_name(argv[0]);
    if (!lab_parse(argc, argv, &c, "--in"))
        return 2;
    enum precision prec = FP32;
    const char *names[] = { "fp32", "tf32", "bf16", "3xtf32" };
    const enum precision values[] = { FP32, TF32, BF16, FP32_3XTF32 };
    int found = 0;
    for (int i = 0; i < 4; i++)
        if (c.precision && !strcmp(c.precision, names[i])) {
            prec = values[i];
            found = 1;
        }
    if (!found) {
        fprintf(stderr, "%s: --precision wants fp32, tf32, bf16 or 3xtf32\n",
                argv[0]);
        return 2;
    }
    int m = c.m, n = c.n, k = c.k, runs = c.beta != 0.0f ? 2 : 1;
    int lda = k + c.pad, ldb = n + c.pad, ldc = n + c.pad;
    size_t na = (size_t)m * lda, nb = (size_t)k * ldb, nc = (size_t)m * ldc;
    size_t nr = (size_t)m * n;
    /* what the runner wrote */
    FILE *f = fopen(c.file, "rb");
    unsigned int head[6];
    float *got = host(runs * nc * sizeof *got);
    if (!f || fread(head, sizeof head, 1, f) != 1 || head[0] != LAB_MAGIC
        || head[1] != (unsigned)m || head[2] != (unsigned)n
        || head[3] != (unsigned)k || head[4] != (unsigned)ldc
        || head[5] != (unsigned)runs
        || fread(got, sizeof *got, runs * nc, f) != runs * nc
        || fgetc(f) != EOF) {
        printf("WRONG: the lab's program wrote no C of this check\n");
        return 1;
    }
    fclose(f);
    /* the operands, again, and the reference */
    float *a = host(na * sizeof *a), *b = host(nb * sizeof *b);
    float *c0 = host(nc * sizeof *c0);
    fill_random(a, na, SEED_A(c.seed));
    fill_random(b, nb, SEED_B(c.seed));
    fill_random(c0, nc, SEED_C0(c.seed));
    double *ref = host(nr * sizeof *ref), *scale = host(nr * sizeof *scale);
    if ((double)m * n * k <= 67108864.0) {
        /* small: the harness's own product on the CPU */
        reference_product(m, n, k, a, lda, b, ldb, ref, scale);
    } else {
        int count = 0;
        if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
            fprintf(stderr, "%s: no CUDA GPU is available\n", argv[0]);
            return 3;
        }
        cublasHandle_t h;
        cublas_ok(cublasCreate(&h), "cublasCreate");
        dgemm(h, a, lda, b, ldb, m, n, k, 0, ref);
        dgemm(h, a, lda, b, ldb, m, n, k, 1, scale);
        cublas_ok(cublasDestroy(h), "cublasDestroy");
        for (size_t i = 0; i < nr; i++)
            scale[i] = sqrt(scale[i]);
    }
    for (int r = 0; r < runs; r++) {
        float *cr = got + r * nc;
        double *rr = host(nr * sizeof *rr), *sr = host(nr * sizeof *sr);
        for (size_t i = 0; i < nr; i++) {
            double b0 = r ? (double)c.beta * c0[i / n * ldc + i % n] : 0.0;
            rr[i] = c.alpha * ref[i] + b0;
            sr[i] = fabs(c.alpha) * scale[i] + fabs(b0);
        }
        /* the padding: the poison (all bits set) or C0's, unchanged */
        for (int i = 0; i < m; i++)
            for (int j = n; j < ldc; j++) {
                size_t ij = (size_t)i * ldc + j;
                unsigned int x, want = 0xffffffffu;
                memcpy(&x, &cr[ij], sizeof x);
                if (r)
                    memcpy(&want, &c0[ij], sizeof want);
                if (x != want) {
                    printf("WRONG: C's padding changed at row %d, column %d "
                           "(beta %g): the kernel writes outside the %dx%d "
                           "product\n", i, j, r ? c.beta : 0.0, m, n);
                    return 1;
                }
            }
        struct verdict v = verify(cr, ldc, rr, sr, m, n, k, prec);
        double num = 0, den = 0;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                size_t ij = (size_t)i * n + j;
                double x = cr[(size_t)i * ldc + j];
                if (isfinite(x))
                    num += (x - rr[ij]) * (x - rr[ij]);
                den += sr[ij] * sr[ij];
            }
        v.err = den > 0 ? sqrt(num / den) : sqrt(num);
        v.ok = v.nonfinite == 0 && v.err <= v.tol && v.max_err <= v.tol_max;
        if (!v.ok) {
            printf("WRONG: error %.2g (tolerance %.2g), worst element "
                   "C[%d][%d] off by %.2g of its scale (tolerance %.2g), "
                   "%ld not finite (beta %g)\n", v.err, v.tol, v.worst_i,
                   v.worst_j, v.max_err, v.tol_max, v.nonfinite,
                   r ? c.beta : 0.0);
            return 1;
        }
        if (r == runs - 1)
            printf("ok: error %.2g (tolerance %.2g)\n", v.err, v.tol);
        free(rr);
        free(sr);
    }
    return 0;
}
