# The tests that need a GPU: every kernel verified at awkward shapes, and
# clean under compute-sanitizer's four tools.  Sourced by tests/run.

# The shapes (GPU_SHAPES, SANITIZER_SHAPES), shared with the lab grader.
. book/tools/shapes
SANITIZERS="memcheck racecheck synccheck initcheck"

run_shape() {   # program MxNxK extra-options
    local p=$1 m k nn
    IFS=x read -r m nn k <<< "$2"
    shift 2
    ./$p -m "$m" -n "$nn" -k "$k" --reps 5 "$@"
}

# The test shapes at which ./P OPTIONS... fails its check, each shape
# run as it is and with each of SHAPE_VARIANTS: " 2x3x4 2x3x4(--pad 1 ...)",
# or nothing when every run verifies.
failing_shapes() {
    local p=$1 s v bad="" variants
    shift
    IFS='|' read -ra variants <<< "$SHAPE_VARIANTS"
    for s in $GPU_SHAPES; do
        run_shape "$p" "$s" "$@" > "$tmp/out" 2>&1 || bad="$bad $s"
        for v in "${variants[@]}"; do
            # shellcheck disable=SC2086
            run_shape "$p" "$s" "$@" $v > "$tmp/out" 2>&1 || bad="$bad $s($v)"
        done
    done
    echo "$bad"
}

# Can this GPU run program $1?  If not, say why, by name.
gpu_runs() {
    if ./$1 -m 1 -n 1 -k 1 --reps 1 --no-check > /dev/null 2> "$tmp/probe"
    then return 0; fi
    skip "$1: this GPU cannot run it: $(head -1 "$tmp/probe")"
    return 1
}

gpu_tests() {
    local n p s t bad
    for n in $CHAPTERS; do
        for p in $(programs_of "$n"); do
            if ! built "$n"; then skip "$p: not built for this ARCH"; continue; fi
            [ -x ./$p ] || { fail "$p: the program exists"; continue; }
            gpu_runs "$p" || continue
            bad=$(failing_shapes "$p")
            if [ -z "$bad" ]; then ok "$p: verified at every test shape"
            else fail "$p: verified at every test shape" "failed:$bad"; fi
            check "$p: verified at 1024 and 4096 (float64 reference)" \
                ./$p --size 1024,4096 --reps 3
            gpu_sanitize "$p"
        done
    done
    gpu_micro_tests
    gpu_padding_tests
    gpu_lab_tests
    gpu_lib_tests
}

# The library as a program that links it sees it (tests/libverify): every
# precision at every test shape, plain and with alpha, beta and padded
# rows, against float64, C's padding untouched; two host threads with a
# handle and a stream each at once; memcheck and racecheck of a few; the
# example at 4096^3 in each precision.
gpu_lib_tests() {
    local t p lim
    if [ ! -x tests/libverify ]; then fail "the library on the GPU" "tests/libverify was not built"; return; fi
    # shellcheck disable=SC2086
    if tests/libverify $GPU_SHAPES > "$tmp/libverify" 2>&1; then
        ok "the library on the GPU ($(tail -1 "$tmp/libverify"))"
    else fail "the library on the GPU" "$(grep -v '^ok' "$tmp/libverify" | head -8)"; fi
    # shellcheck disable=SC2086
    if tests/libverify --ampere $GPU_SHAPES > "$tmp/libverify" 2>&1; then
        ok "the library with the kernels of Ampere ($(tail -1 "$tmp/libverify"))"
    else fail "the library with the kernels of Ampere" "$(grep -v '^ok' "$tmp/libverify" | head -8)"; fi
    # (an A100's limits and an RTX 3090's, planned on this GPU)
    # shellcheck disable=SC2086
    for lim in "108 166912" "82 101376"; do
        set -- $lim
        if tests/libverify --ampere --sms $1 --smem-limit $2 $GPU_SHAPES > "$tmp/libverify" 2>&1; then
            ok "the library with the kernels of Ampere, as on $1 SMs and $2 bytes a block ($(tail -1 "$tmp/libverify"))"
        else fail "the library, Ampere's kernels as on $1 SMs" "$(grep -v '^ok' "$tmp/libverify" | head -8)"; fi
    done
    for t in memcheck racecheck synccheck initcheck; do
        check "the library under compute-sanitizer $t" compute-sanitizer --tool $t \
            --error-exitcode 9 tests/libverify --one-thread 67x45x33 300x1x129 130x200x136
        check "the library with the kernels of Ampere under compute-sanitizer $t" \
            compute-sanitizer --tool $t --error-exitcode 9 \
            tests/libverify --one-thread --ampere 67x45x33 300x1x129 130x200x136
    done
    for p in fp32 tf32 3xtf32 bf16; do
        check "examples/gemm 4096 $p" examples/gemm 4096 $p
    done
}

# No kernel of the book writes C outside its m x n.  The checks above
# verify the m x n product alone; here every entry of every chapter runs
# in the book's runner (build/lab/chN-book: C's padding poisoned, or
# C0's, and written to a file with C) at padded shapes, the padding
# keeping rows aligned to 16 bytes or not, and the lab's judge
# (build/lab/judge) verifies the product and that every padding element
# is unchanged (book/tools/shapes: PADDED_CHECKS).  (Eight runs at a
# time: nothing is timed.)
gpu_padding_tests() {
    local n e prec c bad="" count=0
    make -s book-runners > "$tmp/runners" 2>&1 \
        || { fail "no kernel writes C's padding: make book-runners" "$(tail -5 "$tmp/runners")"; return; }
    : > "$tmp/pad-jobs"
    for n in $(man buildable); do
        [ -x ./ch$n ] && [ -x build/lab/ch$n-book ] || continue
        ./ch$n --list 2> /dev/null | while IFS=$'\t' read -r e prec _; do
            IFS='|' read -r -a cs <<< "$PADDED_CHECKS"
            for c in "${cs[@]}"; do printf '%s\t%s\t%s\t%s\n' "$n" "$e" "$prec" "$c"; done
        done >> "$tmp/pad-jobs"
    done
    count=$(wc -l < "$tmp/pad-jobs")
    [ "$count" -gt 0 ] || { fail "no kernel writes C's padding" "no entry to check"; return; }
    # (each line: chapter, entry, precision, shape:options; a runner's
    # exit 3 is an entry this GPU cannot run, left out)
    bad=$(export tmp; tr '\n' '\0' < "$tmp/pad-jobs" | xargs -0 -P 8 -n 1 bash -c '
        IFS=$'"'"'\t'"'"' read -r n e prec c <<< "$1"
        s=${c%%:*} o=${c#*:}; IFS=x read -r m nn k <<< "$s"
        f=$(mktemp "$tmp/pad.XXXXXX")
        build/lab/ch$n-book --kernel "$e" -m $m -n $nn -k $k --seed 7 $o --out "$f" > /dev/null 2> "$f.err"; rc=$?
        if [ $rc = 3 ]; then rm -f "$f" "$f.err"; echo "LEFT OUT"; exit 0; fi
        if [ $rc != 0 ]; then echo "ch$n $e $s ($o): the run failed (exit $rc): $(head -1 "$f.err")"
        else out=$(build/lab/judge --kernel "$e" -m $m -n $nn -k $k --seed 7 $o --precision "$prec" --in "$f" 2>&1) \
            || echo "ch$n $e $s ($o): $(echo "$out" | head -1)"; fi
        rm -f "$f" "$f.err"' _)
    local left judged
    left=$(grep -c "^LEFT OUT$" <<< "$bad"); bad=$(grep -v "^LEFT OUT$" <<< "$bad")
    judged=$((count - left))
    if [ "$judged" = 0 ]; then fail "no kernel writes C's padding" "none of the $count runs could run on this GPU"
    elif [ -z "$bad" ]; then ok "no kernel writes C's padding, and each is right at padded shapes ($judged runs, $left left out)"
    else fail "no kernel writes C's padding, and each is right at padded shapes ($judged runs, $left left out)" "$bad"; fi
}

# Smaller GPUs, emulated: the choosers of chapters 9-11 and 13 see the
# shared memory per block and the SMs of an RTX 3090, an A100 and an L4
# (--smem-limit, --sms), and every kernel verifies at every test shape
# under each, or is left out by name.  And the choice the code made at
# the sizes the prose discusses is the one the manifests' model formulas
# compute for that GPU.
gpu_emulated_tests() {
    local e smem sms name n p s bad
    for e in $EMULATED_GPUS; do
        IFS=: read -r smem sms name <<< "$e"
        for n in 9 10 11 13; do
            [[ " $CHAPTERS " == *" $n "* ]] || continue
            p=ch$n
            if ! built "$n" || ! [ -x ./$p ]; then skip "$p as an $name: not built"; continue; fi
            bad=$(failing_shapes "$p" --smem-limit "$smem" --sms "$sms")
            [ -z "$bad" ] && ok "$p as an $name (--smem-limit $smem --sms $sms): verified at every test shape" \
                || fail "$p as an $name (--smem-limit $smem --sms $sms): verified at every test shape" "failed:$bad"
        done
        gpu_choice_follows_model "$smem" "$sms" "as an $name"
    done
    gpu_choice_follows_model 0 0 "with this GPU's own limits"
}

# The models of the manifests evaluated for a GPU of SMS SMs and SMEM
# bytes per block (0: this GPU's own), into $tmp/model/results.raw.
model_for() {
    local smem=$1 sms=$2 d=$tmp/model
    rm -rf "$d"; mkdir -p "$d"
    if [ "$sms" = 0 ]; then   # this GPU's own, as ./ch0 --ceilings reports them
        ./ch0 --ceilings --csv --reps 1 > "$d/ceil.csv" 2> /dev/null
        sms=$(book/tools/csvq 'csv_row() { next } { print F("sms") }' "$d/ceil.csv")
        smem=$(book/tools/csvq 'csv_row() { next } { print F("smem_per_block_optin") }' "$d/ceil.csv")
    fi
    cp build/manifest.tsv "$d/"
    printf 'gpu.sms\t%s\nceil.sms\t%s\nceil.smem_per_block_optin\t%s\n' "$sms" "$sms" "$smem" > "$d/results.raw"
    : > "$d/results.keys"
    book/tools/bookdata stage models "$d" 2> /dev/null
}
model_value() { awk -F'\t' -v k="$1" '$1 == k { printf "%d", $2 + 0.5 }' "$tmp/model/results.raw"; }

# What a program chose for one kernel at one size (the CSV's choice).
chosen() {   # program kernel size smem sms
    local opts=""
    [ "$4" = 0 ] || opts="--smem-limit $4 --sms $5"
    ./$1 --kernel "$2" --size "$3" --reps 1 --csv $opts 2> /dev/null \
        | book/tools/csvq 'csv_row() { next } { print F("choice") }'
}

gpu_choice_follows_model() {   # SMEM SMS LABEL (0 0: this GPU's own)
    local smem=$1 sms=$2 label=$3 want got bad=""
    model_for "$smem" "$sms"
    if built 9 && [ -x ./ch9 ]; then
        if [ "$(model_value model.splits_last_4097)" = 1 ]; then
            want="then $(model_value model.split_tiles_4097) split $(model_value model.split_4097) ways"
        else want="561 in one grid"; fi
        got=$(chosen ch9 tuned 4097 "$smem" "$sms")
        [[ "$got" == *"$want"* ]] || bad="$bad"$'\n'"ch9 tuned at 4097: chose '$got', the model says '$want'"
        if [ "$(model_value model.small_1024)" = 1 ]; then want="128x64x16 tiles: 128 blocks"
        else want="stream-K"; fi
        got=$(chosen ch9 tuned 1024 "$smem" "$sms")
        [[ "$got" == *"$want"* ]] || bad="$bad"$'\n'"ch9 tuned at 1024: chose '$got', the model says '$want'"
    fi
    if built 10 && [ -x ./ch10 ]; then
        [ "$(model_value model.ch10_tf32_large_4096)" = 1 ] && want=TF32_LARGE || want=TF32_SMALL
        got=$(chosen ch10 mma 4096 "$smem" "$sms")
        [[ "$got" == "$want"* ]] || bad="$bad"$'\n'"ch10 mma at 4096: chose '$got', the model says '$want'"
        [ "$(model_value model.ch10_bf16_large_8192)" = 1 ] && want=BF16_LARGE || want=BF16_SMALL
        got=$(chosen ch10 bf16 8192 "$smem" "$sms")
        [[ "$got" == "$want"* ]] || bad="$bad"$'\n'"ch10 bf16 at 8192: chose '$got', the model says '$want'"
    fi
    [ -z "$bad" ] && ok "$label: the choices at 1024, 4096, 4097 and 8192 are the model formulas'" \
        || fail "$label: the choices at 1024, 4096, 4097 and 8192 are the model formulas'" "$bad"
}

# Grading the labs.  Every lab's untouched stub fails (exit 1, verdict
# WRONG), and the chapter's own code pasted back passes (exit 0); a lab
# whose kernel runs only on some shapes (lab_reach) counts only those,
# and its JSON report says which were not reached.  The labs are graded
# four at a time (each has its own program).  Then chapter 2's: a kernel
# that forgets the block's row offset fails at the first shape taller
# than a block, which the hint names, and one wrong only at 4096^3 fails
# the timing run.
lab_json_ok() {   # FILE VERDICT: the report parses and says VERDICT
    python3 - "$1" "$2" << 'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == sys.argv[2], d["verdict"]
for k in ("lab", "file", "chunk", "kernel", "message", "exit", "hint", "checks", "sanitizer", "timing"):
    assert k in d, k
for c in d["checks"]:
    assert set(c) == {"entry", "shape", "options", "reached", "error", "check", "exit"}, c
    assert isinstance(c["reached"], bool)
PY
}
grade_labs() {   # KIND DIR: write each lab's file (stub, or the chapter's code), build, grade
    # (the stubs fail at their first check, four at a time; the chapter's
    # own code is graded one lab at a time, since its grade times it
    # against the chapter's kernel and another lab's runs on the same
    # GPU would slow one of the two)
    local kind=$1 d=$2 n i=0 t0
    rm -rf "$d"; mkdir -p "$d"
    for n in $LAB_CHAPTERS; do
        # (the chapter's own code between the stub's marks)
        [ "$kind" = own ] && book/tools/bookdata lab-answer tangle/ch$n-lab.cu \
            tangle/ch$n.cu > "$d/ch$n.cu"
    done
    make -s -k -j"$(nproc 2> /dev/null || echo 4)" LAB_DIR="$d" $(for n in $LAB_CHAPTERS; do echo lab$n; done) \
        > "$d/make.out" 2>&1
    for n in $LAB_CHAPTERS; do
        grep "lab$n\|ch$n[.-]" "$d/make.out" > "$d/make-$n.out"
        if [ "$kind" = own ]; then
            t0=$(date +%s)
            ./lab$n --json "$d/$n.json" > "$d/$n.out" 2>&1; echo $? > "$d/$n.rc"
            echo "lab$n: $(( $(date +%s) - t0 )) s: $(tail -1 "$d/$n.out")" >> "$tmp/lab-times"
            continue
        fi
        ( ./lab$n --json "$d/$n.json" > "$d/$n.out" 2>&1; echo $? > "$d/$n.rc" ) &
        i=$((i + 1)); [ $((i % 4)) = 0 ] && wait
    done
    wait
}
gpu_lab_tests() {
    local n d rc bad="" had=""
    LAB_CHAPTERS=
    # (LABS="2 3" grades those labs alone)
    for n in ${LABS:-$(man buildable)}; do [ -n "$(man $n lab)" ] && LAB_CHAPTERS="$LAB_CHAPTERS $n"; done
    [ -n "$LAB_CHAPTERS" ] || { skip "no lab is built here"; return; }
    for n in $LAB_CHAPTERS; do [ -e lab$n ] && had="$had $n"; done
    command -v python3 > /dev/null || skip "the labs' JSON reports: no python3 to parse them"
    grade_labs stub "$tmp/glab-stub"
    for n in $LAB_CHAPTERS; do
        d=$tmp/glab-stub rc=$(cat "$d/$n.rc" 2> /dev/null)
        if [ "$rc" != 1 ] || ! tail -1 "$d/$n.out" | grep -q "^lab$n: WRONG"; then
            bad="$bad"$'\n'"lab$n: exit $rc: $(tail -2 "$d/$n.out") $(tail -2 "$d/make-$n.out")"
        elif command -v python3 > /dev/null && ! lab_json_ok "$d/$n.json" wrong 2> "$tmp/err"; then
            bad="$bad"$'\n'"lab$n: its JSON report: $(tail -1 "$tmp/err")"
        fi
    done
    [ -z "$bad" ] && ok "every lab's untouched stub fails grading (exit 1, WRONG, JSON verdict wrong):$LAB_CHAPTERS" \
        || fail "every lab's untouched stub fails grading (exit 1, WRONG, JSON verdict wrong)" "$bad"
    bad=
    grade_labs own "$tmp/glab-own"
    for n in $LAB_CHAPTERS; do
        d=$tmp/glab-own rc=$(cat "$d/$n.rc" 2> /dev/null)
        if [ "$rc" != 0 ] || ! tail -1 "$d/$n.out" | grep -q "^lab$n: correct"; then
            bad="$bad"$'\n'"lab$n: exit $rc: $(tail -2 "$d/$n.out") $(tail -2 "$d/make-$n.out")"
        elif command -v python3 > /dev/null && ! lab_json_ok "$d/$n.json" correct 2> "$tmp/err"; then
            bad="$bad"$'\n'"lab$n: its JSON report: $(tail -1 "$tmp/err")"
        elif [ -n "$(man $n lab_reach)" ] && { ! grep -q '"reached": false' "$d/$n.json" \
                || ! tail -1 "$d/$n.out" | grep -q "not reached"; }; then
            bad="$bad"$'\n'"lab$n: its kernel runs only on aligned rows, yet no shape is reported not reached"
        fi
    done
    [ -z "$bad" ] && ok "every lab passes with the chapter's own code, counting only the checks that reach its kernel" \
        || fail "every lab passes with the chapter's own code, counting only the checks that reach its kernel" "$bad"
    n=2
    if [[ " $LAB_CHAPTERS " == *" $n "* ]]; then
        d=$tmp/glab
        mkdir -p "$d"
        sed 's/int row = blockIdx.y \* blockDim.y + threadIdx.y;/int row = threadIdx.y;/' \
            <(book/tools/bookdata lab-answer tangle/ch$n-lab.cu tangle/ch$n.cu) > "$d/ch$n.cu"
        if ! grep -q "int row = threadIdx.y;" "$d/ch$n.cu"; then
            fail "lab$n: a wrong edge case fails at the shape that exposes it" "could not plant the bug"
        else
            make -s LAB_DIR="$d" lab$n > /dev/null 2>&1
            ./lab$n > "$tmp/out" 2>&1; rc=$?
            if [ $rc = 1 ] && grep -q "^lab$n: hint: the first failing shape is 33x31x65" "$tmp/out"
            then ok "lab$n: a wrong edge case fails at the shape that exposes it"
            else fail "lab$n: a wrong edge case fails at the shape that exposes it" \
                      "exit $rc: $(cat "$tmp/out")"; fi
        fi
        awk '/float \*cij/ && !done { print "        if (m >= 4096 && row == 4000 && col == 17) acc += 1.0f;"; done = 1 } 1' \
            <(book/tools/bookdata lab-answer tangle/ch$n-lab.cu tangle/ch$n.cu) > "$d/ch$n.cu"
        make -s LAB_DIR="$d" lab$n > /dev/null 2>&1
        ./lab$n > "$tmp/out" 2>&1; rc=$?
        if [ $rc = 1 ] && tail -1 "$tmp/out" | grep -q "^lab$n: WRONG: .* fails at 4096^3 (the timing run)"
        then ok "lab$n: a kernel wrong only at 4096^3 passes every small shape and fails the timing run"
        else fail "lab$n: a kernel wrong only at 4096^3 passes every small shape and fails the timing run" \
                  "exit $rc: $(tail -3 "$tmp/out")"; fi
        # without compute-sanitizer the chapter's own code is not graded
        # correct: it cannot be graded (exit 3, and its JSON says so)
        book/tools/bookdata lab-answer tangle/ch$n-lab.cu tangle/ch$n.cu > "$d/ch$n.cu"
        make -s LAB_DIR="$d" lab$n > /dev/null 2>&1
        local nosan
        nosan=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r p; do
                    [ -x "$p/compute-sanitizer" ] || printf '%s:' "$p"; done)
        PATH=${nosan%:} ./lab$n --json "$tmp/nosan.json" > "$tmp/out" 2>&1; rc=$?
        if [ $rc = 3 ] && tail -1 "$tmp/out" | grep -q "^lab$n: cannot grade here: compute-sanitizer is not installed" \
            && { ! command -v python3 > /dev/null || lab_json_ok "$tmp/nosan.json" "cannot grade"; }
        then ok "lab$n without compute-sanitizer: cannot grade (exit 3), never correct"
        else fail "lab$n without compute-sanitizer: cannot grade (exit 3), never correct" "exit $rc: $(tail -2 "$tmp/out")"; fi
    fi
    gpu_lab_attacks
    [ -s "$tmp/lab-times" ] && { echo "the chapters' own code, graded:"; sed 's/^/    /' "$tmp/lab-times"; }
    for n in $LAB_CHAPTERS; do
        [[ " $had " == *" $n "* ]] || rm -f lab$n
        rm -rf build/lab/ch$n build/lab/ch$n.* build/lab/ch$n-*
    done
}

# Ways to a grade without the lab's work, each graded wrong (exit 1, the
# JSON's verdict "wrong") on the GPU: a kernel that writes C's padding;
# the chapter's own code #included; cuBLAS called in the kernel's place;
# printf and friends replaced, with an exit from atexit; a stub whose
# table entry claims a looser precision; a kernel that skips the work of
# some timed launches; and a race planted in lab 9's pipeline (its
# barrier removed).  Each is the chapter's own code (or its
# stub) with one change, so that only the change can fail it.
gpu_lab_attacks() {
    local d=$tmp/gatk n what rc bad="" caught=""
    mkdir -p "$d"
    attack() {   # N WHAT FILE: build lab N from FILE and grade it; it must be wrong
        local n=$1 what=$2
        [[ " $LAB_CHAPTERS " == *" $n "* ]] || return 0
        cp "$3" "$d/ch$n.cu"
        make -s LAB_DIR="$d" lab$n > "$d/make.out" 2>&1
        ./lab$n --json "$d/atk.json" > "$d/out" 2>&1; rc=$?
        if [ $rc = 1 ] && tail -1 "$d/out" | grep -q "^lab$n: WRONG" \
            && { ! command -v python3 > /dev/null || lab_json_ok "$d/atk.json" wrong 2> /dev/null; }
        then caught="$caught"$'\n'"    lab$n, $what: $(tail -1 "$d/out" | cut -c1-150)"
        else bad="$bad"$'\n'"lab$n, $what: exit $rc: $(tail -2 "$d/out") $(tail -2 "$d/make.out")"; fi
    }
    answer() { book/tools/bookdata lab-answer tangle/ch$1-lab.cu tangle/ch$1.cu; }
    before_end() {   # LINE: insert LINE before the lab's end mark
        awk -v l="$1" '/---- lab [0-9]+, .*: your code ends here ---- / && !done { print l; done = 1 } { print }'
    }
    answer 2 | sed 's/if (row < m \&\& col < n) {/if (row < m \&\& col < ldc) {/' > "$d/f"
    grep -q "col < ldc" "$d/f" || bad="$bad"$'\n'"lab2: could not plant the padding write"
    attack 2 "a kernel guarded by col < ldc (it writes C's padding)" "$d/f"
    answer 3 | awk -v l='#include "../tangle/ch3.cu"' '{ print } !done && /---- lab .*: your code begins here ----/ { print l; done = 1 }' > "$d/f"
    attack 3 "the chapter's code #included" "$d/f"
    answer 1 | before_end 'static void go(void) { cublas_sgemm(1, 1, 1, 1.0f, 0, 1, 0, 1, 0.0f, 0, 1); } static void (*keep)(void) __attribute__((used)) = go;' > "$d/f"
    attack 1 "cuBLAS called beside the kernel" "$d/f"
    book/tools/labstub 3 | before_end 'extern "C" int printf(const char *f, ...) { return 0; }
extern "C" int __printf_chk(int l, const char *f, ...) { return 0; }
extern "C" int fprintf(struct _IO_FILE *s, const char *f, ...) { return 0; }
extern "C" int __fprintf_chk(struct _IO_FILE *s, int l, const char *f, ...) { return 0; }
extern "C" void _exit(int);
static void leave(void) { _exit(0); }
static void __attribute__((constructor)) early(void) { atexit(leave); }' > "$d/f"
    attack 3 "printf replaced and an exit from atexit, the kernel left empty" "$d/f"
    book/tools/labstub 11 | sed 's/\.precision = FP32_3XTF32/.precision = TF32/' > "$d/f"
    if [[ " $LAB_CHAPTERS " == *" 11 "* ]] && ! grep -q "precision = TF32, .run = run_3xtf32" "$d/f"; then
        bad="$bad"$'\n'"lab11: could not change the stub's precision"
    fi
    attack 11 "the stub, its 3xTF32 entry said to be TF32" "$d/f"
    # a kernel that skips the work of the second to fifth launches of a
    # process (a count kept on the GPU): the timing run's median would
    # hold them, and its last, judged launch is right
    answer 2 | awk '/int row = blockIdx.y \* blockDim.y \+ threadIdx.y;/ && !done { print; print "    static unsigned int lab_seen;"
            print "    __shared__ unsigned int lab_launch;"
            print "    if (threadIdx.x == 0 && threadIdx.y == 0) lab_launch = atomicAdd(&lab_seen, 1u) / (gridDim.x * gridDim.y);"
            print "    __syncthreads();"
            print "    if (m >= 4096 && lab_launch >= 1 && lab_launch <= 4) return;"; done = 1; next } { print }' > "$d/f"
    grep -q "lab_launch <= 4" "$d/f" || bad="$bad"$'\n'"lab2: could not plant the skipped launches"
    attack 2 "a kernel that skips the work of four timed launches" "$d/f"
    answer 9 | awk '/cp_async_wait<STAGES - 2>\(\);/ { w = NR } NR == w + 1 && /__syncthreads\(\);/ { next } { print }' > "$d/f"
    [ "$(answer 9 | grep -c '__syncthreads();')" -gt "$(grep -c '__syncthreads();' "$d/f")" ] \
        || bad="$bad"$'\n'"lab9: could not remove the pipeline's barrier"
    attack 9 "the barrier after the pipeline's wait removed" "$d/f"
    [ -z "$bad" ] && ok "the ways to a grade without the lab's work are each graded wrong:$caught" \
        || fail "the ways to a grade without the lab's work are each graded wrong" "$bad"
}

# A chapter's microbenchmark runs, and ./P --csv gives one row per
# instruction it measures (names apart), with a rate, the CSV header the
# tools read, and the commit and code hash it was given.  Exit code 3: this
# GPU cannot run it (skipped, with its reason).
# A microbenchmark's CSV: chapter, name and what first, commit and
# code_hash (and run) last, and between them its measurements: a rate (tflops, within
# tflops_min..tflops_max) or a time (ms, within its quartiles ms_q1..ms_q3),
# and the number of timed runs; a check column, where there is one, never
# says FAIL.
gpu_micro_tests() {
    local n p rc bad hash
    for n in $CHAPTERS; do
        for p in $(micro_of "$n"); do
            if ! built "$n"; then skip "$p: not built for this ARCH"; continue; fi
            [ -x ./$p ] || { fail "$p: the program exists"; continue; }
            ./$p > "$tmp/out" 2> "$tmp/err"
            rc=$?
            if [ $rc = 3 ]; then
                skip "$p: this GPU cannot run it: $(head -1 "$tmp/err")"; continue
            elif [ $rc = 0 ] && [ -s "$tmp/out" ]; then ok "$p runs and prints its table"
            else fail "$p runs and prints its table" "exit $rc: $(head -3 "$tmp/err")"; fi
            hash=$(book/tools/bookdata codehash "$n")
            BOOK_COMMIT=gputest BOOK_CODE_HASH=$hash ./$p --csv > "$tmp/out" 2> "$tmp/err"
            rc=$?
            bad=$(book/tools/csvq -v n="$n" -v hash="$hash" '
                FNR == 1 && ($0 !~ /^chapter,name,what,/ || $0 !~ /,commit,code_hash(,run)?$/) { print "header: " $0 }
                csv_row() { next }
                { rows++
                  if (F("name") == "" || (F("name") in seen)) print "row " FNR ": name \"" F("name") "\""
                  seen[F("name")] = 1
                  # (a rate with its range, or a time with its quartiles; a
                  # row of a transfer alone has a time and no rate of flops)
                  if (has_col("tflops_min")) {
                    if (!(F("tflops") + 0 > 0)) print F("name") ": tflops " F("tflops")
                    if (!(F("tflops_min") + 0 <= F("tflops") + 0 && F("tflops") + 0 <= F("tflops_max") + 0))
                        print F("name") ": tflops " F("tflops") " not within " F("tflops_min") ".." F("tflops_max")
                  } else if (has_col("ms")) {
                    if (!(F("ms") + 0 > 0)) print F("name") ": ms " F("ms")
                    if (!(F("ms_q1") + 0 <= F("ms") + 0 && F("ms") + 0 <= F("ms_q3") + 0))
                        print F("name") ": ms " F("ms") " not within " F("ms_q1") ".." F("ms_q3")
                  } else print F("name") ": neither a rate (tflops) nor a time (ms)"
                  if (has_col("check") && F("check") == "FAIL") print F("name") ": check FAIL"
                  if (!(F("runs") + 0 >= 1)) print F("name") ": runs " F("runs")
                  if (F("chapter") + 0 != n + 0) print F("name") ": chapter " F("chapter")
                  if (F("commit") != "gputest" || F("code_hash") != hash)
                      print F("name") ": commit/code_hash " F("commit") "/" F("code_hash") \
                            ", not those of BOOK_COMMIT/BOOK_CODE_HASH" }
                END { if (!rows) print "no rows" }' "$tmp/out")
            [ $rc = 0 ] || bad="exit $rc: $(head -1 "$tmp/err")"$'\n'"$bad"
            [ -z "$bad" ] && ok "$p --csv: a row per measurement, each with a rate or a time" \
                || fail "$p --csv: a row per measurement, each with a rate or a time" "$bad"
        done
    done
}

# A memcheck log whose every error is NCCL asking after a kernel it has
# only for other GPUs (cudaErrorNoKernelImageForDevice from
# cudaFuncGetAttributes, called from libnccl), of a program that ended
# well: then it appends "NCCL PROBES ONLY" to the log.
nccl_probes_only() {   # LOG
    awk '/^========= Program hit / { n++; bad += !/cudaErrorNoKernelImageForDevice/ || !/cudaFuncGetAttributes/
                                    open = 1; nccl = 0; next }
         open && /Host Frame:/ && /libnccl/ { nccl = 1 }
         open && /^========= *$/ { open = 0; bad += !nccl }
         /Target application returned an error/ { bad++ }
         /^========= ERROR SUMMARY: [0-9]+ error/ { total = $4 }
         END { if (open) bad += !nccl; exit !(n > 0 && !bad && total == n) }' "$1" \
        && echo "NCCL PROBES ONLY" >> "$1"
}

gpu_sanitize() {
    local p=$1 t s out pad rc
    if ! command -v compute-sanitizer > /dev/null; then
        skip "$p: compute-sanitizer is not installed: $SANITIZERS not run"
        return
    fi
    # a chapter with a shape suite also has thin shapes, whose kernels
    # the awkward shapes do not reach
    local extra="" n=${p#ch}
    n=${n%%[!0-9]*}
    [ -n "$(book/tools/bookdata manifest "$n" suite 2> /dev/null)" ] && extra=$SANITIZER_THIN
    # and the shapes at which the chapter's pipelines wrap (sanitize_at)
    extra="$extra $(book/tools/bookdata manifest "$n" sanitize_at 2> /dev/null)"
    # NCCL's set-up asks cudaFuncGetAttributes of kernels it holds only
    # for other GPUs and takes the error for an answer: memcheck reports
    # each such call (4 at every shape).  For a program that links NCCL
    # those, and only those, are forgiven (nccl_probes_only).
    local nccl=no
    case " $(book/tools/bookdata manifest "$n" libs 2> /dev/null) " in
        *" -lnccl "*) nccl=yes ;;
    esac
    for t in $SANITIZERS; do
        out=""
        for s in $SANITIZER_SHAPES $SANITIZER_ALIGNED:0 $extra; do
            pad=1
            case $s in *:0) s=${s%:0}; pad=0 ;; esac
            IFS=x read -r m nn k <<< "$s"
            compute-sanitizer --tool "$t" --error-exitcode 9 \
                ./$p -m "$m" -n "$nn" -k "$k" --pad $pad --reps 1 \
                > "$tmp/san" 2>&1
            rc=$?
            [ $rc = 9 ] && [ $nccl = yes ] && [ "$t" = memcheck ] \
                && nccl_probes_only "$tmp/san" && rc=0
            # racecheck ends with its own summary line
            if [ $rc != 0 ] || ! grep -q -e "ERROR SUMMARY: 0 errors" \
                   -e "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)" \
                   -e "NCCL PROBES ONLY" "$tmp/san"
            then out="$out"$'\n'"$s: $(grep -m3 -e 'ERROR' -e 'error' "$tmp/san")"; fi
        done
        [ -z "$out" ] && ok "$p: compute-sanitizer $t clean$([ "$t" = memcheck ] && [ $nccl = yes ] && echo " (but NCCL's own probes)")" \
            || fail "$p: compute-sanitizer $t clean" "$out"
    done
}
