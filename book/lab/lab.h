/* lab.h: what the lab's runner (labrun.c, linked with the student's
   code) and the grader's judge (judge.c, linked with no student code)
   share: the options of one check and the file of C between them.

   A check: --kernel E -m M -n N -k K [--pad P] [--alpha A] [--beta B]
   --seed S, and --out FILE (the runner) or --in FILE --precision
   fp32|tf32|bf16|3xtf32 (the judge).  The runner's --time R launches
   the kernel R + 1 times (beta 0), C poisoned before each and A and B
   drawn afresh for each but the last, checks each timed launch at
   elements it draws, and prints the median time of the last R ("ms T
   tflops F"); the C it writes is the last launch's, on the judge's
   operands, so that the launches timed are launches judged.  The
   operands are the harness's
   (fill_random with the seeds of its first set of buffers), so both
   sides make the same A, B and C0 from S alone; the grader draws S
   afresh for every grading.

   The file: the magic "LABC", then m, n, k, ldc and the number of runs
   as 32-bit integers, then each run's C, all m rows of ldc floats: the
   run with beta = 0 (C's padding and every element poisoned with the
   bits 0xffffffff before it), then, where beta is not 0, the run from
   C0 (padding and elements C0's). */
#ifndef LAB_H
#define LAB_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct check {
    const char *kernel, *file, *precision;
    int m, n, k, pad, time;
    float alpha, beta;
    unsigned long long seed;
};

/* The seeds of the harness's first set: A, B, and C0. */
#define SEED_A(s) ((s) * 7919 + 5)
#define SEED_B(s) ((s) * 7919 + 6)
#define SEED_C0(s) ((s) * 7919 + 3)
#define LAB_MAGIC 0x4342414cu        /* "LABC" */

/* malloc, or the program's end with a message */
static void *host(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

static int lab_int(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0 || v > 1 << 20)
        return 0;
    *out = (int)v;
    return 1;
}

/* The options of one check; 0 and a message on stderr if they are
   wrong (the grader gave them: a wrong one is the grader's fault). */
static int lab_parse(int argc, char **argv, struct check *c,
                     const char *file_flag)
{
    memset(c, 0, sizeof *c);
    c->alpha = 1.0f;
    c->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        int ok = v != NULL;
        if (!ok) {
        } else if (!strcmp(f, "--kernel")) c->kernel = v;
        else if (!strcmp(f, file_flag)) c->file = v;
        else if (!strcmp(f, "--precision")) c->precision = v;
        else if (!strcmp(f, "-m")) ok = lab_int(v, &c->m);
        else if (!strcmp(f, "-n")) ok = lab_int(v, &c->n);
        else if (!strcmp(f, "-k")) ok = lab_int(v, &c->k);
        else if (!strcmp(f, "--pad")) ok = lab_int(v, &c->pad);
        else if (!strcmp(f, "--time")) ok = lab_int(v, &c->time);
        else if (!strcmp(f, "--alpha")) c->alpha = strtof(v, &end);
        else if (!strcmp(f, "--beta")) c->beta = strtof(v, &end);
        else if (!strcmp(f, "--seed")) c->seed = strtoull(v, &end, 10);
        else ok = 0;
        if (end && (end == v || *end != '\0'))
            ok = 0;
        if (!ok) {
            fprintf(stderr, "%s: bad option %s%s%s\n", argv[0], f,
                    v ? " " : "", v ? v : "");
            return 0;
        }
        i++;
    }
    if (!c->kernel || !c->file || c->m < 1 || c->n < 1 || c->k < 1) {
        fprintf(stderr, "usage: %s --kernel E -m M -n N -k K [--pad P] "
                "[--alpha A] [--beta B] [--seed S] %s FILE%s\n", argv[0],
                file_flag, strcmp(file_flag, "--in") ? ""
                : " --precision fp32|tf32|bf16|3xtf32");
        return 0;
    }
    return 1;
}
#endif
