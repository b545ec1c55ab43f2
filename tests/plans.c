/* plans.c: chapter 14's rules on the CPU, without a GPU.
   plans PTXAS CHOICES: PTXAS is the build's table of ptxas's report on
   ch14.cu (the thin kernels' registers and shared memory), CHOICES the H200's measured
   choices, one "entry m n k choice" a line, tab-separated.  For three
   GPUs' limits (an H200, an A100, an RTX 3090, all three with the
   registers of the sm_90a build's kernels) and each precision, it
   plans the book's suite, 150 drawn shapes (each dimension uniform
   inside a power of two, the power uniform from 1 to 16384) and their
   unaligned variants, and checks every plan; on the H200's limits it
   holds the plans against the choices the GPU made, which checks that
   the limits assumed here are the ones the GPU reported.  Prints one
   line a check; exits 1 if any failed, 2 on bad input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan14.h"

static int passed, failed;

static void expect(int cond, const char *what)
{
    printf("%s - %s\n", cond ? "ok" : "FAIL", what);
    cond ? passed++ : failed++;
}

/* The thin kernels' registers and shared bytes, from the build's table
   of ptxas's report (build/ptxas-ch14.csv: kernel,function,registers,
   smem_bytes,...; the function demangled, as "thin_rows<float, 1, 16>"). */
static int read_uses(const char *csv, struct gpu_limits *g)
{
    FILE *f = fopen(csv, "r");
    char line[1024], type[32];
    int vec, r, regs, smem, found = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        char *p = strstr(line, "\"thin_");
        int which = -1;
        if (!p)
            continue;
        if (sscanf(p, "\"thin_rows<%31[a-z ], %d, %d>\",%d,%d", type, &vec, &r,
                   &regs, &smem) == 5)
            which = r == 1 ? THIN_R1 : r == 4 ? THIN_R4 : THIN_R16;
        else if (sscanf(p, "\"thin_cols<%31[a-z ], %d, %d>\",%d,%d", type, &vec,
                        &r, &regs, &smem) == 5)
            which = r == 1 ? THIN_C1 : r == 4 ? THIN_C4 : THIN_C16;
        if (which < 0)
            continue;
        int bf16 = strcmp(type, "float") != 0;
        g->thin[bf16][vec != 0][which].regs = regs;
        g->thin[bf16][vec != 0][which].smem = smem;
        if (bf16 && which == THIN_R4)          /* BF16's most rows are 4 */
            g->thin[1][vec != 0][THIN_R16] = g->thin[1][vec != 0][THIN_R4];
        found++;
    }
    fclose(f);
    for (int b = 0; b < 2; b++)          /* every kernel's registers found */
        for (int v = 0; v < 2; v++)
            for (int w = 0; w < THIN_KINDS; w++)
                if (g->thin[b][v][w].regs <= 0)
                    return -1;
    return found;
}

struct gpu { const char *name; struct gpu_limits g; };

static struct gpu gpus[3] = {
    { "H200", { 132, 1, 2048, 65536, 32, 233472, 1024, {{{{0}}}} } },
    { "A100", { 108, 0, 2048, 65536, 32, 167936, 1024, {{{{0}}}} } },
    { "RTX 3090", { 82, 0, 1536, 65536, 16, 102400, 1024, {{{{0}}}} } },
};

enum { E_FP32, E_TF32, E_TF32_DIRECT, E_X3, E_BF16, E_BF16_DIRECT, E_THIN_ALONE, PRECISIONS };
static const char *const entry[PRECISIONS] = {
    "fp32", "tf32", "tf32-direct", "3xtf32", "bf16", "bf16-direct", "fp32-thin" };

static struct gemm_plan plan(int which, const struct gemm_shape *s,
                             const struct gpu_limits *g)
{
    switch (which) {
    case E_FP32: return plan_fp32(s, g);
    case E_TF32: return plan_tf32(s, g);
    case E_TF32_DIRECT: return plan_tf32_rules(s, g, 1);
    case E_X3: return plan_3xtf32(s, g);
    case E_BF16: return plan_bf16(s, g);
    case E_BF16_DIRECT: return plan_bf16_rules(s, g, 1);
    default: return plan_thin(s, 4, g);
    }
}

static int same(const struct gemm_plan *p, const struct gemm_plan *q)
{
    return p->kernel == q->kernel && p->size == q->size && p->copy_a == q->copy_a
        && p->copy_b == q->copy_b && p->vec == q->vec && p->rows == q->rows
        && p->threads == q->threads && p->blocks == q->blocks
        && p->splits == q->splits && p->kslice == q->kslice && p->kind == q->kind
        && p->tall == q->tall && p->tiles == q->tiles && p->steps == q->steps
        && p->wave.tiles == q->wave.tiles && p->wave.slice == q->wave.slice
        && p->wave.blocks == q->wave.blocks && p->wave.time == q->wave.time
        && !strcmp(p->what, q->what);
}

static int in(int x, const int *set, int n)
{
    for (int i = 0; i < n; i++)
        if (set[i] == x)
            return 1;
    return 0;
}

/* What every plan must be: empty string if it is, else why not. */
static const char *wrong(int which, const struct gemm_plan *p,
                         const struct gemm_shape *s, const struct gpu_limits *g)
{
    static const int rows[] = { 16, 32, 64, 128, 192, 256 };
    int k = s->k, fp32 = which == E_FP32 || which == E_THIN_ALONE;
    int bf16 = which == E_BF16 || which == E_BF16_DIRECT;
    struct gemm_plan again = plan(which, s, g);
    if (!same(&again, p))
        return "the same question gave another plan";
    if ((s->m == 0 || s->n == 0 || k == 0) != (p->kernel == PLAN_EMPTY))
        return p->kernel == PLAN_EMPTY ? "an empty plan of a product that is not"
                                       : "an empty product with a kernel";
    if (p->kernel == PLAN_EMPTY)
        return "";
    if (p->splits < 1)
        return "fewer than one slice";
    if (!g->hopper && (p->kernel == PLAN_DIRECT || p->kernel == PLAN_HOPPER))
        return "a Hopper kernel on a GPU without one";
    if (fp32 && p->kernel >= PLAN_DIRECT)
        return "FP32 on the tensor cores";
    if (which == E_THIN_ALONE && p->kernel > PLAN_THIN_COLS)
        return "the thin entry without a thin kernel";
    if (which == E_X3 && (p->kernel == PLAN_HOPPER || p->kernel == PLAN_MMA
                        || (p->kernel == PLAN_DIRECT && p->kind != DIRECT_X3)))
        return "3xTF32 on a kernel of less accuracy";
    if (p->kernel == PLAN_MMA && g->hopper)
        return "chapter 10's product on a Hopper GPU";
    if (p->kernel == PLAN_MMA_X3 && (g->hopper || which != E_X3))
        return "chapter 11's 3xTF32 on a Hopper GPU or for another precision";
    if (p->kernel == PLAN_MMA_X3
        && (long)CEIL_DIV(s->m, 128) * CEIL_DIV(s->n, 128) < g->sms)
        return "chapter 11's 3xTF32 in less than a wave of its tiles";
    if ((which == E_TF32 || which == E_TF32_DIRECT) && p->kernel == PLAN_DIRECT
        && p->kind != DIRECT_TF32)
        return "TF32 on another precision's kernel";
    if (bf16 && p->kernel == PLAN_DIRECT
        && p->kind != DIRECT_BF16 && p->kind != DIRECT_NARROW)
        return "BF16 on another precision's kernel";
    if (p->kernel == PLAN_THIN_ROWS || p->kernel == PLAN_THIN_COLS) {
        int step = p->kernel == PLAN_THIN_ROWS ? THIN_KC : 4 * THIN_KC;
        int b = p->size == 2, cols = p->kernel == PLAN_THIN_COLS;
        int idx = (p->rows == 1 ? THIN_R1 : p->rows == 4 ? THIN_R4 : THIN_R16)
                  + (cols ? THIN_C1 - THIN_R1 : 0);
        int held = resident(g->thin[b][p->vec][idx], p->threads, g);
        if (p->threads < 32 || p->threads > THIN_THREADS || p->threads % 32)
            return "a thin block of a size the kernel does not take";
        if (held < 1)
            return "a thin kernel that the SM cannot hold";
        if (cols && !(p->rows == (s->n <= 1 ? 1 : s->n <= 4 ? 4 : THIN)
                      && p->blocks == CEIL_DIV(s->n, p->rows)
                                      * CEIL_DIV(s->m, 4 * THIN_THREADS / 32)))
            return "columns of a width the product does not need";
        if (p->kslice % step || (long)p->splits * p->kslice < k
            || (long)(p->splits - 1) * p->kslice >= k)
            return "slices that do not cover K once";
        if (p->splits > 1 && (long)p->blocks * (p->splits - 1) >= (long)held * g->sms)
            return "a split past one wave of blocks";
        if (p->splits > 65535 || p->blocks < 1)
            return "a grid the GPU cannot launch";
        if (p->vec && !(p->kernel == PLAN_THIN_ROWS
                        ? rows_on(s->align_b, s->ldb, p->size, 16)
                        : rows_on(s->align_a, s->lda, p->size, 16)))
            return "16-byte loads of rows that are not on 16 bytes";
    }
    if (p->kernel == PLAN_DIRECT) {
        if (!in(p->rows, rows, 6) || (p->kind == DIRECT_NARROW && p->rows > NARROW_COLS)
            || (p->kind == DIRECT_X3 && p->rows > 128))
            return "a tile the kernel has no instance for";
        if (p->wave.tiles > p->tiles || p->wave.blocks > g->sms || p->wave.blocks < 1)
            return "a last wave of more blocks than SMs";
        if (p->wave.tiles && (p->wave.slice < 1 || p->wave.slice >= p->steps))
            return "a split of the last wave that does not split";
    }
    if ((p->kernel == PLAN_HOPPER || p->kernel == PLAN_SPLIT)
        && p->splits > CEIL_DIV(k, p->kernel == PLAN_SPLIT ? 16
                                   : p->size == 2 ? 64 : 32))
        return "more slices than steps";
    if ((p->kernel == PLAN_DIRECT || p->kernel == PLAN_HOPPER) && !*p->what)
        return "a tensor-core plan that does not say its product";
    if (p->kernel == PLAN_HOPPER && p->size == 2
        && ((!p->copy_a && !rows_on(s->align_a, s->lda, 2, 16))
            || (!p->copy_b && !rows_on(s->align_b, s->ldb, 2, 16))))
        return "chapter 12's BF16 product on rows that are not on 16 bytes";
    if (p->copy_a && rows_on(s->align_a, s->lda, p->size, 32))
        return "a copy of A whose rows are aligned";
    if (p->copy_b && rows_on(s->align_b, s->ldb, p->size, 16))
        return "a copy of B whose rows are aligned";
    if (!p->copy_a && !rows_on(s->align_a, s->lda, p->size, 16)
        && p->kernel == PLAN_DIRECT && p->kind != DIRECT_X3)
        return "the TMA on rows of A that are not on 16 bytes";
    if (!p->copy_b && !rows_on(s->align_b, s->ldb, p->size, 16)
        && p->kernel == PLAN_DIRECT)
        return "the TMA on rows of B that are not on 16 bytes";
    return "";
}

static unsigned long long state = 0x9e3779b97f4a7c15ull;

static int drawn(void)   /* log-uniform over [1, 32768] */
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    int e = (int)(state % 15);
    return 1 << e | (int)((state >> 20) % (1u << e));
}

int main(int argc, char **argv)
{
    enum { MOST = 1000 };
    static struct gemm_shape shapes[MOST];
    int count = 0, bad = 0, compared = 0, agreed = 0;
    char why[600] = "", line[1024];
    FILE *f;
    if (argc == 5 && !strcmp(argv[1], "--thin")) {
        /* plans --thin PTXAS SMS MxNxK: the FP32 thin plan the
           H200's limits with SMS SMs give (fp32-thin, as the lab's
           grader runs it with --sms): its kernel and the steps of
           THIN_KC a block takes */
        struct gpu_limits g = gpus[0].g;
        int m, n, k;
        if (read_uses(argv[2], &g) < 22 || sscanf(argv[4], "%dx%dx%d", &m, &n, &k) != 3
            || (g.sms = atoi(argv[3])) < 1) {
            fprintf(stderr, "plans: --thin PTXAS SMS MxNxK\n");
            return 2;
        }
        struct gemm_shape s = { m, n, k, k, n, n, 4, 4, 4 };
        struct gemm_plan p = plan_thin(&s, 4, &g);
        printf("%s %d\n", p.kernel == PLAN_THIN_ROWS ? "thin_rows"
               : p.kernel == PLAN_THIN_COLS ? "thin_cols" : "other",
               p.kslice / (p.kernel == PLAN_THIN_ROWS ? THIN_KC : 4 * THIN_KC));
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: plans PTXAS CHOICES | plans --thin PTXAS SMS MxNxK\n");
        return 2;
    }
    for (int i = 0; i < 3; i++)
        if (read_uses(argv[1], &gpus[i].g) < 22) {
            fprintf(stderr, "plans: %s: no report of the 22 thin kernels' registers\n",
                    argv[1]);
            return 2;
        }
    /* the suite */
    f = fopen("shapes/suite.csv", "r");
    if (!f) {
        fprintf(stderr, "plans: shapes/suite.csv: cannot read\n");
        return 2;
    }
    while (fgets(line, sizeof line, f) && count < MOST) {
        int m, n, k;
        char *p = strchr(line, ',');
        if (p && sscanf(p, ",%d,%d,%d", &m, &n, &k) == 3) {
            struct gemm_shape s = { m, n, k, k, n, n, 256, 256, 256 };
            shapes[count++] = s;
        }
    }
    fclose(f);
    expect(count >= 40, "the suite's shapes are read");
    /* drawn shapes, each also unaligned: odd leading dimensions, and
       addresses 4 bytes past 16 */
    for (int i = 0; i < 150; i++) {
        int m = drawn(), n = drawn(), k = drawn();
        struct gemm_shape s = { m, n, k, k, n, n, 256, 256, 256 };
        struct gemm_shape u = { m, n, k, k | 1, n | 1, n | 1, 4, 4, 4 };
        struct gemm_shape w = { m, n, k, k + 8, n + 8, n + 4, 16, 16, 16 };
        shapes[count++] = s;
        shapes[count++] = u;
        shapes[count++] = w;
    }
    /* and empty products */
    {
        static const int z[][3] = { { 0, 5, 7 }, { 5, 0, 7 }, { 5, 7, 0 },
                                    { 0, 0, 0 }, { 1, 1, 0 }, { 4096, 4096, 0 } };
        for (int i = 0; i < 6; i++) {
            struct gemm_shape s = { z[i][0], z[i][1], z[i][2], z[i][2] + 1,
                                    z[i][1] + 1, z[i][1] + 1, 256, 256, 256 };
            shapes[count++] = s;
        }
    }
    int x3_mma = 0, x3_fp32 = 0;  /* 3xTF32 before Hopper: which kernels */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < count; j++)
            for (int w = 0; w < PRECISIONS; w++) {
                struct gemm_plan p = plan(w, &shapes[j], &gpus[i].g);
                if (w == E_X3 && !gpus[i].g.hopper && p.kernel != PLAN_EMPTY)
                    p.kernel == PLAN_MMA_X3 ? x3_mma++ : x3_fp32++;
                const char *e = wrong(w, &p, &shapes[j], &gpus[i].g);
                char said[160];
                describe_plan(&p, said, sizeof said);
                if (*e && !bad++)
                    snprintf(why, sizeof why, "%s, %s at %dx%dx%d (ld %d %d %d): %s (%s)",
                             gpus[i].name, entry[w], shapes[j].m, shapes[j].n,
                             shapes[j].k, shapes[j].lda, shapes[j].ldb,
                             shapes[j].ldc, e, said);
            }
    snprintf(line, sizeof line, "every plan of %d shapes, 7 entries, 3 GPUs "
             "is whole%s%s", count, bad ? ": " : "", why);
    expect(!bad, line);
    snprintf(line, sizeof line, "3xTF32 before Hopper runs chapter 11's kernel "
             "at %d plans and the FP32 dispatcher at %d", x3_mma, x3_fp32);
    expect(x3_mma > 0 && x3_fp32 > 0, line);
    /* the GPU's own choices */
    f = fopen(argv[2], "r");
    if (!f) {
        fprintf(stderr, "plans: %s: cannot read\n", argv[2]);
        return 2;
    }
    why[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        char name[32], choice[200];
        int m, n, k, w;
        line[strcspn(line, "\n")] = '\0';
        if (sscanf(line, "%31[^\t]\t%d\t%d\t%d\t%199[^\n]", name, &m, &n, &k,
                   choice) != 5)
            continue;
        for (w = 0; w < PRECISIONS && strcmp(entry[w], name); w++)
            ;
        if (w == PRECISIONS)
            continue;
        struct gemm_shape s = { m, n, k, k, n, n, 256, 256, 256 };
        struct gemm_plan p = plan(w, &s, &gpus[0].g);
        char said[160];
        describe_plan(&p, said, sizeof said);
        compared++;
        if (!strcmp(said, choice))
            agreed++;
        else if (!why[0])
            snprintf(why, sizeof why, ": %s at %dx%dx%d: the GPU chose \"%s\", "
                     "the plan says \"%s\"", name, m, n, k, choice, said);
    }
    fclose(f);
    snprintf(line, sizeof line, "the H200's plans are the choices it made, "
             "%d of %d%s", agreed, compared, why);
    expect(compared >= 100 && agreed == compared, line);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
