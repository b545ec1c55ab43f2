/* plan14.h: chapter 14's rules, from a product's shape and a GPU's
   limits to a plan.  C99; no state, no call to the GPU. */
#ifndef PLAN14_H
#define PLAN14_H
#include <stdio.h>

#ifndef CEIL_DIV
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
#endif

static inline int imin(int a, int b) { return a < b ? a : b; }

enum { THIN = 16, THIN_THREADS = 256, THIN_KC = 64 };
struct gemm_shape {
    int m, n, k, lda, ldb, ldc;
    int align_a, align_b, align_c;  /* the power of two each address is a multiple of */
};

enum { THIN_R1, THIN_R4, THIN_R16,                 /* the thin kernels: rows */
       THIN_C1, THIN_C4, THIN_C16, THIN_KINDS };   /* and columns */

struct kernel_use { int regs, smem; };  /* a thread's registers, a block's bytes */

struct gpu_limits {
    int sms, hopper;                    /* SMs; TMA and wgmma (sm_90a) */
    int threads_per_sm, regs_per_sm, blocks_per_sm;
    int smem_per_sm, smem_reserved;     /* bytes; the system's, per block */
    struct kernel_use thin[2][2][THIN_KINDS];   /* [BF16][16-byte loads][THIN_R1...] */
};

static inline int rows_on(int align, int ld, int size, int bytes)
{
    return align % bytes == 0 && (long)ld * size % bytes == 0;
}
enum { JOIN_RADIX = 4 };        /* slices a round of the join adds into one */

struct last_wave {
    int tiles;          /* how many tiles, the last ones, are split */
    int slice;          /* the steps of a slice */
    float *partials;    /* one tile of sums per block */
    int *flags;         /* per block: the launch whose sums are there */
    int epoch;          /* this launch */
};
enum { READ_COST = 2,            /* stages per slice the first block reads */
       SPLIT_GAIN = 10 };         /* a split saves at least 1/SPLIT_GAIN */

struct wave_plan { int tiles, slice, blocks; long time; };

static inline int join_reads(int slices)   /* the first block's, all rounds */
{
    int reads = 0;
    for (int d = 1; d < slices; d *= JOIN_RADIX)
        reads += imin(JOIN_RADIX - 1, CEIL_DIV(slices, d) - 1);
    return reads;
}

static inline struct wave_plan plan_waves(int tiles, int steps, int sms)
{
    int rest = tiles % sms;
    struct wave_plan p = { 0, steps, imin(tiles, sms),
                           (long)CEIL_DIV(tiles, sms) * steps };
    long best = steps * (SPLIT_GAIN - 1) / SPLIT_GAIN;   /* save a tenth */
    for (int s = 2; rest && s * rest <= sms && s <= steps; s++) {
        int slice = CEIL_DIV(steps, s), slices = CEIL_DIV(steps, slice);
        long time = slice + READ_COST * join_reads(slices);
        if (time < best) {
            best = time;
            p.tiles = rest;
            p.slice = slice;
            p.blocks = tiles < sms ? rest * slices : sms;
        }
    }
    if (p.tiles)
        p.time += best - steps;
    return p;
}
enum plan_kernel {
    PLAN_EMPTY,                         /* M, N or K zero */
    PLAN_THIN_ROWS, PLAN_THIN_COLS,                  /* the thin kernels */
    PLAN_SPLIT, PLAN_STREAMK, PLAN_WIDE, PLAN_TUNED, /* chapter 9's tiles */
    PLAN_DIRECT,                        /* the kernel without passes */
    PLAN_HOPPER,                        /* chapter 12's product */
    PLAN_MMA,                           /* chapter 10's, before Hopper */
    PLAN_MMA_X3                         /* chapter 11's 3xTF32, before Hopper */
};

enum { DIRECT_BF16, DIRECT_TF32, DIRECT_X3, DIRECT_NARROW, NARROW_COLS = 64 };

struct gemm_plan {
    enum plan_kernel kernel;
    int size;                  /* an operand's bytes a number: 4, or 2 (BF16) */
    int copy_a, copy_b;        /* aligned copies first */
    int vec;                   /* thin: 16-byte loads of the streamed operand */
    int rows, threads, blocks; /* thin: R and its launch; direct: the tile's rows */
    int splits, kslice;        /* slices of K (1: none); a thin slice's k */
    int kind, tall;            /* which product without passes; 256-row tiles */
    int tiles, steps;          /* the product's tiles and their steps */
    struct wave_plan wave;     /* direct: the split of the last wave */
    const char *what;          /* the product, for describe_plan */
};

static inline struct gemm_plan plan_of(enum plan_kernel kernel, int size)
{
    struct gemm_plan p = { kernel, size, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0,
                           { 0, 0, 0, 0 }, "" };
    return p;
}
static inline int empty(const struct gemm_shape *s)
{
    return s->m == 0 || s->n == 0 || s->k == 0;
}
static inline int resident(struct kernel_use u, int threads,
                           const struct gpu_limits *g)
{
    int warps = CEIL_DIV(threads, 32);
    int per_warp = CEIL_DIV(u.regs * 32, 256) * 256;
    int by_regs = g->regs_per_sm / 4 / per_warp * 4 / warps;
    int by_threads = g->threads_per_sm / 32 / warps;
    int by_smem = g->smem_per_sm / (u.smem + g->smem_reserved);
    return imin(imin(by_regs, by_threads), imin(by_smem, g->blocks_per_sm));
}

static inline int split_for(int blocks, int threads, int held, int k,
                            int step, int sms)
{
    int steps = CEIL_DIV(k, step);
    int most = 4 * THIN_THREADS / threads * sms;   /* 1024 threads an SM */
    int splits = CEIL_DIV(imin(held, most), blocks);   /* held: on all SMs */
    return splits < 1 ? 1 : splits > steps ? steps : splits;
}
static inline struct gemm_plan plan_thin(const struct gemm_shape *s,
                                         int size, const struct gpu_limits *g)
{
    int m = s->m, n = s->n, w = 16 / size, bf16 = size == 2, step;
    struct gemm_plan p = plan_of(m <= n ? PLAN_THIN_ROWS : PLAN_THIN_COLS,
                                 size);
    struct kernel_use use;
    if (empty(s))
        return plan_of(PLAN_EMPTY, size);
    if (m <= n) {
        int most = bf16 ? 4 : THIN;            /* BF16: 4 rows */
        p.vec = rows_on(s->align_b, s->ldb, size, 16);
        p.rows = m <= 1 ? 1 : m <= 4 ? 4 : most;
        p.threads = imin(4 * THIN_THREADS / w,
                         CEIL_DIV(CEIL_DIV(n, w), 32) * 32);
        p.blocks = CEIL_DIV(m, p.rows) * CEIL_DIV(n, w * p.threads);
        use = g->thin[bf16][p.vec][p.rows == 1 ? THIN_R1
                                  : p.rows == 4 ? THIN_R4 : THIN_R16];
        step = THIN_KC;
    } else {
        p.vec = rows_on(s->align_a, s->lda, size, 16);
        p.threads = THIN_THREADS;
        p.rows = n <= 1 ? 1 : n <= 4 ? 4 : THIN;   /* here: the columns */
        p.blocks = CEIL_DIV(n, p.rows) * CEIL_DIV(m, 4 * THIN_THREADS / 32);
        use = g->thin[bf16][p.vec][p.rows == 1 ? THIN_C1
                                  : p.rows == 4 ? THIN_C4 : THIN_C16];
        step = 4 * THIN_KC;
    }
    p.splits = split_for(p.blocks, p.threads,
                         resident(use, p.threads, g) * g->sms, s->k, step,
                         g->sms);
    p.kslice = CEIL_DIV(CEIL_DIV(s->k, p.splits), step) * step;
    p.splits = CEIL_DIV(s->k, p.kslice);
    return p;
}
enum { SPLIT_SAVES = 16, X3_SHORT_K = 192, X3_FEW = 64,
       SLICE_STEPS = 16, SLICE_STAGES = 8 };   /* the shortest slices */

static inline int slices_for(int tiles, int per_sm, int steps, int floor,
                             int sms)
{
    int splits = per_sm * sms / tiles;          /* one wave of blocks */
    if (splits > steps / floor)
        splits = steps / floor;                 /* slices long enough */
    if (splits < 2)
        return 1;
    int slice = CEIL_DIV(steps, splits);
    return steps - slice >= SPLIT_SAVES ? CEIL_DIV(steps, slice) : 1;
}
enum { UNIT_BF16 = 10, UNIT_TF32 = 18 };

static inline int wave_slices(int m, int n, int steps, int tall, int cost,
                              int sms)
{
    int half = CEIL_DIV(m, 128) * CEIL_DIV(n, 128);
    int tiles = tall ? CEIL_DIV(m, 256) * CEIL_DIV(n, 128) : half;
    long whole = (long)CEIL_DIV(tiles, sms) * steps * (tall ? 7 : 4) / 4;
    long best = whole * (SPLIT_GAIN - 1) / SPLIT_GAIN;   /* save a tenth */
    int splits = 1;
    for (int s = 2; s <= steps / SLICE_STAGES; s++) {
        int slice = CEIL_DIV(steps, s), units = half * CEIL_DIV(steps, slice);
        long time = (long)CEIL_DIV(units, sms) * (slice + cost);
        if (time < best) {
            best = time;
            splits = CEIL_DIV(steps, slice);
        }
    }
    return splits;
}
static inline int direct_rows(int m, int most)   /* the fewest rows that hold m */
{
    int tn = 16;
    while (tn < m && tn < most)
        tn *= 2;
    return tn;
}

static const int tall_rows[3] = { 256, 192, 128 };
static const int tall_cost[3] = { 14, 11, 8 };   /* eighths of a 128-row stage */

static inline int direct_tall(int m, int n, int steps, int sms)   /* which of tall_rows */
{
    int cols = CEIL_DIV(n, 128), best = 0;
    long least = 0;
    for (int i = 0; i < 3; i++) {
        long t = tall_cost[i]
                 * plan_waves(CEIL_DIV(m, tall_rows[i]) * cols, steps, sms).time;
        if (i == 0 || t < least) {
            best = i;
            least = t;
        }
    }
    return best;
}

static inline struct gemm_plan plan_direct(const struct gemm_shape *s,
                                           int kind, const char *what,
                                           const struct gpu_limits *g)
{
    int narrow = kind == DIRECT_NARROW;
    struct gemm_plan p = plan_of(PLAN_DIRECT,
                                 kind == DIRECT_BF16 || narrow ? 2 : 4);
    int m = s->m, n = s->n, steps = CEIL_DIV(s->k, 128 / p.size);
    p.kind = kind;
    p.rows = narrow ? direct_rows(n, NARROW_COLS)
           : kind != DIRECT_X3 && m > 128
           ? tall_rows[direct_tall(m, n, steps, g->sms)]
           : direct_rows(m, 128);
    p.tiles = CEIL_DIV(m, narrow ? 128 : p.rows) * CEIL_DIV(n, narrow ? p.rows : 128);
    p.steps = steps;
    p.wave = plan_waves(p.tiles, steps, g->sms);
    p.what = what;
    return p;
}
static inline int tall_tiles(int m, int n, const struct gpu_limits *g)
{
    return CEIL_DIV(m, 256) * CEIL_DIV(n, 128) > g->sms / 2;
}

static inline struct gemm_plan plan_hopper(const struct gemm_shape *s,
                                           int size, int bk, int tall,
                                           int cost, const char *what,
                                           const struct gpu_limits *g)
{
    struct gemm_plan p = plan_of(PLAN_HOPPER, size);
    int steps = CEIL_DIV(s->k, bk);
    p.tall = tall;
    p.splits = slices_for(CEIL_DIV(s->m, 128) * CEIL_DIV(s->n, 128), 1,
                          steps, SLICE_STAGES, g->sms);
    if (p.splits == 1)
        p.splits = wave_slices(s->m, s->n, steps, tall, cost, g->sms);
    p.what = what;
    return p;
}
static inline int thin(int m, int n, int most)
{
    return m <= most || n <= most;
}
enum { ALIGN_PAYS = 1000, RATE_WIDE = 98, RATE_STREAMK = 93,
       STREAMK_STEPS = 32, SMALL_COLS = 64 };

static inline int fp32_slices(int m, int n, int k, const struct gpu_limits *g)
{
    return slices_for(CEIL_DIV(m, 128) * CEIL_DIV(n, 64), 2,
                      CEIL_DIV(k, 16), SLICE_STEPS, g->sms);
}

enum { STREAM, WAVES, WAVES_SPLIT };

static inline int filled(int m, int n, int k, int bm, int bn, int how,
                         const struct gpu_limits *g)
{
    int sms = g->sms, tx = CEIL_DIV(n, bn), tiles = CEIL_DIV(m, bm) * tx;
    int last = tiles % sms, rows = CEIL_DIV(last, tx);   /* as run_waves */
    int splits = last ? sms / (rows * tx) : 1;
    long held = how == STREAM ? tiles : (long)CEIL_DIV(tiles, sms) * sms;
    if (splits > k / 256)
        splits = k / 256;
    if (how == WAVES_SPLIT && tiles >= sms && 2 * last <= sms && splits >= 2)
        held = (long)CEIL_DIV(tiles - rows * tx, sms) * sms + sms / splits;
    return (int)(100 * (long)m * n / (held * bm * bn));
}

static inline int streamk_pays(int m, int n, int k, const struct gpu_limits *g)
{
    return (long)CEIL_DIV(m, 128) * CEIL_DIV(n, 128) * CEIL_DIV(k, 16)
           >= (long)STREAMK_STEPS * g->sms;
}

enum { THIN_K = 8, SHORT_K = 192 };   /* from the first drawn set */

static inline struct gemm_plan plan_fp32(const struct gemm_shape *s,
                                         const struct gpu_limits *g)
{
    int m = s->m, n = s->n, k = s->k;
    struct gemm_plan p = plan_of(PLAN_SPLIT, 4);
    if (empty(s))
        return plan_of(PLAN_EMPTY, 4);
    if (thin(m, n, THIN) || (k <= THIN_K && m <= n))
        return plan_thin(s, 4, g);
    p.splits = fp32_slices(m, n, k, g);
    p.tiles = CEIL_DIV(m, 128) * CEIL_DIV(n, 64);
    if (n <= SMALL_COLS || k < SHORT_K
        || (p.splits > 1 && !streamk_pays(m, n, k, g)))
        return p;
    p.splits = 1;
    int large = filled(m, n, k, 256, 128, WAVES_SPLIT, g);
    int wide = filled(m, n, k, 128, 256, WAVES, g) * RATE_WIDE / 100;
    int stream = streamk_pays(m, n, k, g)
                 ? filled(m, n, k, 128, 128, STREAM, g) * RATE_STREAMK / 100 : 0;
    if (stream > large && stream >= wide) {
        p.kernel = PLAN_STREAMK;
        return p;
    }
    int need_a = !rows_on(s->align_a, s->lda, 4, 16);
    int need_b = !rows_on(s->align_b, s->ldb, 4, 16);
    if ((need_a || need_b) && (!need_a || n >= ALIGN_PAYS)
        && (!need_b || m >= ALIGN_PAYS)) {
        p.copy_a = need_a;
        p.copy_b = need_b;
    }
    p.kernel = wide > large ? PLAN_WIDE : PLAN_TUNED;
    return p;
}
enum { PASSES_PAY = 3000 };

static inline int without_passes(int m, int n)
{
    return (long)PASSES_PAY * (m + n) >= (long)m * n;
}

static inline struct gemm_plan plan_tf32_rules(const struct gemm_shape *s,
                                               const struct gpu_limits *g,
                                               int direct)
{
    int m = s->m, n = s->n;
    if (empty(s))
        return plan_of(PLAN_EMPTY, 4);
    if (m == 1 || n <= THIN || (s->k <= THIN_K && m <= n))
        return plan_thin(s, 4, g);
    if (!g->hopper)
        return plan_of(PLAN_MMA, 4);
    if (rows_on(s->align_a, s->lda, 4, 16) && rows_on(s->align_b, s->ldb, 4, 16)
        && (direct || without_passes(m, n)))
        return plan_direct(s, DIRECT_TF32, "TF32 without passes", g);
    return plan_hopper(s, 4, 32, 1, UNIT_TF32, "chapter 12's TF32 product", g);
}

static inline struct gemm_plan plan_tf32(const struct gemm_shape *s,
                                         const struct gpu_limits *g)
{
    return plan_tf32_rules(s, g, 0);
}

static inline struct gemm_plan plan_3xtf32(const struct gemm_shape *s,
                                           const struct gpu_limits *g)
{
    int copy = !rows_on(s->align_b, s->ldb, 4, 16);
    struct gemm_plan p;
    if (empty(s))
        return plan_of(PLAN_EMPTY, 4);
    if (s->k < X3_SHORT_K || thin(s->m, s->n, THIN) || s->n <= X3_FEW)
        return plan_fp32(s, g);
    if (!g->hopper)
        return (long)CEIL_DIV(s->m, 128) * CEIL_DIV(s->n, 128) >= g->sms
               ? plan_of(PLAN_MMA_X3, 4) : plan_fp32(s, g);
    p = plan_direct(s, DIRECT_X3, copy
                    ? "3xTF32 with a pass over A and an aligned copy of B"
                    : "3xTF32 with a pass over A alone", g);
    p.copy_b = copy;
    return p;
}
enum { BF16_FEW_ROWS = 128, BF16_SHORT_K = 32, DIRECT_EPILOGUE = 3,
       A_COPY_PAYS = 1500, BF16_THIN = 4 };

static inline int bf16_direct(const struct gemm_shape *s,
                              const struct gpu_limits *g)
{
    int m = s->m, n = s->n, sms = g->sms;
    int steps = CEIL_DIV(s->k, 64), cols = CEIL_DIV(n, 128);
    int tall = tall_tiles(m, n, g), tiles = CEIL_DIV(m, tall ? 256 : 128) * cols;
    int dtall = m > 128 ? direct_tall(m, n, steps, sms) : 2;
    int dtiles = CEIL_DIV(m, tall_rows[dtall]) * cols;
    int half = CEIL_DIV(m, 128) * cols, hs = slices_for(half, 1, steps, SLICE_STAGES, sms);
    long hopper = hs > 1
        ? (long)CEIL_DIV(half * hs, sms) * (CEIL_DIV(steps, hs) + UNIT_BF16) * 8
        : (long)CEIL_DIV(tiles, sms) * steps * (tall ? 14 : 8);
    long direct = (plan_waves(dtiles, steps, sms).time
                   + DIRECT_EPILOGUE * CEIL_DIV(dtiles, sms)) * tall_cost[dtall];
    return m <= BF16_FEW_ROWS || !rows_on(s->align_c, s->ldc, 4, 16)
           || (steps >= BF16_SHORT_K && direct < hopper);
}

static inline struct gemm_plan plan_bf16_rules(const struct gemm_shape *s,
                                               const struct gpu_limits *g,
                                               int direct)
{
    static const char *const what[3][3] = {
        { "chapter 12's BF16 product",
          "chapter 12's BF16 product after 1 aligned copy",
          "chapter 12's BF16 product after 2 aligned copies" },
        { "BF16 as C^T = B^T A^T",
          "BF16 as C^T = B^T A^T after 1 aligned copy",
          "BF16 as C^T = B^T A^T after 2 aligned copies" },
        { "BF16 as C = AB",
          "BF16 as C = AB after 1 aligned copy",
          "BF16 as C = AB after 2 aligned copies" } };
    int m = s->m, n = s->n, copy_a, copy_b;
    struct gemm_plan p;
    if (empty(s))
        return plan_of(PLAN_EMPTY, 2);
    if (n <= BF16_THIN)
        return plan_thin(s, 2, g);
    if (!g->hopper)
        return plan_of(PLAN_MMA, 2);
    copy_a = !rows_on(s->align_a, s->lda, 2, 16)
             || (!rows_on(s->align_a, s->lda, 2, 32) && n >= A_COPY_PAYS);
    copy_b = !rows_on(s->align_b, s->ldb, 2, 16);
    if (!direct && n < m && (n <= NARROW_COLS
                             || (n <= 2 * NARROW_COLS
                                 && CEIL_DIV(s->k, 64) >= BF16_SHORT_K)))
        p = plan_direct(s, DIRECT_NARROW, what[2][copy_a + copy_b], g);
    else if (direct || bf16_direct(s, g))
        p = plan_direct(s, DIRECT_BF16, what[1][copy_a + copy_b], g);
    else
        p = plan_hopper(s, 2, 64, tall_tiles(m, n, g), UNIT_BF16,
                        what[0][copy_a + copy_b], g);
    p.copy_a = copy_a;
    p.copy_b = copy_b;
    return p;
}

static inline struct gemm_plan plan_bf16(const struct gemm_shape *s,
                                         const struct gpu_limits *g)
{
    return plan_bf16_rules(s, g, 0);
}
static inline const char *describe_plan(const struct gemm_plan *p,
                                        char *buf, int len)
{
    static const char *const copied[4] = { "", "after an aligned copy of A; ",
        "after an aligned copy of B; ", "after aligned copies of A and B; " };
    int copies = p->copy_a + 2 * p->copy_b, narrow = p->kind == DIRECT_NARROW;
    char ways[32] = "K whole";
    if (p->splits > 1)
        snprintf(ways, sizeof ways, "K split %d ways", p->splits);
    switch (p->kernel) {
    case PLAN_EMPTY:
        snprintf(buf, len, "an empty product");
        break;
    case PLAN_THIN_ROWS:
        snprintf(buf, len, "thin rows: %d a block; %d blocks of %d threads;"
                 " %s", p->rows, p->blocks, p->threads, ways);
        break;
    case PLAN_THIN_COLS:
        snprintf(buf, len, "thin columns: %d a block; %d blocks; %s",
                 p->rows, p->blocks, ways);
        break;
    case PLAN_SPLIT:
        snprintf(buf, len, "128x64x16 tiles: %d tiles; %s", p->tiles, ways);
        break;
    case PLAN_STREAMK:
        snprintf(buf, len, "stream-K over 128x128x16 tiles");
        break;
    case PLAN_WIDE:
        snprintf(buf, len, "%s128x256x8 tiles", copied[copies]);
        break;
    case PLAN_TUNED:
        snprintf(buf, len, "%stiles: chapter 9's tuned kernel", copied[copies]);
        break;
    case PLAN_DIRECT:
        if (p->wave.tiles)
            snprintf(buf, len, "%d-%s tiles: %s; %d of %d tiles split %d ways",
                     p->rows, narrow ? "column" : "row", p->what, p->wave.tiles,
                     p->tiles, CEIL_DIV(p->steps, p->wave.slice));
        else
            snprintf(buf, len, "%d-%s tiles: %s", p->rows,
                     narrow ? "column" : "row", p->what);
        break;
    case PLAN_HOPPER:
        if (p->splits > 1)
            snprintf(buf, len, "half tiles: %s; %s", p->what, ways);
        else
            snprintf(buf, len, "tiles: %s", p->what);
        break;
    case PLAN_MMA:
        snprintf(buf, len, "chapter 10's %s product on mma.sync (no wgmma here)",
                 p->size == 2 ? "BF16" : "TF32");
        break;
    case PLAN_MMA_X3:
        snprintf(buf, len, "chapter 11's 3xTF32 on mma.sync (no wgmma here)");
        break;
    }
    return buf;
}
#endif
