# The tests that need no GPU.  Sourced by tests/run, which defines ok,
# fail, skip, check, want, man, programs_of, micro_of, built, CHAPTERS,
# RESULTS, SIZES and tmp.

nw_upto() { book/tools/bookdata nw-upto "$1"; }  # the files chapter $1 is tangled from

book_order() {   # the noweb files in the book's order: chapters, appendices
    local c               # (the appendices in the weave's order, as make has them)
    for c in $CHAPTERS; do echo "chapters/ch$c.nw"; done
    book/tools/bookdata appendices $CHAPTERS | tr ' ' '\n'
}

# The files chapter $1 tangles: its manifest, and what the manifest names
# (read from the chapters as they are, not from a build).  notangle is
# noweb's markup piped into nt: the markup of chapter $1's files is made
# once ($tmp/markup.$1, by markup_upto) and nt tangles each root from it.
markup_upto() { noweb_markup $(nw_upto "$1") > "$tmp/markup.$1"; }
tangle_root() { "$NOWEB_LIB/nt" -R"$2" < "$tmp/markup.$1"; }   # chapter, root
roots_from_nw() {
    echo "ch$1.mk"
    echo "ch$1.cu"
    tangle_root "$1" "ch$1.mk" > "$tmp/manifest.mk" 2>/dev/null
    local r
    for r in $(book/tools/bookdata manifest --file "$tmp/manifest.mk" roots); do echo "$r"; done
    for r in $(book/tools/bookdata manifest --file "$tmp/manifest.mk" micro); do echo "$r.cu"; done
    for r in $(book/tools/bookdata manifest --file "$tmp/manifest.mk" library); do echo "$r"; done
}

NOWEB_LIB=$(sed -n 's/^LIB=//p' "$(command -v noweave 2> /dev/null || echo /dev/null)")
noweb_markup() { "$NOWEB_LIB/markup" "$@"; }

# Before anything is built: the committed tangle/ must be what the
# committed chapters say, and noweb must see no ambiguity.
test_tangle() {
    local n r bad="" expected="" labfiles="" labroots="" lab
    for n in $CHAPTERS; do
        markup_upto "$n" 2> "$tmp/err" && [ ! -s "$tmp/err" ] \
            || bad="$bad"$'\n'"ch$n: $(cat "$tmp/err")"
        for r in $(roots_from_nw "$n"); do
            expected="$expected $r"
            if ! tangle_root "$n" "$r" > "$tmp/$r" \
                    2> "$tmp/err" || [ -s "$tmp/err" ]; then
                bad="$bad"$'\n'"$r: $(cat "$tmp/err")"
            elif [ ! -f "tangle/$r" ]; then
                bad="$bad"$'\n'"tangle/$r is missing (run make tangle)"
            elif ! cmp -s "$tmp/$r" "tangle/$r"; then
                bad="$bad"$'\n'"tangle/$r is out of date (run make tangle)"
            fi
        done
        # (the manifest was tangled just now, by roots_from_nw)
        lab=$(book/tools/bookdata manifest --file "$tmp/manifest.mk" lab)
        [ -n "$lab" ] || continue
        labfiles="$labfiles ch$n-lab.cu"
        labroots="$labroots"$'\n'"Lab: $lab"
        r=$(book/tools/bookdata manifest --file "$tmp/manifest.mk" lab_also)
        [ -z "$r" ] || labroots="$labroots"$'\n'"Lab: $r"
        # (labtangle reads the manifest from tangle/, in sync or not)
        if ! book/tools/labtangle "$n" "$tmp/ch$n-lab.cu" $(nw_upto "$n") 2> "$tmp/err"; then
            bad="$bad"$'\n'"ch$n-lab.cu: $(cat "$tmp/err")"
        elif ! cmp -s "$tmp/ch$n-lab.cu" "tangle/ch$n-lab.cu"; then
            bad="$bad"$'\n'"tangle/ch$n-lab.cu is out of date (run make tangle)"
        fi
    done
    [ -z "$bad" ] && ok "tangle/ is in sync with chapters/" \
        || fail "tangle/ is in sync with chapters/" "$bad"
    # the roots: the manifests' files, and each lab's stub <<Lab: NAME>>
    noroots chapters/ch*.nw | sed 's/^<<//; s/>>$//' | sort > "$tmp/roots-got"
    { echo $expected | tr ' ' '\n'; printf '%s\n' "$labroots" | sed '/^$/d'; } | sort > "$tmp/roots-want"
    cmp -s "$tmp/roots-got" "$tmp/roots-want" \
        && ok "every chunk is used; the only roots are the manifests' files and the labs' stubs" \
        || fail "every chunk is used; the only roots are the manifests' files and the labs' stubs" \
                "$(diff "$tmp/roots-want" "$tmp/roots-got")"
    ls tangle | sort > "$tmp/have"
    echo $expected $labfiles | tr ' ' '\n' | sort > "$tmp/want"
    cmp -s "$tmp/have" "$tmp/want" && ok "tangle/ holds no stray file" \
        || fail "tangle/ holds no stray file" "$(diff "$tmp/want" \
                                                      "$tmp/have")"
    test_chunk_names chapters/ch*.nw
    test_linked
}

# Chapters are linked, not pasted: no __global__ function is defined in
# two tangled files (a header may declare one that a chapter's code
# defines), and the tangled sources stay the size of what the chapters
# write: at most 8,500 lines of C and CUDA in all, 1,200 in one file
# (the labs' stubs, copies of a chapter's code, apart).
test_linked() {
    local dup total big
    dup=$(awk '
        FNR == 1 { g = 0 }
        /__global__/ { g = 1 }
        g && match($0, /[A-Za-z_][A-Za-z_0-9]*\(/) {
            name = substr($0, RSTART, RLENGTH - 1)
            if (name == "__launch_bounds__") { sub(/__launch_bounds__\([^)]*\)/, ""); 
                if (!match($0, /[A-Za-z_][A-Za-z_0-9]*\(/)) next
                name = substr($0, RSTART, RLENGTH - 1) }
            g = 0; pending[FILENAME] = name; next }
        FILENAME in pending && pending[FILENAME] != "" {
            if ($0 ~ /\{/) { def[pending[FILENAME]] = def[pending[FILENAME]] " " FILENAME; pending[FILENAME] = "" }
            else if ($0 ~ /\);/) pending[FILENAME] = "" }
        END { for (f in def) if (split(def[f], x, " ") > 1) print f " is defined in" def[f] }' \
        $(ls tangle/*.cu tangle/*.h | grep -v -- '-lab\.cu$'))
    [ -z "$dup" ] && ok "no __global__ function is defined in two tangled files" \
        || fail "no __global__ function is defined in two tangled files" "$dup"
    # each chapter's tangled code within its own budget (its manifest's
    # field budget, 1,200 lines unless it says more), no file over 1,200
    if out=$(book/tools/bookdata budget 2>&1); then
        ok "every chapter's tangled code fits its budget ($(grep -c ' lines$' <<< "$out") chapters)"
    else fail "every chapter's tangled code fits its budget" "$(grep -v ' of .* lines$' <<< "$out")"; fi
}

# noweb concatenates the definitions of one chunk name, across files too:
# a name defined in two chapters is an accident waiting to happen.
test_chunk_names() {
    local dups
    dups=$(noweb_markup "$@" | awk '
        /^@file / { f = $2 }
        /^@defn / { n = substr($0, 7); if (!((n, f) in seen)) { seen[n, f]
                    files[n] = files[n] " " f; count[n]++ } }
        END { for (n in count) if (count[n] > 1)
                  print "<<" n ">> is defined in" files[n] }')
    [ -z "$dups" ] && ok "no chunk name is defined in two chapters" \
        || fail "no chunk name is defined in two chapters" "$dups"
}

# Each manifest declares what the tools need, and what it names exists.
test_manifests() {
    local n p bad defs
    defs=$(noweb_markup chapters/ch*.nw | sed -n 's/^@defn //p' | sort -u)
    for n in $CHAPTERS; do
        bad=""
        [ -n "$(programs_of "$n")" ] || bad="$bad no programs;"
        man "$n" needs | grep -Eq '^sm_[0-9]+a?$' \
            || bad="$bad needs '$(man "$n" needs)' is not sm_NN or sm_NNa;"
        local head; head=$(man "$n" headline)
        if built "$n"; then
            cat $(for p in $(programs_of "$n"); do echo "build/kernels-$p.tsv"; done) \
                > "$tmp/kernels" 2>/dev/null || bad="$bad no kernel list;"
            cut -f1 "$tmp/kernels" | grep -qx -- "$head" \
                || bad="$bad headline '$head' is not one of its kernels;"
        fi
        local lab; lab=$(man "$n" lab)
        if [ -n "$lab" ] && ! grep -qxF -- "$lab" <<< "$defs"; then
            bad="$bad lab chunk <<$lab>> is not defined;"; fi
        local lk; lk=$(man "$n" lab_kernel)
        [ -z "$lab" ] || [ "$n" = 0 ] || [ -n "$lk" ] \
            || bad="$bad a lab chunk but no lab_kernel;"
        if [ -n "$lk" ] && built "$n" && ! cut -f3 "$tmp/kernels" \
                | grep -qE "^$lk(<|\$)"; then
            bad="$bad lab_kernel $lk runs in none of its kernels;"; fi
        [ -z "$bad" ] && ok "ch$n: its manifest is complete" \
            || fail "ch$n: its manifest is complete" "$bad"
    done
}

no_warnings() {   # what, its compiler log (ptxas's report is not a warning)
    local w
    if [ ! -f "$2" ]; then fail "$1: no compiler warnings" "$2 is missing"; return; fi
    w=$(grep -v -e '^ptxas info' -e 'bytes stack frame' "$2")
    [ -z "$w" ] && ok "$1: no compiler warnings" || fail "$1: no compiler warnings" "$w"
}

test_compile() {
    local n p w
    for n in $CHAPTERS; do
        if ! built "$n"; then
            skip "ch$n: not built: it needs $(man "$n" needs), ARCH is $(awk -F'\t' '$1 == "ARCH" { print $2 }' build/manifest.tsv)"
            continue
        fi
        no_warnings "ch$n.cu" "build/ch$n.log"
        for p in $(programs_of "$n"); do
            [ -x "$p" ] && [ "$p" -nt "tangle/ch$n.cu" ] \
                && [ -f "build/main-$p.log" ] && [ ! -s "build/main-$p.log" ] \
                && ok "$p links, its main without warnings" \
                || fail "$p links, its main without warnings" \
                        "$(cat "build/main-$p.log" 2>&1)"
            test_ptxas "$p" "$(man "$n" spills)" "$n" "$(man "$n" may_spill)"
        done
        # a microbenchmark: compiled with the chapter's flags, no harness
        for p in $(micro_of "$n"); do
            [ -x "$p" ] && [ "$p" -nt "tangle/$p.cu" ] \
                && ok "$p compiles" || fail "$p compiles"
            no_warnings "$p" "build/$p.log"
        done
    done
    if [ -f build/harness.log ] && [ ! -s build/harness.log ]; then
        ok "harness.c: no warnings at -Wall -Wextra"
    else fail "harness.c: no warnings at -Wall -Wextra" \
              "$(cat build/harness.log 2>&1)"; fi
}

# Both ways of compiling a chapter give no warning: from tangle/ (a
# machine without noweb, or make bench) and from the copy tangled with
# #line directives (build/src/, where noweb is installed).  The build
# used one (build/chN.src says which); this compiles the other, to PTX
# only (ptxas's report is the build's), and reads its warnings.
test_compile_paths() {
    local p bad="" checked=0
    # (make targets with stamps, build/check/P.ok, in parallel: a file
    # whose source, headers and flags did not change is not compiled again)
    local progs
    progs=$(for n in $CHAPTERS; do built "$n" && echo "ch$n $(micro_of "$n")"; done)
    wait_build checks
    for p in $progs; do
        if [ -f "build/check/$p.ok" ]; then checked=$((checked + 1))
        else bad="$bad"$'\n'"$(cat "build/check/$p.log" 2> /dev/null || echo "$p: not checked: $(tail -3 "$top/checks.log")")"; fi
    done
    [ -z "$bad" ] && [ "$checked" -gt 0 ] \
        && ok "the other way of compiling ($checked files, from tangle/ or with #line) gives no warning" \
        || fail "the other way of compiling gives no warning" "$bad"
}

# One ptxas row per declared kernel function (each template instance its
# own), and no spills or stack in any row, but for the kernel entries
# that the chapter's manifest lists in its field spills (a chapter that
# measures what spilling costs), and the functions it lists there as
# ptxas names them, without spaces: those must spill.  Built for another GPU
# than the book's (ARCH not sm_90), the entries of its field may_spill
# may spill too: the compiler allocates registers per target.
test_ptxas() {
    local p=$1 f=build/ptxas-$1.csv spills=${2:-} may=${4:-} q
    case $(sed -n 's/^ARCH\t//p' build/manifest.tsv 2>/dev/null) in sm_90*) may="" ;; esac
    # the functions the chapter's entries that spill on purpose run, in
    # any of its programs (a sweep links the chapter's code, and so its
    # instances)
    for q in $(programs_of "$3"); do cat "build/kernels-$q.tsv" 2> /dev/null; done > "$tmp/entries"
    awk -F'\t' -v spills=" $spills " 'index(spills, " " $1 " ") { print $3 }' "$tmp/entries" \
        | tr -d ' ' > "$tmp/spilling"
    awk -F'\t' -v may=" $may " 'index(may, " " $1 " ") { print $3 }' "$tmp/entries" \
        | tr -d ' ' > "$tmp/mayspill"
    if [ ! -s "$f" ] || [ ! -s "build/kernels-$p.tsv" ]; then
        fail "$p: ptxas reports every kernel, without spills or stack" \
             "$f or build/kernels-$p.tsv is missing"; return
    fi
    local bad
    bad=$(book/tools/csvq -v kernels="build/kernels-$p.tsv" -v spills=" $spills " \
            -v spilling="$tmp/spilling" -v mayspill="$tmp/mayspill" -v may=" $may " '
        BEGIN { FS = "\t"; while ((getline l < kernels) > 0) { split(l, q, "\t")
                if (q[3] != "-") fn[q[3]] = q[1] }   # entries sharing a function: the last
                for (f in fn) want[fn[f]] = f
                while ((getline l < spilling) > 0) sp[l] = 1
                while ((getline l < mayspill) > 0) ms[l] = 1; FS = " " }
        csv_row() { next }
        { rows++; seen[F("kernel")]++
          spilled = F("spill_stores") + F("spill_loads") + F("stack_bytes") > 0
          fnn = F("function"); gsub(/ /, "", fnn)
          declared = (F("kernel") != "" && index(spills, " " F("kernel") " ")) \
                     || (F("kernel") == "" && fnn in sp) || index(spills, " " fnn " ")
          allowed = (F("kernel") != "" && index(may, " " F("kernel") " ")) \
                    || (F("kernel") == "" && fnn in ms)
          if (spilled && !declared && !allowed)
              print F("function") ": " F("spill_stores") "/" F("spill_loads") \
                    " bytes spilled, " F("stack_bytes") " of stack"
          if (declared && !spilled)
              print F("kernel") ": the manifest says it spills, ptxas says not" }
        END { for (k in want) if (seen[k] != 1)
                  print k " (" want[k] "): " seen[k] + 0 " ptxas rows, not 1"
              if (!rows) print "no rows" }' "$f")
    [ -z "$bad" ] && ok "$p: ptxas reports every kernel, without spills or stack" \
        || fail "$p: ptxas reports every kernel, without spills or stack" "$bad"
}

# The machine code shows what each chapter's manifest says it must.  An
# opcode matches when it has the manifest's pieces in order, with any
# modifiers between them, so that Turing's LDS.U.128 is an LDS.128 and
# its LDG.E.128.SYS an LDG.E.128; OP|OP2 accepts either spelling (Hopper's
# REDG is RED before it).  A kernel entry that needs a newer GPU
# than ARCH (its --list says .needs) has only a trap there, and nothing
# is asked of its machine code.
test_sass() {
    local n e kn op p needs arch
    arch=$(sed -n 's/^ARCH\tsm_\([0-9]*\).*/\1/p' build/manifest.tsv 2>/dev/null)
    for n in $CHAPTERS; do
        built "$n" || continue
        for e in $(man "$n" sass); do
            kn=${e%%:*} op=${e#*:}
            needs=$(cat $(for p in $(programs_of "$n"); do echo "build/kernels-$p.tsv"; done) \
                        2>/dev/null | awk -F'\t' -v k="$kn" '$1 == k { print $5 + 0; exit }')
            if [ -n "$arch" ] && [ "${needs:-0}" -gt "$arch" ]; then
                ok "ch$n: $kn needs sm_$needs, not built for it under sm_$arch"
                continue
            fi
            if cat $(for p in $(programs_of "$n"); do echo "build/sass-$p.csv"; done) \
                   2>/dev/null | book/tools/csvq -v kn="$kn" -v op="$op" '
                   function has(o, w,   h, x, nh, nx, i, j) {
                       nh = split(o, h, "."); nx = split(w, x, ".")
                       if (h[1] != x[1]) return 0
                       for (i = j = 2; i <= nh && j <= nx; i++)
                           if (h[i] == x[j]) j++
                       return j > nx }
                   function any(o,   a, na, i) { na = split(op, a, "|")
                       for (i = 1; i <= na; i++) if (has(o, a[i])) return 1
                       return 0 }
                   csv_row() { next } F("kernel") == kn && any(F("opcode")) && F("count") > 0 { found = 1 }
                   END { exit !found }'
            then ok "ch$n: $kn's machine code has $op"
            else fail "ch$n: $kn's machine code has $op"; fi
        done
    done
}

test_unit() {
    if [ ! -x tests/unit ]; then fail "harness unit tests" "tests/unit was not built"
    elif tests/unit > "$tmp/unit" 2>&1; then
        ok "harness unit tests ($(tail -1 "$tmp/unit"))"
    else fail "harness unit tests" "$(grep -v '^ok' "$tmp/unit")"; fi
}

# Bad input gets one clear line on stderr and exit code 2, before any
# GPU is touched, so this runs anywhere.
BAD_ARGS=("--size abc" "--size 0" "--size -3" "--size 12x" "-m 10"
          "--frobnicate" "--reps 0" "--alpha nan" "--size 5000000"
          "-m 50000 -n 50000 -k 50000" "--kernel nosuch" "--seed"
          "--ceilings --size 4" "--cpu" "--list=3" "--parse-only=1"
          "--parse-only --size abc" "--parse-only --kernel nosuch"
          "--sms 0" "--sms 8x" "--smem-limit 100" "--smem-limit")
# Every program parses its command line with the one main.c and the
# harness: the whole list where it tests something new (the first and
# the last chapter's programs, which differ in their options and their
# GPU target), three of its kinds everywhere else.
SOME_BAD_ARGS=("--size abc" "--frobnicate" "--kernel nosuch")
test_plans() {   # chapter 14's rules on the CPU, held against the H200's choices
    local h d=results/nvidia-h200
    if [ ! -x tests/plans ]; then fail "chapter 14's plans" "tests/plans was not built"; return; fi
    if [ ! -s build/ptxas-ch14.csv ]; then
        skip "chapter 14's plans: chapter 14 is not built for this ARCH"; return
    fi
    # (the H200's choices were made by the sm_90a build's kernels, whose
    # registers the plans count)
    if ! grep -q "code=sm_90a" build/ch14.flags 2> /dev/null; then
        skip "chapter 14's plans: chapter 14 is built for $(sed -n 's/.*code=\(sm_[0-9a-z]*\).*/\1/p' build/ch14.flags), not sm_90a"; return
    fi
    h=$(book/tools/bookdata codehash 14)
    python3 - "$h" "$d" > "$tmp/choices.tsv" <<'PY'
import csv, os, sys
h, d = sys.argv[1:]
for f in ('ch14.csv', 'suite-ch14.csv', 'validation-ch14.csv'):
    p = os.path.join(d, f)
    if os.path.exists(p):
        for r in csv.DictReader(open(p)):
            if r['code_hash'] == h:
                print('\t'.join((r['kernel'], r['m'], r['n'], r['k'], r['choice'])))
PY
    # lab 14's race check reaches the student's thin_rows and takes two
    # or more steps of its staging a block (lab_race_at, lab_race_args)
    local race sms out bad=""
    sms=$(book/tools/bookdata manifest 14 lab_race_args | sed -n 's/.*--sms \([0-9]*\).*/\1/p')
    for race in $(book/tools/bookdata manifest 14 lab_race_at); do
        out=$(tests/plans --thin build/ptxas-ch14.csv "${sms:-132}" "$race")
        case $out in "thin_rows "[2-9]*|"thin_rows "[1-9][0-9]*) ;; *) bad="$bad $race: $out;" ;; esac
    done
    [ -n "$(book/tools/bookdata manifest 14 lab_race_at)" ] || bad="no lab_race_at"
    [ -z "$bad" ] && ok "lab 14's race check plans the student's thin_rows, two or more steps a block" \
        || fail "lab 14's race check plans the student's thin_rows, two or more steps a block" "$bad"
    if tests/plans build/ptxas-ch14.csv "$tmp/choices.tsv" > "$tmp/plans" 2>&1; then
        ok "chapter 14's plans on the CPU ($(grep -c '^ok' "$tmp/plans") checks: $(grep "H200's plans" "$tmp/plans" | sed 's/.*made, //'))"
    else fail "chapter 14's plans on the CPU" "$(grep -v '^ok' "$tmp/plans")"; fi
}

# Lab 12's race check reaches both tiles of the student's loop and
# reuses the ring: with lab_race_args' SMs, one shape whose full tiles
# would leave more than half the SMs idle (half tiles, M64 = 1) and one
# whose blocks take two or more full tiles each (M64 = 2, the persistent
# producer crossing tiles); the rows of A and B 16-byte multiples in BF16
# (the TMA unit reads them unpadded); more steps of k than two laps of
# the ring in BF16 (64 a step) and TF32 (32). The rule is
# hopper_tall() of chapter 12's host code, read from tangle/ch12.cu.
test_lab12_race() {
    local rule sms race m n k tiles bad="" half=0 multi=0
    rule=$(grep -A2 '^int hopper_tall' tangle/ch12.cu | tr -d ' \n')
    case $rule in
        *"returnCEIL_DIV(m,256)*CEIL_DIV(n,128)>sm_count()/2;"*) ;;
        *) fail "lab 12's race check reaches both tiles and reuses the ring" "hopper_tall() changed: $rule"; return ;;
    esac
    sms=$(book/tools/bookdata manifest 12 lab_race_args | sed -n 's/.*--sms \([0-9]*\).*/\1/p')
    [ -n "$sms" ] || { fail "lab 12's race check reaches both tiles and reuses the ring" "no --sms in lab_race_args"; return; }
    for race in $(book/tools/bookdata manifest 12 lab_race_at); do
        IFS=x read -r m n k <<< "$race"
        tiles=$(( (m + 255) / 256 * ((n + 127) / 128) ))
        if [ $tiles -gt $((sms / 2)) ]; then
            [ $tiles -ge $((2 * sms)) ] && multi=1
        else half=1; fi
        [ $((2 * k % 16)) = 0 ] && [ $((2 * n % 16)) = 0 ] || bad="$bad $race: rows the TMA unit cannot read;"
        [ $(( (k + 63) / 64 )) -gt 8 ] && [ $(( (k + 31) / 32 )) -gt 8 ] || bad="$bad $race: fewer than two laps of the ring;"
    done
    [ $half = 1 ] || bad="$bad no shape of half tiles;"
    [ $multi = 1 ] || bad="$bad no shape of two full tiles a block;"
    [ -z "$bad" ] && ok "lab 12's race check reaches both tiles and reuses the ring" \
        || fail "lab 12's race check reaches both tiles and reuses the ring" "$bad"
}

# Lab 12's BF16 entry runs the student's kernel only where the TMA unit
# can read the rows (chapter 12's tma_ok: 16 bytes, 8 numbers of BF16),
# elsewhere chapter 10's: the grader counts only the shapes that reach
# it (lab_reach aligned-bf16), and its added shapes and paddings reach.
test_lab12_reach() {
    local rule s m n k v p bad=""
    rule=$(grep -A3 '^int tma_ok' tangle/ch12.cu | tr -d ' \n')
    [[ "$rule" == *"%16==0&&(size_t)ld*size%16==0;"* ]] || bad="$bad tma_ok() changed: $rule;"
    [ "$(book/tools/bookdata manifest 12 lab_reach)" = aligned-bf16 ] || bad="$bad lab_reach is not aligned-bf16;"
    . book/tools/shapes
    for s in $LAB_ALIGNED8_SHAPES; do
        IFS=x read -r m n k <<< "$s"
        [ $((n % 8)) = 0 ] && [ $((k % 8)) = 0 ] || bad="$bad $s: N or K not a multiple of 8;"
    done
    IFS='|' read -ra v <<< "$LAB_ALIGNED8_VARIANTS"
    for p in "${v[@]}"; do
        p=$(sed -n 's/.*--pad \([0-9]*\).*/\1/p' <<< "$p")
        [ -n "$p" ] && [ $((p % 8)) = 0 ] || bad="$bad variant '$p': padding not a multiple of 8;"
    done
    [ -z "$bad" ] && ok "lab 12's BF16 checks count only the shapes that reach the student's kernel" \
        || fail "lab 12's BF16 checks count only the shapes that reach the student's kernel" "$bad"
}

# Appendix L's table of chapter 14's constants gives each value as the
# code has it: a row "[[A]], [[B]] & 1, 2 &" names the constants and
# their values in order, and each must be "NAME = VALUE" (or an array
# NAME[..] = { VALUES }) in chapter 14's tangled files.
test_ch14_constants() {
    local rows bad="" names values i name value code
    rows=$(grep -E '^\[\[[A-Za-z0-9_]+\]\](, \[\[[A-Za-z0-9_]+\]\])* & [0-9, ]+ &' chapters/ch14-results.nw)
    [ "$(printf '%s\n' "$rows" | grep -c .)" -ge 20 ] \
        || { fail "appendix L's constants are the code's" "fewer than 20 rows in the table"; return; }
    code=$(cat tangle/plan14.h tangle/ch14.h tangle/ch14.cu)
    while IFS='&' read -r names values _; do
        names=$(echo "$names" | tr -d '[] ')
        values=$(echo "$values" | tr -d ' ')
        if grep -qE "\b${names}\[[0-9]*\] = \{" <<< "$code"; then
            grep -qE "\b${names}\[[0-9]*\] = \{ *$(sed 's/,/, */g' <<< "$values") *\}" <<< "$code" \
                || bad="$bad $names is not { $values };"
            continue
        fi
        IFS=, read -ra N <<< "$names"; IFS=, read -ra V <<< "$values"
        [ ${#N[@]} = ${#V[@]} ] || { bad="$bad $names: ${#N[@]} names, ${#V[@]} values;"; continue; }
        for i in "${!N[@]}"; do
            grep -qE "\b${N[$i]} = ${V[$i]}\b" <<< "$code" || bad="$bad ${N[$i]} is not ${V[$i]};"
        done
    done <<< "$rows"
    [ -z "$bad" ] && ok "appendix L's constants are the code's" \
        || fail "appendix L's constants are the code's" "$bad"
}

# A build that knows what it was built from: book/tools/stamps keeps a
# checksum of each tangled file and rewrites it only when the content
# changed; make compiles an object again when a stamp of what it reads
# changed, even where the source's date is older than the object's (here
# planted: a stamp that no longer matches, which make -n must answer with
# a compile); and bench refuses a program whose build/P.codehash is not
# the code's hash (planted), before it measures anything.
test_stale_builds() {
    local d=$tmp/stamps out rc keep
    mkdir -p "$d/src"; echo one > "$d/src/a.cu"; echo two > "$d/src/b.h"
    out=$(book/tools/stamps "$d/st" "$d/src/a.cu" "$d/src/b.h" | tr '\n' ' ')
    [ "$out" = "a.cu b.h " ] || { fail "stamps: new files are named" "got '$out'"; return; }
    out=$(book/tools/stamps "$d/st" "$d/src/a.cu" "$d/src/b.h")
    echo three > "$d/src/b.h"; touch -d 2000-01-01 "$d/src/b.h"
    keep=$(cat "$d/st/b.h")
    [ -z "$out" ] && [ "$(book/tools/stamps --check "$d/st" "$d/src/a.cu" "$d/src/b.h")" = b.h ] \
        && [ "$(cat "$d/st/b.h")" = "$keep" ] \
        && [ "$(book/tools/stamps "$d/st" "$d/src/a.cu" "$d/src/b.h")" = b.h ] \
        && [ "$(cat "$d/st/b.h")" != "$keep" ] \
        && ok "stamps: a file is named once its content changes, whatever its date; --check writes nothing" \
        || fail "stamps: a file is named once its content changes" "unchanged: '$out'"
    if [ -f build/stamp/ch1.cu ] && [ -f build/ch1.o ]; then
        keep=$(cat build/stamp/ch1.cu)
        echo "0 0" > build/stamp/ch1.cu
        if make -n NO_TANGLE=1 ch1 2> /dev/null | grep -q 'build/ch1\.o'; then
            ok "make compiles again a source whose content changed, whatever its date"
        else fail "make compiles again a source whose content changed" "make -n plans no compile of build/ch1.o"; fi
        echo "$keep" > build/stamp/ch1.cu
        touch -r build/ch1.o -d '-1 hour' build/stamp/ch1.cu 2> /dev/null || touch -d '2000-01-01' build/stamp/ch1.cu
    else skip "make and the stamps: chapter 1 is not built here"; fi
    if [ -x ./ch1 ] && [ -f build/ch1.codehash ]; then
        keep=$(cat build/ch1.codehash)
        echo 0123456789abcdef > build/ch1.codehash
        book/tools/bench 256 1 > /dev/null 2> "$tmp/stale"; rc=$?
        echo "$keep" > build/ch1.codehash
        [ $rc = 2 ] && grep -q "^bench: ./ch1 was linked from other code than tangle/ holds (0123456789abcdef" "$tmp/stale" \
            && ok "bench refuses a program linked from other code than tangle/ holds" \
            || fail "bench refuses a program linked from other code" "exit $rc: $(head -2 "$tmp/stale")"
    else skip "bench and build/ch1.codehash: ch1 is not built here"; fi
}

# The library (make lib; appendix: chapter 14's dispatchers as a
# library): its header as C99 and as C++ (where a cudaStream_t passes as
# the stream), its argument checks through the static and the shared
# library, only sgemmbook_* exported (the check itself shown to catch a
# name, on an object that was not made local), make install's files,
# and the example, linked through pkg-config, on this machine.
test_lib() {
    local cuda_inc t bad want got rc
    if [ ! -f build/lib/libsgemmbook.a ]; then
        fail "the library" "build/lib/libsgemmbook.a was not built"; return
    fi
    for t in tests/libcheck tests/libcheck-so; do
        if [ ! -x $t ]; then fail "the library through $t" "$t was not built"; continue; fi
        if $t > "$tmp/libcheck" 2>&1; then
            ok "the library's checks of its arguments, through $t ($(tail -1 "$tmp/libcheck"))"
        else fail "the library's checks of its arguments, through $t" "$(grep -v passed "$tmp/libcheck")"; fi
    done
    want=10; have_gpu && want=0      # SGEMMBOOK_NO_DEVICE without a GPU
    got=$(sed -n 's/^create: //p' "$tmp/libcheck")
    [ "$got" = "$want" ] && ok "sgemmbook_create says $got on this machine" \
        || fail "sgemmbook_create on this machine" "status ${got:-none}, not $want"
    if [ -x tests/libverify ]; then
        rc=0; tests/libverify 5x5 > "$tmp/lv" 2>&1 || rc=$?
        [ $rc = 2 ] && [ "$(wc -l < "$tmp/lv")" = 1 ] \
            && ok "tests/libverify refuses a shape that is not MxNxK, in one line, exit 2, GPU or not" \
            || fail "tests/libverify refuses a bad shape" "exit $rc: $(cat "$tmp/lv")"
    else fail "tests/libverify refuses a bad shape" "tests/libverify was not built"; fi
    cuda_inc=$(dirname "$(command -v nvcc)")/../include
    printf '#include <cuda_runtime_api.h>\n#include "sgemmbook.h"\nint f(sgemmbook_handle h, cudaStream_t s) { return sgemmbook_set_stream(h, s); }\n' \
        > "$tmp/lib.cc"
    if ${CXX:-g++} -std=c++11 -Wall -Wextra -pedantic -Werror -fsyntax-only -Itangle \
           -isystem "$cuda_inc" "$tmp/lib.cc" > "$tmp/libcc" 2>&1; then
        ok "the library's header compiles as C++, and takes a cudaStream_t"
    else fail "the library's header compiles as C++, and takes a cudaStream_t" "$(head -5 "$tmp/libcc")"; fi
    unexported() { nm -g --defined-only "$@" 2> /dev/null | awk 'NF == 3 && $3 !~ /^sgemmbook_/ { print $3 }'; }
    bad=$(unexported build/lib/libsgemmbook.a; nm -D --defined-only build/lib/libsgemmbook.so \
            | awk 'NF == 3 && $3 !~ /^sgemmbook_/ { print $3 }')
    if [ -z "$bad" ] && [ -n "$(unexported build/lib/ch14.o)" ] \
       && [ "$(nm -D --defined-only build/lib/libsgemmbook.so | grep -c ' T sgemmbook_')" = 8 ]; then
        ok "the library exports its eight sgemmbook_* functions and nothing else"
    else fail "the library exports only sgemmbook_*" "$(echo "$bad" | head -5)"; fi
    # machine code for Ampere, Ada and Hopper, and PTX for what follows
    got=$(book/tools/bookdata fatbin build/lib/libsgemmbook.so 2>&1 | tr '\n' ' ')
    want="ptx sm_80 sass sm_80 sass sm_86 sass sm_89 sass sm_90"
    bad=
    for t in "ptx sm_80" "sass sm_80" "sass sm_86" "sass sm_89" "sass sm_90"; do
        [[ " $got " == *" $t "* ]] || bad="$bad, no $t"
    done
    [ -z "$bad" ] && ok "the shared library holds machine code for sm_80, sm_86, sm_89 and sm_90a, and sm_80's PTX" \
        || fail "the shared library's GPU code" "it holds: $got (wanted $want${bad})"
    # (the library's compiles write their messages to build/lib/*.log)
    bad=$(for t in build/lib/*.log; do grep -v -e '^ptxas info' -e '^ptxas .*Compiling entry' \
            -e '^ptxas .*Function properties' -e '^ *[0-9]* bytes stack frame' -e '^ *Used [0-9]* registers' \
            "$t" | sed "s|^|$t: |"; done | head -5)
    [ -n "$(ls build/lib/*.log 2> /dev/null)" ] && [ -z "$bad" ] \
        && ok "the library compiles without a warning" || fail "the library compiles without a warning" "${bad:-no build/lib/*.log}"
    rm -rf "$tmp/prefix"
    if make -s install PREFIX="$tmp/prefix" > /dev/null 2>&1 \
       && [ -f "$tmp/prefix/lib/libsgemmbook.a" ] && [ -f "$tmp/prefix/lib/libsgemmbook.so" ] \
       && [ -f "$tmp/prefix/include/sgemmbook.h" ] \
       && [ "$(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --modversion sgemmbook)" \
            = "$(sed -n 's/^version: *"\{0,1\}\([^"]*\)"\{0,1\}/\1/p' CITATION.cff)" ]; then
        ok "make install PREFIX=... installs the libraries, the header and a pkg-config file of the book's version"
    else fail "make install PREFIX=..." "$(find "$tmp/prefix" -type f 2> /dev/null | head)"; fi
    make -s uninstall PREFIX="$tmp/prefix" > /dev/null 2>&1
    [ -z "$(find "$tmp/prefix" -type f 2> /dev/null)" ] && ok "make uninstall PREFIX=... removes what make install put there" \
        || fail "make uninstall PREFIX=..." "left: $(find "$tmp/prefix" -type f | head -3)"
    if [ ! -x examples/gemm ]; then fail "the example" "examples/gemm was not built"; return; fi
    if ! ldd examples/gemm | grep -q "libsgemmbook.so => $PWD/build/stage/lib/"; then
        fail "the example links the library through pkg-config" "$(ldd examples/gemm | grep sgemm)"
    else ok "the example links the shared library found through pkg-config"; fi
    examples/gemm 512 > "$tmp/ex" 2>&1; rc=$?
    if have_gpu; then
        [ $rc = 0 ] && grep -q correct "$tmp/ex" && ok "the example: $(cat "$tmp/ex")" \
            || fail "the example on this GPU" "exit $rc: $(head -2 "$tmp/ex")"
    else
        [ $rc = 3 ] && [ "$(wc -l < "$tmp/ex")" = 1 ] \
            && ok "the example without a GPU: one line and exit 3" \
            || fail "the example without a GPU" "exit $rc: $(head -2 "$tmp/ex")"
    fi
    examples/gemm 512 fp16 > "$tmp/ex" 2>&1; rc=$?
    [ $rc = 2 ] && [ "$(wc -l < "$tmp/ex")" = 1 ] && ok "the example with bad arguments: one line and exit 2" \
        || fail "the example with bad arguments" "exit $rc: $(head -2 "$tmp/ex")"
}

test_cli() {
    local n p a rc lines first last args
    first=$(man buildable | awk '{ print $1 }'); last=$(man buildable | awk '{ print $NF }')
    for n in $CHAPTERS; do
        built "$n" || continue
        for p in $(programs_of "$n"); do
            local bad=""
            if [ "$n" = "$first" ] || [ "$n" = "$last" ]; then args=("${BAD_ARGS[@]}")
            else args=("${SOME_BAD_ARGS[@]}"); fi
            for a in "${args[@]}"; do
                # a chapter that measures the ceilings or has a CPU
                # version accepts those options
                [ -n "$(man "$n" ceilings)" ] && [[ "$a" == --ceilings* ]] && continue
                [[ "$(man "$n" extra_runs)" == *--cpu* ]] && [ "$a" = --cpu ] && continue
                ./$p $a > "$tmp/out" 2> "$tmp/err"
                rc=$?
                lines=$(wc -l < "$tmp/err")
                if [ $rc != 2 ] || [ "$lines" != 1 ] || [ -s "$tmp/out" ] \
                   || ! grep -q "^$p: " "$tmp/err"; then
                    bad="$bad"$'\n'"'$a': exit $rc, $(cat "$tmp/err")"
                fi
            done
            [ -z "$bad" ] && ok "$p: bad input gives one line and exit 2" \
                || fail "$p: bad input gives one line and exit 2" "$bad"
            ./$p --help > "$tmp/out" 2>&1 && grep -q -- --size "$tmp/out" \
                && grep -q -- --parse-only "$tmp/out" \
                && ok "$p: --help" || fail "$p: --help"
            # --parse-only accepts a good command silently, without a GPU
            # (with one missing, a run would stop with exit code 3)
            if ./$p --parse-only --size 64,100 --pad 3 --beta 0.5 --csv \
                   > "$tmp/out" 2>&1 && [ ! -s "$tmp/out" ] \
               && ./$p --parse-only -m 5 -n 6 -k 7 --help > "$tmp/out" 2>&1 \
               && [ ! -s "$tmp/out" ]; then
                ok "$p: --parse-only accepts good options quietly"
            else fail "$p: --parse-only accepts good options quietly" \
                      "$(cat "$tmp/out")"; fi
            if ./$p --list > "$tmp/out" 2>&1 && [ -s "$tmp/out" ] \
               && awk -F'\t' 'NF != 5 || $5 !~ /^[0-9]+$/ { exit 1 }' "$tmp/out"; then
                ok "$p: --list names its kernels without a GPU"
            else fail "$p: --list names its kernels without a GPU" "$(cat "$tmp/out")"; fi
        done
    done
}

# A chapter's microbenchmark (its manifest's field micro) is not a harness
# program: ./P prints a table, ./P --csv its rows, ./P --help its usage,
# ./P --list what it measures and ./P --parse-only nothing, as every
# program does; any other argument is one line on stderr and exit code 2,
# before any GPU is touched.
MICRO_BAD_ARGS=("--frobnicate" "--size 64" "-m 10" "--list=1"
                "csv" "--csv extra" "--help=1" "--csv=1" "-")
test_micro_cli() {
    local n p a rc lines bad
    for n in $CHAPTERS; do
        built "$n" || continue
        for p in $(micro_of "$n"); do
            if [ ! -x "./$p" ]; then
                fail "$p: bad input gives one line and exit 2" "./$p is missing"
                fail "$p: --help"; continue
            fi
            bad=""
            for a in "${MICRO_BAD_ARGS[@]}"; do
                ./$p $a > "$tmp/out" 2> "$tmp/err"
                rc=$?
                lines=$(wc -l < "$tmp/err")
                if [ $rc != 2 ] || [ "$lines" != 1 ] || [ -s "$tmp/out" ] \
                   || ! grep -q "^$p: " "$tmp/err"; then
                    bad="$bad"$'\n'"'$a': exit $rc, $(cat "$tmp/err")"
                fi
            done
            [ -z "$bad" ] && ok "$p: bad input gives one line and exit 2" \
                || fail "$p: bad input gives one line and exit 2" "$bad"
            ./$p --help > "$tmp/out" 2>&1 && [ -s "$tmp/out" ] \
                && grep -q -- --csv "$tmp/out" \
                && ok "$p: --help" || fail "$p: --help" "$(cat "$tmp/out")"
            ./$p --list > "$tmp/out" 2> "$tmp/err" && [ -s "$tmp/out" ] \
                && [ ! -s "$tmp/err" ] \
                && ok "$p: --list says what it measures, without a GPU" \
                || fail "$p: --list says what it measures, without a GPU" "$(cat "$tmp/out" "$tmp/err")"
            ./$p --csv --parse-only > "$tmp/out" 2>&1 && [ ! -s "$tmp/out" ] \
                && ok "$p: --parse-only reads the command line and stops" \
                || fail "$p: --parse-only reads the command line and stops" "$(cat "$tmp/out")"
        done
    done
}

# Without a GPU a microbenchmark says so in one line, and exits with 3.
test_micro_no_gpu() {
    local n p a rc
    for n in $CHAPTERS; do
        built "$n" || continue
        for p in $(micro_of "$n"); do
            for a in "" --csv; do
                ./$p $a > "$tmp/out" 2> "$tmp/err"
                rc=$?
                if [ $rc = 3 ] && [ "$(wc -l < "$tmp/err")" = 1 ] \
                   && grep -q "^$p: no CUDA GPU is available" "$tmp/err"
                then ok "./$p${a:+ $a} without a GPU: a clear message and exit 3"
                else fail "./$p${a:+ $a} without a GPU: a clear message and exit 3" \
                          "exit $rc: $(cat "$tmp/err")"; fi
            done
        done
    done
}

test_no_gpu() {
    local rc p
    p=$(programs_of "$(man buildable | awk '{ print $NF }')")
    p=${p%% *}
    ./$p --size 64 > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ $rc = 3 ] && grep -q "^$p: no CUDA GPU is available" "$tmp/err"
    then ok "without a GPU: a clear message and exit 3"
    else fail "without a GPU: a clear message and exit 3" \
              "exit $rc: $(cat "$tmp/err")"; fi
}

# Every chapter has real measurements of every kernel at every standard
# size, all verified, measured on the code that is in tangle/ now, with
# the profiler's counters of every kernel that has a function of its own.
# A chapter's tuning sweep (its manifest's field sweep): every kernel of
# the sweep program measured, verified, on the current code.
test_sweep() {   # chapter program hash
    local f=$RESULTS/sweep-ch$1.csv bad
    [ -f "$f" ] || { fail "ch$1: the sweep's results exist" "$f missing"; return; }
    bad=$(book/tools/csvq -v hash="$3" -v kernels="build/kernels-$2.tsv" '
        BEGIN { while ((getline l < kernels) > 0) { split(l, q, "\t"); want[q[1]] = 1 } }
        csv_row() { next }
        { rows++; got[F("kernel")] = 1
          if (F("check") != "ok") print "row " FNR ": check " F("check")
          if (F("code_hash") != hash) print "row " FNR ": stale" }
        END { for (k in want) if (!(k in got)) print k ": not measured"
              if (!rows) print "no rows" }' "$f")
    [ -z "$bad" ] && ok "ch$1: the sweep measured every configuration, verified and fresh" \
        || fail "ch$1: the sweep measured every configuration, verified and fresh" "$bad"
}

# A chapter's microbenchmark measured on the code in tangle/: rows with a
# name and a rate (tflops) or a time (ms), none failing its check, each
# with the chapter's code hash.
test_micro_results() {   # chapter
    local f=$RESULTS/micro-ch$1.csv bad
    [ -f "$f" ] || { fail "ch$1: the microbenchmark's results exist" "$f missing"; return; }
    bad=$(book/tools/csvq -v hash="$(book/tools/bookdata codehash "$1")" '
        csv_row() { for (c in want) if (!has_col(c)) print "no column " c; next }
        BEGIN { split("name runs code_hash", w, " ")
                for (i in w) want[w[i]] = 1 }
        { rows++
          if (F("name") == "") print "row " FNR ": no name"
          # (a row of a transfer alone has a time and no rate of flops)
          v = has_col("tflops") && F("tflops") + 0 > 0 ? F("tflops") : F("ms")
          if (!(v + 0 > 0)) print "row " FNR ": no rate or time: " v
          if (has_col("check") && F("check") == "FAIL") print "row " FNR ": check FAIL"
          if (F("code_hash") != hash) print "row " FNR ": stale (code hash " \
              F("code_hash") ", code is " hash ")" }
        END { if (!rows) print "no rows" }' "$f")
    [ -z "$bad" ] && ok "ch$1: the microbenchmark's results exist and are fresh" \
        || fail "ch$1: the microbenchmark's results exist and are fresh" "$bad"
}

# A chapter's trace of timed steps (its manifest's field events), which the
# book draws as a timeline: every step has a flow and a lane, and ends
# after it starts.
test_events() {   # chapter
    local f=$RESULTS/events-ch$1.csv bad
    [ -f "$f" ] || { fail "ch$1: the trace exists" "$f missing"; return; }
    bad=$(book/tools/csvq '
        csv_row() { for (c in want) if (!has_col(c)) print "no column " c; next }
        BEGIN { split("flow lane panel start_ms end_ms", w, " ")
                for (i in w) want[w[i]] = 1 }
        { rows++
          if (F("flow") == "" || F("lane") == "") print "row " FNR ": no flow or lane"
          if (!(F("start_ms") + 0 >= 0 && F("end_ms") + 0 >= F("start_ms") + 0))
              print "row " FNR ": from " F("start_ms") " to " F("end_ms") " ms" }
        END { if (rows < 2) print "fewer than two steps" }' "$f")
    [ -z "$bad" ] && ok "ch$1: the trace exists, each step ending after it starts" \
        || fail "ch$1: the trace exists, each step ending after it starts" "$bad"
}

test_results() {
    local n f hash bad p sweep
    if [ -z "$RESULTS" ] || [ ! -d "$RESULTS" ]; then
        fail "measured results exist" "no results/<gpu>/ directory"
        return
    fi
    # a folder measured in several runs (make bench's default) holds
    # every timed figure in three or more (a reader's one-run folder
    # reads as it always did)
    if grep -q ',run$' "$RESULTS"/ch*.csv 2>/dev/null; then
        bad=$(book/tools/bookdata runs-short "$RESULTS" 2>&1)
        [ -z "$bad" ] && ok "every timed figure in $RESULTS holds three or more runs" \
            || fail "every timed figure in $RESULTS holds three or more runs" "$(echo "$bad" | head -5)"
    else skip "every timed figure holds three or more runs: $RESULTS was measured in one run"; fi
    for n in $CHAPTERS; do
        [ -n "$(micro_of "$n")" ] && test_micro_results "$n"
        [ -n "$(man "$n" events)" ] && test_events "$n"
        f=$RESULTS/ch$n.csv
        [ -f "$f" ] || { fail "ch$n: results exist" "$f missing"; continue; }
        hash=$(book/tools/bookdata codehash "$n")
        sweep=$(man "$n" sweep); sweep=${sweep%% *}
        cat $(for p in $(programs_of "$n"); do
                  [ "$p" = "$sweep" ] || echo "build/kernels-$p.tsv"; done) \
            > "$tmp/kernels" 2>/dev/null
        [ -n "$sweep" ] && test_sweep "$n" "$sweep" "$hash"
        if [ ! -s "$tmp/kernels" ] && ! built "$n"; then
            # not built for this ARCH: its kernels are those its results name
            book/tools/csvq 'csv_row() { next } { print F("kernel") "\t" F("precision") }' \
                "$f" | sort -u > "$tmp/kernels"
        fi
        if [ ! -s "$tmp/kernels" ]; then
            fail "ch$n: results complete, verified and fresh" "no kernel list (not built)"
            continue
        fi
        bad=$(book/tools/csvq -v sizes="$SIZES" -v hash="$hash" \
                   -v kernels="$tmp/kernels" '
            BEGIN { while ((getline l < kernels) > 0) { split(l, q, "\t"); want[q[1]] = q[2] } }
            csv_row() { next }
            { rows++; seen[F("kernel") " " F("m") "x" F("n") "x" F("k")] = 1
              if (F("check") != "ok") print "row " FNR ": check " F("check")
              else if (F("ref") != "fp64") print "row " FNR ": checked against " F("ref") ", not the float64 product"
              if (F("driver") !~ /^([0-9]+\.|cuda-)/)
                  print "row " FNR ": driver version \"" F("driver") "\""
              if (F("code_hash") != hash) print "row " FNR ": stale (code hash " \
                  F("code_hash") ", code is " hash ")"
              if (F("kernel") in want && F("precision") != want[F("kernel")])
                  print "row " FNR ": precision " F("precision") ", the kernel says " want[F("kernel")] }
            END { n = split(sizes, s, " ")
                  for (k in want) for (i = 1; i <= n; i++)
                      if (!((k " " s[i] "x" s[i] "x" s[i]) in seen))
                          print k ": no row for size " s[i]
                  if (!rows) print "no rows" }' "$f")
        [ -z "$bad" ] && ok "ch$n: results complete, verified and fresh" \
            || fail "ch$n: results complete, verified and fresh" "$bad"
        if ! built "$n"; then
            # (which kernels run a function of their own, and so have
            # counters, the build's kernel list says: not built here)
            skip "ch$n: profiler counters kept for every kernel: not built for this ARCH"
        elif awk -F'\t' '$3 != "-" { found = 1 } END { exit !found }' "$tmp/kernels"; then
            bad=$(awk -F'\t' '$3 != "-" { print $1 }' "$tmp/kernels" | while read -r k; do
                grep -q "^\"$k\"," "$RESULTS/ncu-ch$n.csv" 2>/dev/null || echo "no counters for $k"
            done)
            [ -z "$bad" ] && ok "ch$n: profiler counters kept for every kernel" \
                || fail "ch$n: profiler counters kept for every kernel" "$bad"
        fi
        if [ -n "$(man "$n" ceilings)" ]; then
            f=$RESULTS/ceilings.csv
            if [ -f "$f" ] && [ "$(book/tools/csvq 'csv_row() { next } { print F("code_hash") }' "$f")" \
                                  = "$hash" ]; then
                ok "ch$n: ceilings measured with the current code"
            else fail "ch$n: ceilings measured with the current code"; fi
        fi
    done
}

# Every model formula of every manifest gave a number.
test_models() {
    local n v bad=""
    [ -f build/results.keys ] || { fail "every model key has a value" "no build/results.keys"; return; }
    for n in $CHAPTERS; do
        for v in $(awk -F'\t' -v n="$n" '$1 == n && $2 ~ /^(model|verdict|compare)\./ { print $2 }' build/manifest.tsv); do
            grep -q "^$v	" build/results.keys || bad="$bad ch$n:$v"
        done
    done
    [ -z "$bad" ] && ok "every model, verdict and comparison key of the manifests has a value" \
        || fail "every model, verdict and comparison key of the manifests has a value" "$bad"
}

# The prose of the book (the chapters' documentation, quoted code left
# out, and the preface), one line each as FILE:LINE: TEXT.
prose_lines() {
    noweb_markup chapters/ch*.nw | awk '
        /^@file / { f = $2; line = 1; next }
        /^@nl/ { if (doc && t != "") print f ":" line ": " t; t = ""; line++; next }
        /^@begin docs/ { doc = 1; next }
        /^@end docs/ { doc = 0; next }
        /^@quote/ { quote = 1; next }
        /^@endquote/ { quote = 0; next }
        doc && !quote && /^@text / { t = t substr($0, 7) }'
    awk '{ print FILENAME ":" FNR ": " $0 }' book/preface.tex answers/*.tex
}

# Figures of the GPU the book was measured on (its SM count, clock,
# shared memory, L2, registers, lanes, name) that prose could be tempted
# to type: each must come from the results, as a key, so that a book built
# from another GPU's results is right.
GPU_FIGURES='(^|[^0-9.])(132|1[\\,]*980|22[78]~?[\\,]*KB|65[\\,]*536|2048 thread)([^0-9]|$)
(^|[^0-9.])(50|52|60|63|80|141)~?[\\,]*[MG]B([^0-9a-zA-Z]|$)
[0-9]+ FP32 lanes|FP32 lanes of [0-9]|SM could do [0-9]
(^|[^0-9])(64|32) (warps|blocks) (per|an|of) SM|of the 64 an SM
(^|[^0-9.])(48|227)~?[\\,]*KB
H100|H200|Hopper SM has'

# The keys of the book made from a results folder, once per folder and
# run: the build's own for RESULTS, else build/keys-GPU/ (below ., where
# bibtex writes).  Sets KEYS_OUT to the folder; fails if the keys do not
# build.  (Call it as a command, not in $(...), so that it remembers.)
declare -A KEYS_FOR=()
keys_for() {
    local dir=${1%/} out
    [ "$dir" = "$RESULTS" ] && { KEYS_OUT=build; return 0; }
    out=build/keys-$(basename "$dir"); KEYS_OUT=$out
    if [ -z "${KEYS_FOR[$dir]:-}" ]; then
        rm -rf "$out"; mkdir -p "$out"
        cp build/manifest.tsv build/ptxas-*.csv build/sass-*.csv \
           build/kernels-*.tsv "$out/" 2> /dev/null
        # (the machine code, read only: linked, not copied)
        for f in build/sass-obj-*.txt; do ln -s "$PWD/$f" "$out/"; done
        book/tools/bookdata keys "$out" "$dir" $CHAPTERS > "$out/log" 2>&1 \
            && KEYS_FOR[$dir]=ok || KEYS_FOR[$dir]=failed
    fi
    [ "${KEYS_FOR[$dir]}" = ok ]
}

# No typed GPU figure in the prose, and every results directory gives a
# value to each GPU key (gpu.*, dev.*, ceil.*) the prose uses: old result files
# without the newer columns included.
test_gpu_figures() {
    local bad dir keys k out rc
    prose_lines > "$tmp/prose"
    printf '%s\n' "$GPU_FIGURES" > "$tmp/figures"
    bad=$(gawk -v pats="$tmp/figures" '
        BEGIN { while ((getline l < pats) > 0) pat[++n] = l }
        { t = $0; sub(/^[^:]*:[0-9]+: /, "", t); gsub(/\\R\{[^}]*\}/, "", t)
          for (i = 1; i <= n; i++) if (t ~ pat[i]) { print; next } }' "$tmp/prose")
    [ -z "$bad" ] && ok "the prose types no figure of the GPU (they are result keys)" \
        || fail "the prose types no figure of the GPU (they are result keys)" "$bad"
    keys=$(grep -o '\\R{\(gpu\|dev\|ceil\)\.[^}]*}' "$tmp/prose" | sed 's/^\\R{//; s/}$//' | sort -u)
    for dir in results/*/; do
        dir=${dir%/}
        keys_for "$dir"; rc=$?; out=$KEYS_OUT
        if [ $rc != 0 ]; then
            fail "$dir: the book's keys build from it" "$(tail -5 "$out/log")"; continue
        fi
        bad=""
        for k in $keys; do
            grep -q "^$k	[^?]" "$out/results.keys" || bad="$bad $k"
        done
        [ -z "$bad" ] && ok "$dir: every GPU key of the prose has a value ($(echo $keys | wc -w) keys)" \
            || fail "$dir: every GPU key of the prose has a value" "no value for:$bad"
    done
}

# The PDF's text (pdftotext), made once in a run: $tmp/book.txt.
book_txt() { [ -s "$tmp/book.txt" ] || pdftotext build/book.pdf "$tmp/book.txt"; }
test_book() {
    local f n head rate
    for f in build/book.pdf build/book.html; do
        [ -s "$f" ] && ok "$f built" || fail "$f built"
    done
    [ -s build/book.pdf ] || return
    book_txt
    if grep -n -e '??' -e 'TODO' -e '\[not measured\]' "$tmp/book.txt" > "$tmp/ph"; then
        fail "the PDF has no placeholder" "$(head "$tmp/ph")"
    else ok "the PDF has no placeholder"; fi
    if grep -n -e '??' -e 'TODO' -e '\\R{' -e '\[not measured\]' build/book.html > "$tmp/ph"
    then fail "the HTML has no placeholder" "$(head -c 600 "$tmp/ph")"
    else ok "the HTML has no placeholder"; fi
    # The student's book holds no build plumbing: no manifest, no model
    # formula (the instructor's edition has them).
    if grep -n -e 'model\.' -e '_ans_' -e '^programs := ' "$tmp/book.txt" > "$tmp/ph" \
       || sed 's/<[^>]*>//g' build/book.html | grep -n -e 'model\.' -e '_ans_' >> "$tmp/ph"
    then fail "the student's book prints no manifest and no model formula" "$(head "$tmp/ph")"
    else ok "the student's book prints no manifest and no model formula"; fi
    # A chapter's story, up to its exercises, fits in 20 pages; the rest
    # of its code is in its appendices.
    local long
    long=$(pdftotext -layout build/book.pdf - | awk '
        BEGIN { RS = "\f" }
        { n = split($0, L, "\n"); first = ""
          for (i = 1; i <= n; i++) if (L[i] ~ /[^ ]/) { first = L[i]; break }
          gsub(/^ +| +$/, "", first)
          if (first ~ /^Chapter [0-9]+$/) { if (ch != "" && !done) check(); ch = first; start = NR; done = 0 }
          else if (first ~ /^Appendix /) { if (ch != "" && !done) check(); ch = ""; }
          if (ch != "" && !done && $0 ~ /\n *Exercises *\n/) { pages = NR - start + 1; done = 1
              if (pages > 21 || (pages == 21 && !on_top($0))) print ch ": " pages " pages before its exercises" } }
        function check() { }
        # the story ended on page 20 when the exercises open page 21: they
        # are among its first lines after the running head
        function on_top(p,   l, n, i, k) { n = split(p, l, "\n")
            for (i = 1; i <= n && k < 3; i++) if (l[i] ~ /[^ ]/) { if (l[i] ~ /^ *Exercises *$/) return 1; k++ }
            return 0 }
        END { if (!NR || start == "") print "no chapter found in the PDF" }')
    [ -z "$long" ] && ok "every chapter's text, without its exercises, fits in 20 pages" \
        || fail "every chapter's text, without its exercises, fits in 20 pages" "$long"
    if grep -E -i 'undefined|Rerun to get' build/tex/book.log > "$tmp/ph"
    then fail "the LaTeX log has no undefined reference" "$(cat "$tmp/ph")"
    else ok "the LaTeX log has no undefined reference"; fi
    if grep -q 'Overfull \\hbox' build/tex/book.log; then
        fail "no line, of code or prose, runs into the margin" \
             "$(grep -A1 'Overfull \\hbox' build/tex/book.log | head)"
    else ok "no line, of code or prose, runs into the margin"; fi
    for n in $CHAPTERS; do
        head=$(man "$n" headline)
        # (of several runs, the rate of the run of the median time)
        rate=$(book/tools/csvq -v kn="$head" '
            csv_row() { next }
            F("kernel") == kn && F("m") == 4096 && F("n") == 4096 && F("k") == 4096 {
                if (F("run") == "") c = 0
                ms[++c] = F("ms") + 0; tf[c] = F("tflops") }
            END { for (i = 1; i <= c; i++) { below = 0
                      for (j = 1; j <= c; j++) below += ms[j] < ms[i] || (ms[j] == ms[i] && j < i)
                      if (below == int(c / 2)) print tf[i] } }' "$RESULTS/ch$n.csv" 2>/dev/null)
        [ -z "$rate" ] || rate=$(book/tools/bookdata fmt "$rate")
        if [ -z "$rate" ]; then
            fail "ch$n: the PDF quotes its measured 4096 rate" "no 4096 row of $head"
        elif grep -qF -- "$rate" "$tmp/book.txt"; then
            ok "ch$n: the PDF quotes its measured 4096 rate ($rate)"
        else fail "ch$n: the PDF quotes its measured 4096 rate" "$rate not found"; fi
    done
}

# The instructor's edition (built beside the tests, start_builds): the
# book and the answers, every measured answer filled in.  Its PDF is
# built whole; of its HTML, the source whole (book/tools/subst fills its
# figures, and a placeholder in the HTML comes from there) and what it
# adds to the book's HTML, the answers, through the book's pandoc.
test_instructor() {
    local f
    for f in build/instructor.pdf build/html-instructor/answers.html; do
        [ -s "$f" ] && ok "$f built" || fail "$f built" "$(grep -v '^ptxas' "$top/editions.log" | tail -5)"
    done
    if [ -s build/instructor.pdf ]; then
        pdftotext build/instructor.pdf "$tmp/instr.txt"
        if grep -n -e '??' -e 'TODO' -e '\[not measured\]' "$tmp/instr.txt" > "$tmp/ph"; then
            fail "the instructor's PDF has no placeholder" "$(head "$tmp/ph")"
        else ok "the instructor's PDF has no placeholder"; fi
    fi
    for f in build/html-instructor/instructor.tex build/html-instructor/answers.html; do
        [ -s "$f" ] || { fail "the instructor's HTML has no placeholder ($f)" "$f is missing"; continue; }
        if grep -n -e '??' -e 'TODO' -e '\\R{' -e '\[not measured\]' "$f" > "$tmp/ph"
        then fail "the instructor's HTML has no placeholder ($f)" "$(head -c 600 "$tmp/ph")"
        else ok "the instructor's HTML has no placeholder ($f)"; fi
    done
}

# The HTML book against the PDF: every internal link lands, sections and
# cross-references carry the PDF's numbers, and every chunk footer and
# index entry of noweb's cross-referencer is there.
# The book as a website (build/html/, bookdata site): a page per chapter
# and appendix, every link and figure found on its page, no page over
# 1 MB, anchors named by content (none numbered by position), which stay
# the same when a section and a chunk are added to an earlier chapter,
# and dark mode.  In headless Chromium, where it is installed: the
# search finds chapter 9's cp.async, a link from chapter 9 lands on its
# target in chapter 8, no script error, and at 390 px (the root that
# wide, the phone's layout) nothing reaches past the page's edge but
# inside its own scrolling box.
test_site() {
    local d=build/html out bad="" n p
    [ -f "$d/index.html" ] || { fail "the website: build/html/index.html" "missing"; return; }
    for n in $CHAPTERS; do [ -f "$d/ch$n.html" ] || bad="$bad no ch$n.html;"; done
    out=$(python3 - "$d" <<'PY' 2>&1
import os, re, sys
sys.path.insert(0, 'book')
from bookdata import site
d = sys.argv[1]
pages = sorted(f for f in os.listdir(d) if f.endswith('.html'))
ids = {p: set(re.findall(r'\bid="([^"]*)"', open(os.path.join(d, p)).read())) for p in pages}
bad = []
for p in pages:
    t = open(os.path.join(d, p)).read()
    if len(t) > 1 << 20:
        bad.append('%s: %d bytes' % (p, len(t)))
    for h in re.findall(r'(?:href|src)="([^"]*)"', t):
        if re.match(r'[a-z]+:', h):
            continue
        f, _, frag = h.partition('#')
        f = f.split('?')[0] or p
        if not os.path.exists(os.path.join(d, f)):
            bad.append('%s: %s: no such file' % (p, h))
        elif frag and f in ids and frag not in ids[f]:
            bad.append('%s: %s: no such anchor' % (p, h))
    bad += ['%s: id %s by position' % (p, i) for i in ids[p] if re.match(r'(chunk|idx)-[0-9]+$', i)]
    if re.search(r'<caption>[^<]*\(continued\)', t):
        bad.append('%s: a table split as on the PDF\'s pages' % p)
    bad += ['%s: an alt text with TeX: %s' % (p, a[:60]) for a in re.findall(r'\balt="([^"]*)"', t)
            if '\\' in a]
# a section and a chunk added to chapter 1: chapter 9's anchors stay
src = open(os.path.join('build', 'site-src.html')).read()
i = src.index('<section id="ch:1"')
i = src.index('</h1>', i) + len('</h1>')
# (and a chunk of the name of one that chapter 9 continues; and in
# chapter 9's first section, a run-in paragraph "Measured.": only that
# section's own names may move)
cont = re.findall(r'<span class="cn">(.*?)</span>', open(os.path.join(d, 'ch9.html')).read())[-1]
added = ('<section id="measured" class="level2"><h2>Measured</h2>'
         '<div class="chunk" id="chunk-1"><div class="chunk-head"><span class="tag">1</span> '
         '<span class="cn">The serial CPU version</span></div></div>'
         '<div class="chunk" id="chunk-2"><div class="chunk-head"><span class="tag">2</span> '
         '<span class="cn">%s</span></div></div></section>' % cont)
src = src[:i] + added + src[i:]
j = src.index('<section id="ch:9"')
j = src.index('<section id="', j + 1)
first = re.match(r'<section id="([^"]*)"', src[j:]).group(1)
j = src.index('</h2>', j) + len('</h2>')
src = src[:j] + ('<p><span id="measured-added" class="paragraph"><strong>Measured.</strong></span> '
                 'A paragraph added.</p>') + src[j:]
with open('/tmp/site-added.html', 'w') as f:
    f.write(src)
import tempfile
with tempfile.TemporaryDirectory() as o:
    site.build('/tmp/site-added.html', o, os.path.join('build', 'fig'), 'book/book.css')
    again = set(re.findall(r'\bid="([^"]*)"', open(os.path.join(o, 'ch9.html')).read()))
    mine = first.replace(':', '-') + '-'
    moved = [x for x in again ^ ids['ch9.html'] if not x.startswith(mine)]
    if moved:
        bad.append('ch9.html: anchors moved when chapter 1 grew and a paragraph came into %s: %s'
                   % (first, sorted(moved)[:5]))
os.remove('/tmp/site-added.html')
for p in pages:
    t = open(os.path.join(d, p)).read()
    for m in re.finditer(r'<section id="[^"]*"\s+class="level[2-6][^"]*"[^>]*>\s*(<h[2-6][^>]*>.*?</h[2-6]>)', t, re.S):
        if 'class="permalink"' not in m.group(1):
            bad.append('%s: a heading without its permalink: %s' % (p, m.group(1)[:60]))
            break
if '&#182;' in open(os.path.join(d, 'search-index.js')).read():
    bad.append('search-index.js: a permalink in the search index')
for f in sorted(os.listdir(os.path.join(d, 'fig'))):
    if f.endswith('.svg') and '<text' not in open(os.path.join(d, 'fig', f)).read():
        bad.append('fig/%s: no <text>: its words cannot be found or selected' % f)
if 'prefers-color-scheme: dark' not in open(os.path.join(d, 'book.css')).read():
    bad.append('book.css: no dark mode')
for b in bad[:10]:
    print(b)
PY
)
    [ -n "$out" ] && bad="$bad"$'\n'"$out"
    [ -z "$bad" ] && ok "the website: a page per chapter, every link and figure found, figures with their words as text, anchors by content that stay when an earlier chapter grows or a section gains a paragraph, a permalink on every heading, dark mode" \
        || fail "the website: a page per chapter, every link and figure found, figures with their words as text, anchors by content that stay when an earlier chapter grows or a section gains a paragraph, a permalink on every heading, dark mode" "$bad"
    local cr
    cr=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
    if [ -z "$cr" ]; then skip "the website in a browser: no headless Chromium here (apt-get install chromium)"; return; fi
    local w=$tmp/site-browse bad="" link target got
    rm -rf "$w"; cp -r "$d" "$w"
    browse() {   # PAGE[?QUERY][#FRAGMENT]: its DOM after its scripts, errors in $w/err
        timeout 60 "$cr" --headless --no-sandbox --disable-gpu --window-size=500,900 \
            --enable-logging=stderr --v=0 --dump-dom "file://$(cd "$w" && pwd)/$1" 2> "$w/err"
    }
    # the search
    got=$(browse 'search.html?q=cp.async')
    grep -q 'href="ch9.html#' <<< "$got" || bad="$bad"$'\n'"the search for cp.async found no section of ch9.html"
    grep -q 'Uncaught' "$w/err" && bad="$bad"$'\n'"the search page: $(grep -m 1 Uncaught "$w/err")"
    # a link from chapter 9 into chapter 8 lands on its target
    link=$(grep -o 'href="ch8.html#[^"]*"' "$w/ch9.html" | head -1 | sed 's/^href="//; s/"$//')
    target=${link#*#}
    sed -i 's|</body>|<script>addEventListener("load", function () { document.body.setAttribute("data-target", (document.querySelector(":target") \|\| {}).id \|\| "none") })</script></body>|' "$w/ch8.html"
    got=$(browse "$link" | grep -o 'data-target="[^"]*"')
    [ -n "$link" ] && [ "$got" = "data-target=\"$target\"" ] \
        || bad="$bad"$'\n'"the link $link from ch9.html landed on $got"
    # every page at a phone's 390 px and a desktop's 1280, each in an
    # iframe of that width (its own viewport, so the page's media queries
    # apply) of one page that checks them all: nothing past the edge but
    # inside a box that scrolls, every figure loaded, no script error
    local pages
    pages=$(cd "$w" && ls *.html | sed 's/.*/"&"/' | paste -sd, -)
    cat > "$w/check-all.html" << EOF
<!doctype html><html><body><script>
var pages = [$pages], widths = [390, 1280], out = [], j = 0;
function wide(doc, w) {
  var r = [];
  doc.querySelectorAll("body *").forEach(function (e) {
    for (var q = e.parentElement; q; q = q.parentElement)
      if (doc.defaultView.getComputedStyle(q).overflowX != "visible") return;
    if (e.getBoundingClientRect().right > w + 1) r.push(e.tagName + " " + (e.textContent || "").slice(0, 30));
  });
  doc.querySelectorAll("img").forEach(function (e) {
    if (!e.complete || e.naturalWidth == 0) r.push("IMG " + e.getAttribute("src") + " not loaded");
  });
  return r;
}
function next() {
  if (j >= pages.length * widths.length) {
    document.body.setAttribute("data-wide", out.length ? out.join(" / ") : "none");
    document.body.setAttribute("data-checked", String(j));
    return;
  }
  var p = pages[j >> 1], w = widths[j & 1], f = document.createElement("iframe");
  j++;
  f.style.width = w + "px"; f.style.height = "900px"; f.style.border = "0";
  f.onload = function () {
    try { var r = wide(f.contentDocument, w); if (r.length) out.push(p + " at " + w + " px: " + r.slice(0, 2).join(", ")); }
    catch (e) { out.push(p + ": " + e); }
    f.remove(); setTimeout(next, 0);
  };
  f.src = p;
  document.body.appendChild(f);
}
next();
</script></body></html>
EOF
    got=$(timeout 300 "$cr" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
            --virtual-time-budget=300000 --window-size=1400,900 --enable-logging=stderr --v=0 \
            --dump-dom "file://$(cd "$w" && pwd)/check-all.html" 2> "$w/err" | tr '\n' ' ')
    n=$(ls "$w"/*.html | grep -vc '/check-all\.html$')
    [[ "$got" == *"data-checked=\"$((2 * n))\""* ]] \
        || bad="$bad"$'\n'"the pages at 390 and 1280 px: not all $n checked: $(grep -o 'data-checked="[^"]*"' <<< "$got")"
    [[ "$got" == *'data-wide="none"'* ]] \
        || bad="$bad"$'\n'"past the edge or not loaded: $(grep -o 'data-wide="[^"]*"' <<< "$got" | cut -c1-300)"
    grep -q 'Uncaught' "$w/err" && bad="$bad"$'\n'"a page's console: $(grep -m 1 'Uncaught' "$w/err")"
    [ -z "$bad" ] && ok "the website in headless Chromium: the search finds cp.async in chapter 9, a link lands on its target, every page at 390 and 1280 px with nothing past the edge and every figure loaded, no script error" \
        || fail "the website in headless Chromium: the search finds cp.async in chapter 9, a link lands on its target, every page at 390 and 1280 px with nothing past the edge and every figure loaded, no script error" "$bad"
}

test_html() {
    local h=build/book.html t=build/tex bad
    [ -s "$h" ] && [ -s "$t/book.aux" ] || { fail "the HTML book can be checked" \
        "build/book.html or $t/book.aux is missing"; return; }
    grep -o ' id="[^"]*"' "$h" | sed 's/^ id="//; s/"$//' | sort -u > "$tmp/ids"
    grep -o 'href="#[^"]*"' "$h" | sed 's/^href="#//; s/"$//' | sort -u > "$tmp/hrefs"
    bad=$(comm -23 "$tmp/hrefs" "$tmp/ids")
    if [ ! -s "$tmp/hrefs" ]; then fail "every internal link of the HTML resolves" "no links"
    elif [ -z "$bad" ]; then ok "every internal link of the HTML resolves ($(wc -l < "$tmp/hrefs") targets)"
    else fail "every internal link of the HTML resolves" "no id for:"$'\n'"$bad"; fi

    sed -n 's/^\\contentsline {\(chapter\|section\|subsection\)}{\\numberline {\([^}]*\)}.*/\2/p' \
        "$t/book.toc" > "$tmp/pdfsec"
    grep -o '<h[123] data-number="[^"]*"' "$h" | sed 's/.*="//; s/"$//' > "$tmp/htmlsec"
    if [ -s "$tmp/pdfsec" ] && cmp -s "$tmp/pdfsec" "$tmp/htmlsec"; then
        ok "the HTML numbers its $(wc -l < "$tmp/pdfsec") sections as the PDF does"
    else fail "the HTML numbers its sections as the PDF does" \
              "$(diff "$tmp/pdfsec" "$tmp/htmlsec" | head)"; fi

    grep -o '^\\newlabel{[^}]*}{{[^}]*}' "$t/book.aux" \
        | sed 's/^\\newlabel{\([^}]*\)}{{\([^}]*\)}/\1 \2/' > "$tmp/pdfref"
    grep -o 'data-reference="[^"]*">[^<]*</a>' "$h" \
        | sed 's/^data-reference="\([^"]*\)">\([^<]*\)<.*/\1 \2/' | sort -u > "$tmp/htmlref"
    bad=$(awk 'NR == FNR { pdf[$1] = $2; next }
               !($1 in pdf) { print $1 ": not a label of the PDF"; next }
               pdf[$1] != $2 { print $1 ": " $2 " in the HTML, " pdf[$1] " in the PDF" }' \
               "$tmp/pdfref" "$tmp/htmlref")
    if [ ! -s "$tmp/htmlref" ]; then fail "every cross-reference of the HTML has the PDF's number" "none found"
    elif [ -z "$bad" ]; then ok "every cross-reference of the HTML has the PDF's number ($(wc -l < "$tmp/htmlref") labels)"
    else fail "every cross-reference of the HTML has the PDF's number" "$bad"; fi

    if grep -o '<code>[^<]*[–—][^<]*</code>' "$h" > "$tmp/dash"; then
        fail "the HTML's inline code keeps its hyphens" "$(head -5 "$tmp/dash")"
    else ok "the HTML's inline code keeps its hyphens"; fi

    local what pdf html
    for what in 'chunk "Defines" lists|nwidentdefs{|<div class="defines">Defines:' \
                'chunk "Uses" lines|nwidentuses{|<p>Uses ' \
                'identifier index entries|nwixlogsorted{i}|<li id="ident-'; do
        IFS='|' read -r what pdf html <<< "$what"
        pdf=$(grep -o -F -- "$pdf" "$t/chapters.tex" | wc -l)
        html=$(grep -o -F -- "$html" "$h" | wc -l)
        [ "$pdf" -gt 0 ] && [ "$pdf" = "$html" ] \
            && ok "the HTML has the PDF's $pdf $what" \
            || fail "the HTML has the PDF's $what" "$pdf in the PDF, $html in the HTML"
    done
}

# Front and back matter: the PDF's metadata, the bibliography numbered
# alike in both books, and a subject index with the book's main concepts
# in both.
INDEX_TERMS="coalescing sector bank.conflict occupancy wavefront roofline
arithmetic.intensity register.tiling outer.product shared.memory warp
alignment float4 launch..bounds wave.quantization swizzle cp.async
double.buffering split-K stream-K pinned.memory wgmma TMA mbarrier"
test_frontback() {
    local t=build/tex h=build/book.html bad term info
    info=$(pdfinfo build/book.pdf 2>/dev/null)
    bad=""
    for term in Title Subject Keywords; do
        grep -q "^$term: *[^ ]" <<< "$info" || bad="$bad no $term;"
    done
    [ -z "$bad" ] && ok "the PDF has a title, a subject and keywords" \
        || fail "the PDF has a title, a subject and keywords" "$bad"

    gawk 'BEGIN { RS = "\\\\bibitem" } NR > 1 && match($0, /^(\[[^]]*\])?\{[^}]*\}/) {
              k = substr($0, RSTART, RLENGTH); sub(/.*\{/, "", k); sub(/\}$/, "", k); print k }' \
        "$t/book.bbl" > "$tmp/pdfbib"
    grep -o '<div id="ref-[^"]*"' "$h" | sed 's/.*ref-//; s/"$//' > "$tmp/htmlbib"
    if [ -s "$tmp/pdfbib" ] && cmp -s "$tmp/pdfbib" "$tmp/htmlbib"; then
        ok "the HTML lists the PDF's $(wc -l < "$tmp/pdfbib") references in its order"
    else fail "the HTML lists the PDF's references in its order" \
              "$(diff "$tmp/pdfbib" "$tmp/htmlbib")"; fi
    bad=$(grep -o '<span class="citation"[^>]*>[^ ]*</span>' "$h" \
          | grep -v '^<span class="citation">\[<a href="#ref-[^"]*">[0-9]*</a>\(, <a href="#ref-[^"]*">[0-9]*</a>\)*\]</span>$')
    if ! grep -q '<span class="citation">' "$h"; then fail "the HTML cites by number, as the PDF" "no citations"
    elif [ -z "$bad" ]; then ok "the HTML cites by number, as the PDF ($(grep -o '<span class="citation">' "$h" | wc -l) citations)"
    else fail "the HTML cites by number, as the PDF" "$(head -5 <<< "$bad")"; fi

    bad=""
    for term in $INDEX_TERMS; do
        grep -q '^ *\\item .*'"$term"'.*, \\hyper\(page\|indexformat\)' "$t/book.ind" 2>/dev/null || bad="$bad $term"
    done
    [ -z "$bad" ] && ok "the PDF's subject index has the main concepts" \
        || fail "the PDF's subject index has the main concepts" "missing:$bad"
    local pdf html
    pdf=$(grep -c '^ *\\\(sub\)*item ' "$t/book.ind" 2>/dev/null)
    html=$(sed -n '/<ul class="subject-index">/,/^<\/ul>$/p' "$h" | grep -o '<li>' | wc -l)
    [ "${pdf:-0}" -gt 0 ] && [ "$pdf" = "$html" ] \
        && ok "the HTML's subject index has the PDF's $pdf entries" \
        || fail "the HTML's subject index has the PDF's entries" "$pdf in the PDF, $html in the HTML"
}

# What the reader copies must work: every command "./chN ..." that the
# PDF or the HTML prints (tests/book-commands finds them) is accepted by
# ./chN --parse-only, the program's own parser.  A command the book shows
# as a mistake that the harness catches must be rejected instead.
BOOK_BAD_COMMANDS=("./ch1 --size abc")
program_chapter() {   # the chapter whose manifest lists program $1
    local n
    for n in $CHAPTERS; do
        [[ " $(man "$n" programs) $(man "$n" micro) " == *" $1 "* ]] \
            && { echo "$n"; return; }
    done
}
# Why command $1 is wrong, or nothing.  Words are split at blanks, as a
# shell would split these commands (they hold no quotes).
check_command() {
    local cmd=$1 words p n rc expect=0 b
    read -ra words <<< "$cmd"
    p=${words[0]#./}
    n=$(program_chapter "$p")
    if [ -z "$n" ]; then echo "$cmd: no chapter has a program $p"; return; fi
    if [[ " $(man "$n" micro) " == *" $p "* ]]; then
        # a microbenchmark has no --parse-only: it knows --csv and --help,
        # and the arguments of the chapter's trace (field events) if the
        # trace is its own
        local ev; ev=$(man "$n" events)
        case "${words[*]:1}" in
        ""|--csv|--help) ;;
        *) [ "${ev%% *}" = "$p" ] && [ "${ev#* }" = "${words[*]:1}" ] \
               || echo "$cmd: $p takes only --csv or --help${ev:+ (or what events gives it)}" ;;
        esac
        return 0
    fi
    built "$n" || return 0                # not built for this ARCH
    for b in "${BOOK_BAD_COMMANDS[@]}"; do [ "$cmd" = "$b" ] && expect=2; done
    ./$p --parse-only "${words[@]:1}" > "$tmp/cmd.out" 2>&1
    rc=$?
    if [ "$expect" = 0 ] && { [ $rc != 0 ] || [ -s "$tmp/cmd.out" ]; }; then
        echo "$cmd: exit $rc: $(head -1 "$tmp/cmd.out")"
    elif [ "$expect" = 2 ] && [ $rc != 2 ]; then
        echo "$cmd: shown as a mistake, but accepted (exit $rc)"
    fi
}
declare -A CMD_CHECKED=()
test_book_commands() {
    local f cmd bad out n m
    # the check itself can fail
    if [ -n "$(check_command "./ch0 –size 64")" ] \
       && [ -n "$(check_command "./ch0 --size 64 ’x’")" ] \
       && [ -n "$(check_command "./ch99 --size 64")" ] \
       && [ -z "$(check_command "./ch0 --size 64")" ]; then
        ok "the command check rejects an en-dash, a quote and a missing chapter"
    else fail "the command check rejects an en-dash, a quote and a missing chapter"; fi
    # (the pages that print ./chN and the page after each, where a
    # command broken at a page's end goes on: pdftohtml reads a page in
    # about 40 ms, the whole book in 15 s)
    book_txt
    local r
    for r in $(awk 'BEGIN { RS = "\f" } /\.\/ch[0-9]/ { p[NR]; p[NR + 1] }
                END { for (i = 1; i <= NR + 1; i++) if (i in p) {
                        if (!(i - 1 in p)) f = i
                        if (!(i + 1 in p)) printf "%d:%d\n", f, i } }' "$tmp/book.txt"); do
        pdftohtml -xml -i -q -stdout -f "${r%:*}" -l "${r#*:}" build/book.pdf 2>/dev/null
    done > "$tmp/book.xml"
    for f in pdf html; do
        if [ $f = pdf ]; then
            tests/book-commands pdf "$tmp/book.xml" > "$tmp/cmds"
            n=$(book_txt; grep -o '\./ch[0-9]' "$tmp/book.txt" | wc -l)
        else
            tests/book-commands html build/book.html > "$tmp/cmds"
            n=$(grep -o '\./ch[0-9]' build/book.html | wc -l)
        fi
        m=$(grep -c '^\./ch[0-9]' "$tmp/cmds")
        bad=""
        # every ./chN of the text is in a command found in typewriter text
        [ "$n" = "$m" ] || bad="$n times ./chN in the text, $m commands in code"
        while IFS= read -r cmd; do
            # (a command both books print is run once)
            [ -n "${CMD_CHECKED[$cmd]+x}" ] || CMD_CHECKED[$cmd]=$(check_command "$cmd")
            out=${CMD_CHECKED[$cmd]}
            [ -n "$out" ] && bad="$bad"$'\n'"$out"
        done < "$tmp/cmds"
        [ -z "$bad" ] && ok "the $m commands \"./chN ...\" that the ${f^^} prints work" \
            || fail "the commands \"./chN ...\" that the ${f^^} prints work" "$bad"
    done
}

# The code chunks of the PDF are the code: tests/pdf-chunks compares each
# chunk as printed (pdftotext -bbox) with the same chunk as noweb
# reads it, character for character (see its comment for how).
test_pdf_chunks() {
    local out
    pdftotext -bbox build/book.pdf "$tmp/bbox.html"
    noweb_markup $(book_order) | book/tools/leave-out-build \
        > "$tmp/markup"
    out=$(tests/pdf-chunks "$tmp/markup" "$tmp/bbox.html")
    if [ "$(wc -l <<< "$out")" = 1 ] && [[ "$out" =~ ^chunks\ ([0-9]+)\ of\ ([0-9]+), ]] \
       && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]
    then ok "every code chunk in the PDF reads as its source ($out)"
    else fail "every code chunk in the PDF reads as its source" "$out"; fi
}

# The identifier index is true.  Used: functions whose only uses are in
# the chunk that defines them.  Not used: a word in a comment or string,
# a member (o->kernel), another function's local variable of the same
# name (brow), a variable named like a struct tag (int gpu[]), a word of
# a manifest.
INDEX_USED=(check_cublas too_big splitmix64 set_bytes cmp_float now_ms
            sgemm_tile1d sgemm_tile2d sgemm_remap1d aligned16 check_once
            read_long harness_main)
INDEX_NOT_USED=("Interpret the remaining flags:kernel"
                "Options:kernel" "Print the header of the report:kernel"
                "The float64 reference:brow" "harness.c:chapter"
                "Check the shapes, or choose the default ones:gpu"
                "Launch the naive kernel:sgemm_coalesced" "ch6.h:sgemm_remap2d")
INDEX_USES=("Interpret one flag:read_long" "Launch the naive kernel:sgemm_naive"
            "Check the shapes, or choose the default ones:check_shape")
test_index() {
    # the subject index: at least 150 terms, and each of book/index-terms.txt's
    # terms found in the prose (a term the book no longer names is a dead entry)
    if [ -s build/tex/book.idx ]; then
        local sub
        sub=$(python3 - build/tex/book.idx book/index-terms.txt <<'PY' 2>&1
import re, sys
idx = open(sys.argv[1]).read()
used = set(re.findall(r'\\indexentry\{(.*?)\|(?:hyperpage|hyperindexformat)', idx))
keys = [l.split('\t')[1].strip() for l in open(sys.argv[2])
        if '\t' in l and not l.startswith('#')]
dead = sorted(set(k for k in keys if k not in used))
if len(used) < 150:
    print('%d terms in the subject index, fewer than 150' % len(used))
for k in dead[:10]:
    print('a term the book never names: ' + k)
PY
)
        [ -z "$sub" ] && ok "the subject index holds $(grep -o 'indexentry{[^|]*' build/tex/book.idx | sort -u | wc -l) terms, each of book/index-terms.txt's among them" \
            || fail "the subject index holds 150 terms or more, each of book/index-terms.txt's among them" "$sub"
    fi
    # a name the code uses is never called "never used" by the index
    if [ -s build/book.pdf ]; then
        local unused
        unused=$( { book_txt; grep -E '^ *[A-Za-z_][A-Za-z0-9_]*, never used\.$' "$tmp/book.txt" | sed 's/^ */PDF: /'
                    grep -o '<code>[^<]*</code>, never used' build/book.html 2>/dev/null | sed 's/^/HTML: /'; } | sort -u | head -20)
        [ -z "$unused" ] && ok "the identifier index says \"never used\" of no identifier" \
            || fail "the identifier index says \"never used\" of no identifier" "$unused"
    fi
    local x bad="" chunk id
    book_txt
    # chunk name<TAB>its "Uses ..." note (which may run over lines)
    awk '/^⟨.* [0-9]+⟩\+?≡/ { name = $0; sub(/^⟨/, "", name)
                              sub(/ [0-9]+⟩\+?≡.*$/, "", name) }
         /^Uses / { u = $0; while (u !~ /\.$/ && (getline l) > 0) u = u " " l
                    print name "\t" u " " }' "$tmp/book.txt" > "$tmp/uses"
    for x in "${INDEX_USED[@]}"; do
        grep -q "^$x, used in chunk" "$tmp/book.txt" \
            || bad="$bad"$'\n'"$x is not shown as used"
    done
    for x in "${INDEX_NOT_USED[@]}"; do
        chunk=${x%%:*} id=${x#*:}
        grep -q "^⟨$chunk [0-9]*⟩" "$tmp/book.txt" \
            || { bad="$bad"$'\n'"no chunk <<$chunk>>"; continue; }
        if [ -z "$id" ]; then
            grep -q "^$chunk	" "$tmp/uses" && bad="$bad"$'\n'"<<$chunk>>: $(grep "^$chunk	" "$tmp/uses" | cut -f2)"
        elif grep "^$chunk	" "$tmp/uses" | grep -Eq "[ ,]$id [0-9]"; then
            bad="$bad"$'\n'"<<$chunk>> is said to use $id"
        fi
    done
    for x in "${INDEX_USES[@]}"; do
        chunk=${x%%:*} id=${x#*:}
        grep "^$chunk	" "$tmp/uses" | grep -Eq "[ ,]$id [0-9]" \
            || bad="$bad"$'\n'"<<$chunk>> is not said to use $id"
    done
    [ -z "$bad" ] && ok "the identifier index: uses are true, in a sample" \
        || fail "the identifier index: uses are true, in a sample" "$bad"
}

# The licenses and the citation: both license files, a CITATION.cff whose
# version is the book's (book/meta.tex's \bookversion), printed on the
# title page, and the README that names them.
test_license() {
    local v c bad=""
    v=$(sed -n 's/^\\newcommand\\bookversion{\([^}]*\)}.*/\1/p' book/meta.tex)
    [ -n "$v" ] || bad="$bad book/meta.tex has no \\bookversion;"
    for f in LICENSE LICENSE-TEXT CITATION.cff; do
        [ -s "$f" ] || bad="$bad no $f;"
    done
    grep -q '^MIT License$' LICENSE 2> /dev/null || bad="$bad LICENSE is not the MIT License;"
    grep -q 'by/4.0' LICENSE-TEXT 2> /dev/null || bad="$bad LICENSE-TEXT does not name CC BY 4.0;"
    c=$(sed -n 's/^version: "\(.*\)"$/\1/p' CITATION.cff 2> /dev/null)
    [ "$c" = "$v" ] || bad="$bad CITATION.cff's version ($c) is not the book's ($v);"
    for k in cff-version title authors date-released; do
        grep -q "^$k:" CITATION.cff 2> /dev/null || bad="$bad CITATION.cff has no $k;"
    done
    grep -q 'LICENSE-TEXT' README.md || bad="$bad README.md does not name the licenses;"
    if [ -f build/book.pdf ]; then
        pdftotext -l 1 build/book.pdf - 2> /dev/null | grep -q "Version $v" \
            || bad="$bad the title page does not print Version $v;"
        pdfinfo build/book.pdf 2> /dev/null | grep -q '^Author: *[^ ]' \
            || bad="$bad the PDF names no author in its metadata;"
    fi
    [ -z "$bad" ] && ok "LICENSE, LICENSE-TEXT and CITATION.cff, of version $v as the title page; the PDF names its author" \
        || fail "LICENSE, LICENSE-TEXT and CITATION.cff, of version $v as the title page" "$bad"
}

test_readme() {
    book/tools/bookdata readme --check "$RESULTS" $(for n in $CHAPTERS; do echo chapters/ch$n.nw; done) \
        > "$tmp/readme" 2>&1 \
        && ok "README's results table matches results/" \
        || fail "README's results table matches results/" \
                "$(cat "$tmp/readme")"
}

# The book made from another GPU's results speaks of that GPU alone: no
# number of the first GPU is typed in it.  The keys and the HTML book's
# LaTeX (results substituted) are made from the second results
# directory; its GPU's name must appear and the first one's must not,
# every key must have a value, and where the two GPUs' ceilings differ,
# the text must quote the second GPU's and not the first's.
test_other_gpu() {
    local first=$RESULTS other out v1 v2 k unit bad="" rc
    other=$(ls -d results/*/ 2>/dev/null | sed 's:/$::' | grep -vxF "$first" | head -1)
    if [ -z "$other" ]; then skip "a book from a second GPU's results: only one GPU measured"; return; fi
    keys_for "$other"; rc=$?; out=$KEYS_OUT
    if [ $rc != 0 ] || ! book/tools/htmlsrc "$out" $(book_order) \
            > "$out/src.log" 2>&1; then
        fail "the book from $other builds" "$(tail -5 "$out/log" "$out/src.log")"; return
    fi
    local text=$out/html-src/src.tex name1 name2
    name1=$(awk -F'\t' '$1 == "gpu.name" { print $2 }' build/results.keys)
    name2=$(awk -F'\t' '$1 == "gpu.name" { print $2 }' "$out/results.keys")
    [ -n "$name2" ] && grep -qF "$name2" "$text" || bad="$bad
the GPU's name ($name2) is missing"
    [ -n "$name1" ] && [ "$name1" != "$name2" ] && grep -qF "$name1" "$text" && bad="$bad
it names $name1"
    # every key of the prose has a value, except in the chapters that GPU
    # has not measured at all (no chN.csv there) and the keys of those
    # chapters quoted elsewhere, and except a sweep's row
    # (a kernel named with its configuration, ch9.sk-128x64x16-...) that
    # its sweep did not run, and the formulas that need only such rows
    # (the models' log says what each formula missed)
    local missing
    missing=$(for n in $CHAPTERS; do
            [ -f "$other/ch$n.csv" ] || continue
            for f in chapters/ch$n.nw chapters/ch$n-*.nw; do
                [ -f "$f" ] && grep -o '\\R{[^}]*}' "$f" | sed 's/^\\R{//; s/}$//'
            done
        done | sort -u | awk -F'\t' -v keys="$out/results.keys" -v logf="$out/log" -v dir="$other" '
        function swept(k,   c, kern, f, l) {   # a sweep row that GPU did not run
            if (!match(k, /^ch[0-9]+\.[a-z0-9]+-[^.]*\./)) return 0
            c = substr(k, 3); sub(/\..*/, "", c)
            kern = k; sub(/^ch[0-9]+\./, "", kern); sub(/\..*/, "", kern)
            f = dir "/sweep-ch" c ".csv"
            while ((getline l < f) > 0) if (index(l, "," kern ",")) { close(f); return 0 }
            close(f); return 1
        }
        function excused(k,   i, n, r, c) {
            sub(/\.by$/, "", k)
            if (swept(k)) return 1
            # a key of a chapter that GPU has not measured, quoted elsewhere
            if (match(k, /^ch[0-9]+\./)) { c = substr(k, 3, RLENGTH - 3)
                if ((getline l < (dir "/ch" c ".csv")) <= 0) return 1
                close(dir "/ch" c ".csv") }
            if (!(k in need)) return 0
            n = split(need[k], r, " ")
            for (i = 1; i <= n; i++) if (!excused(r[i])) return 0
            return 1
        }
        BEGIN { while ((getline l < keys) > 0) { split(l, f, "\t"); have[f[1]] = 1 }
                while ((getline l < logf) > 0) if (match(l, /^models: [^:]+: no value for /)) {
                    k = l; sub(/^models: /, "", k); sub(/:.*/, "", k)
                    v = l; sub(/^models: [^:]+: no value for /, "", v); need[k] = v } }
        !($1 in have) && !excused($1) { printf " %s", $1 }')
    [ -z "$missing" ] || bad="$bad
keys without a value:$missing"
    for k in copy_tbs:TB/s ffma_tflops:TFLOP/s cublas_tflops:TFLOP/s; do
        unit=${k#*:}; k=ceil.${k%%:*}
        v1=$(awk -F'\t' -v k="$k" '$1 == k { print $2 }' build/results.keys)
        v2=$(awk -F'\t' -v k="$k" '$1 == k { print $2 }' "$out/results.keys")
        [ -n "$v1" ] && [ -n "$v2" ] && [ "$v1" != "$v2" ] || continue
        grep -qF "$v2~$unit" "$text" || bad="$bad
$k: $v2~$unit is not quoted"
        grep -qF "$v1~$unit" "$text" && bad="$bad
$k: the first GPU's $v1~$unit is quoted"
    done
    [ -z "$bad" ] && ok "the book from $other quotes its own GPU only" \
        || fail "the book from $other quotes its own GPU only" "$bad"
    # and says what that GPU did not measure, in words, and counts it
    local n
    n=$(sed -n 's/^subst: \([0-9]*\) figures\? not measured on this GPU.*/\1/p' "$out/src.log")
    bad=
    grep -n '??' "$text" > "$tmp/ph" && bad="$bad $(head -3 "$tmp/ph")"
    if [ -n "$n" ]; then
        grep -q '\[not measured\]' "$text" || bad="$bad no figure is marked [not measured];"
        grep -q "$n figures\? of this edition w[ae][sr]e\? not measured on this GPU" "$text" \
            || bad="$bad the front matter does not count the $n figures;"
    fi
    [ -z "$bad" ] && ok "the book from $other marks what it did not measure (${n:-0} figures), and shows no ??" \
        || fail "the book from $other marks what it did not measure, and shows no ??" "$bad"
}

# results.sty: a key the results lack prints [not measured], and
# The course edition (make course) prints no line of a lab's answer:
# each lab's chunk becomes its stub, and the chunks only the lab's code
# uses say they are the student's (bookdata labcut).  The check itself
# finds the answers in the student's book, where they are printed.
# The syllabus (make syllabus, part of make): built, no placeholder,
# and each track lists the labs its GPUs run, computed here from the
# manifests alone (the sm_XY a lab's needs name, else its chapter's):
# Hopper every lab, Ampere and Ada none of sm_90, Turing none past sm_75.
test_syllabus() {
    local txt bad="" n sm t want got cap
    [ -s build/syllabus.pdf ] || { fail "the syllabus is built (build/syllabus.pdf)" "missing"; return; }
    txt=$(pdftotext -layout build/syllabus.pdf - 2> /dev/null | tr -s ' \n' ' ')
    for w in "not measured" "??" "n/m"; do
        [[ "$txt" == *"$w"* ]] && bad="$bad"$'\n'"it prints \"$w\""
    done
    for t in Hopper:90 Ampere:89 Turing:75; do
        cap=${t#*:} want=""
        # (every chapter's lab, whatever this build's ARCH compiles)
        for n in $CHAPTERS; do
            [ -n "$(man "$n" lab)" ] || continue
            sm=$(printf '%s %s' "$(man "$n" lab_needs)" | grep -o 'sm_[0-9][0-9]a\?' | head -1)
            [ -n "$sm" ] || sm=$(man "$n" needs)
            case $sm in *a) [ "$cap" = 90 ] || continue ;; esac
            sm=${sm#sm_}; sm=${sm%a}
            [ "$sm" -le "$cap" ] && want="$want $n"
        done
        got=$(printf '%s' "$txt" | sed -n "s/.*${t%%:*}[^(]* ([^)]*): labs \([0-9, and]*\),.*/\1/p" | tr -c '0-9\n' ' ')
        [ "$(echo $got)" = "$(echo $want)" ] || bad="$bad"$'\n'"${t%%:*}: lists labs '$(echo $got)', the manifests give '$(echo $want)'"
    done
    [ -z "$bad" ] && ok "the syllabus is built, with no placeholder, and each GPU's track lists the labs it runs" \
        || fail "the syllabus is built, with no placeholder, and each GPU's track lists the labs it runs" "$bad"
}

test_course() {
    local out
    noweb_markup $(book_order) > "$tmp/normal.markup"
    book/tools/bookdata labcut < "$tmp/normal.markup" > "$tmp/course.markup"
    out=$(python3 - "$tmp/normal.markup" "$tmp/course.markup" <<'PY' 2>&1
import sys
sys.path.insert(0, 'book')
from bookdata import labcut
normal = open(sys.argv[1]).read().split('\n')
course = open(sys.argv[2]).read().split('\n')
lab = labcut.labs()

sys.path.insert(0, 'tests')
from labanswer import chunks, answer_lines
body, uses = chunks(normal)
lines = answer_lines(body, uses, lab)
def leaks(stream):
    b, _ = chunks(stream)
    printed = {l for c, ls in b.items() if c not in lab.values() for l in ls}
    return sorted((c, l) for l, c in lines.items() if l in printed)
if not leaks(normal):
    print('the check finds no answer in the student\'s book')
for c, l in leaks(course)[:10]:
    print('<<%s>>: %s' % (c, l))
found, cur = set(), None
for l in course:
    if l.startswith('@defn '):
        cur = l[6:]
    elif l.startswith('@text') and 'Lab, chapter' in l and cur in lab:
        found.add(cur)
main = set(labcut.labs(also=False))
if main - found:
    print('no stub printed for ' + ', '.join(sorted(main - found)))
PY
)
    [ -z "$out" ] && make -n course 2> /dev/null | grep -q "pdfbook build course" \
        && ok "the course edition prints every lab's stub and no line of its answer" \
        || fail "the course edition prints every lab's stub and no line of its answer" "$out"
}

# The students' kits (bookdata kit, make kit): lab N's folder holds its
# stub as make labN writes it (with the kit's own build line), builds
# with its Makefile alone (lab 2's, here: no GPU needed to compile), says
# in one line that a GPU too old for the chapter is not enough, and holds
# no line of lab N's answer (the chunks that only the lab's code uses,
# as the course edition's check finds them) in any file; the check finds
# them where the chapter's own code is planted in a kit.
test_kit() {
    local d=$tmp/kit n labs="" bad="" out rc
    mkdir -p "$d"
    for n in $CHAPTERS; do
        [ -n "$(man "$n" lab)" ] || continue
        labs="$labs $n"
        book/tools/bookdata kit "$n" "$d/lab$n" > /dev/null 2> "$d/err" \
            || { bad="$bad"$'\n'"lab$n: bookdata kit failed: $(head -1 "$d/err")"; continue; }
        LABSTUB_KIT=1 book/tools/labstub "$n" | cmp -s - "$d/lab$n/ch$n.cu" \
            || bad="$bad"$'\n'"lab$n: the kit's ch$n.cu is not the lab's stub"
        cmp -s tangle/ch$n-lab.cu "$d/lab$n/stub/ch$n.cu" \
            || bad="$bad"$'\n'"lab$n: the kit's stub/ch$n.cu is not tangle/ch$n-lab.cu"
        [ -f "$d/lab$n/Makefile" ] && [ -f "$d/lab$n/README" ] \
            || bad="$bad"$'\n'"lab$n: no Makefile or README"
    done
    [ -n "$labs" ] || bad="no chapter has a lab"
    # the planted leak: chapter 4's own code in a copy of its kit
    cp -r "$d/lab4" "$d/plant4" && cp tangle/ch4.cu "$d/plant4/ch4-own.cu"
    noweb_markup $(book_order) > "$tmp/kit.markup"
    out=$(python3 - "$tmp/kit.markup" "$d" $labs <<'PY' 2>&1
import os, subprocess, sys
stream = open(sys.argv[1]).read().split('\n')
d, labs = sys.argv[2], [int(x) for x in sys.argv[3:]]
sys.path.insert(0, 'tests')
from labanswer import chunks, answer_lines
body, uses = chunks(stream)
def field(n, f):
    return subprocess.run(['book/tools/bookdata', 'manifest', str(n), f],
                          stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()
def answer(n):
    """lab n's answer lines"""
    return answer_lines(body, uses, {c for c in (field(n, 'lab'), field(n, 'lab_also')) if c})
def leaks(folder, lines):
    out = []
    for top, _, files in os.walk(folder):
        for f in sorted(files):
            p = os.path.join(top, f)
            for t in open(p, errors='replace'):
                if t.strip() in lines:
                    out.append('%s: %s' % (os.path.relpath(p, folder), t.strip()))
    return out
import re
def defined_by_stub(n):
    # the names the lab's marked lines #define in the stub: the lab's to write
    stub = open(os.path.join(d, 'lab%d' % n, 'stub', 'ch%d.cu' % n)).read()
    names = set()
    for region in re.findall(r'your code begins here ---- \*/(.*?)/\* ---- lab', stub, re.S):
        names |= set(re.findall(r'^\s*#\s*define\s+([A-Za-z_]\w*)', region, re.M))
    return names
for n in labs:
    own = field(n, 'roots').split()
    for name in sorted(defined_by_stub(n)):
        for h in own:
            p = os.path.join(d, 'lab%d' % n, h)
            if os.path.exists(p) and re.search(r'^\s*#\s*define\s+%s\b' % name,
                                               open(p).read(), re.M):
                print('lab%d: its own %s defines %s, which the lab writes' % (n, h, name))
    lines = answer(n)
    if not lines:
        print('lab%d: the check finds no line of its answer in the book' % n)
    for x in leaks(os.path.join(d, 'lab%d' % n), lines)[:3]:
        print('lab%d: its answer in the kit: %s' % (n, x))
if 4 in labs and not leaks(os.path.join(d, 'plant4'), answer(4)):
    print('the check missed chapter 4\'s own code planted in its kit')
PY
)
    [ -n "$out" ] && bad="$bad"$'\n'"$out"
    # lab 2's kit builds alone, and its program says there is no GPU
    if ! (cd "$d/lab2" && make -s > "$d/make.out" 2>&1); then
        bad="$bad"$'\n'"lab2: the kit's make failed: $(tail -3 "$d/make.out")"
    elif ! have_gpu; then
        (cd "$d/lab2" && ./ch2 --size 256 > /dev/null 2> "$d/err"); rc=$?
        [ $rc = 3 ] && [ "$(wc -l < "$d/err")" = 1 ] \
            || bad="$bad"$'\n'"lab2: the kit's ./ch2 without a GPU: exit $rc: $(cat "$d/err")"
    fi
    # the kit's make takes the marked lines alone, by the grader's rules:
    # asm among them stops it with the student's line
    awk '{ print } /^\/\* ---- lab .*: your code begins here ---- \*\/$/ && !done { print "    asm(\"trap;\");"; done = 1 }' \
        "$d/lab2/ch2.cu" > "$d/lab2/asm.cu"
    (cd "$d/lab2" && python3 splice.py asm.cu stub/ch2.cu out.cu > /dev/null 2> "$d/err"); rc=$?
    [ $rc = 2 ] && grep -q "^splice.py: asm.cu:[0-9]*: the lab's code may not use asm" "$d/err" \
        || bad="$bad"$'\n'"lab2: the kit's splice.py took asm: exit $rc: $(cat "$d/err")"
    # a GPU too old: one line, exit 2, nothing built
    (cd "$d/lab10" && make ARCH=sm_75 > "$d/old.out" 2>&1); rc=$?
    [ $rc = 2 ] && grep -q "^make: lab 10 needs a GPU of sm_80 or newer; ARCH is sm_75$" "$d/old.out" \
        && [ ! -e "$d/lab10/ch10.o" ] \
        || bad="$bad"$'\n'"lab10's kit with ARCH=sm_75: exit $rc: $(tail -2 "$d/old.out")"
    [ -z "$bad" ] && ok "each lab's kit holds its stub and builds alone, by the grader's splice, without a line of its answer (a planted one is found)" \
        || fail "each lab's kit holds its stub and builds alone, by the grader's splice, without a line of its answer (a planted one is found)" "$bad"
}

# \notmeasurednote counts the keys missing (once each) from the last
# pass; with every key there it says nothing.  In a table's cell a
# missing figure is n/m.
test_not_measured() {
    local d=$tmp/nm got want
    mkdir -p "$d"
    printf '\\resultkey{a.b}{42}\n' > "$d/resultkeys.tex"
    printf '%s\n' '\documentclass{article}\usepackage{results}\pagestyle{empty}' \
        '\begin{document}\notmeasurednote\par' \
        'A \R{a.b}, B \R{no.such}, C \R{no.such}, D \R{no.other}.' \
        '\begin{tabular}{ll}E & \R{no.such}\end{tabular}\end{document}' > "$d/t.tex"
    (cd "$d" && for i in 1 2; do TEXINPUTS=$OLDPWD/book: pdflatex -interaction=batchmode \
        t.tex > /dev/null 2>&1; done)
    got=$(pdftotext "$d/t.pdf" - 2> /dev/null | tr -s '\n\f' '  ')
    want='2 figures of this edition were not measured on this GPU; each is marked [not measured], or n/m in a table. A 42, B [not measured], C [not measured], D [not measured]. E n/m '
    [ "$got" = "$want" ] && ok "a figure the results lack prints [not measured], and the book counts them" \
        || fail "a figure the results lack prints [not measured], and the book counts them" "got:  $got
want: $want"
}

# Lab mode, without a GPU: make labN writes the stub once and builds it,
# never overwrites the student's file, and ./labN says clearly that it
# cannot grade without a GPU; every lab chapter's stub can be written.
# How much of a lab's removed code a file still holds: the longest run of
# consecutive lines of the chunk's own text (normalized: spaces collapsed, lines that
# say nothing by themselves, such as braces and pragmas, dropped; lines
# that the stub's own placeholder keeps, such as a kernel's signature,
# dropped too) found consecutively in the file.  A sibling kernel with the
# same body, or the chunk itself, gives a run as long as the chunk.
lab_leak() {   # REMOVED PLACEHOLDER FILE -> "run of total"
    gawk '
    function norm(l) { gsub(/[ \t]+/, " ", l); sub(/^ /, "", l); sub(/ $/, "", l); return l }
    function trivial(l) { return l == "" || l ~ /^[{}();]*$/ || l ~ /^#pragma unroll/ || l ~ /^(\/\*|\*\/|\* )/ }
    FILENAME == ARGV[1] { keep[norm($0)] = 1; next }
    FILENAME == ARGV[2] { l = norm($0); if (!trivial(l) && !(l in keep)) R[++r] = l; next }
    { l = norm($0); if (!trivial(l)) S[++s] = l }
    END {
        best = 0
        for (j = 1; j <= s; j++) prev[j] = 0
        for (i = 1; i <= r; i++) {
            for (j = 1; j <= s; j++) {
                cur[j] = R[i] == S[j] ? (j > 1 ? prev[j - 1] : 0) + 1 : 0
                if (cur[j] > best) best = cur[j]
            }
            for (j = 1; j <= s; j++) prev[j] = cur[j]
        }
        print best, r
    }' "$2" "$1" "$3"
}

# The lines a chunk's definitions write themselves (the chunks they use
# left out: those are shared with other code), from noweb's markup.
chunk_own_lines() {   # NAME, markup on stdin
    awk -v name="$1" '
        /^@begin code/ { code = 1; mine = 0; next }
        /^@end code/ { if (mine && line != "") print line; code = 0; mine = 0; line = ""; next }
        code && $0 == "@defn " name { mine = 1; next }
        mine && /^@text / { line = line substr($0, 7); next }
        mine && /^@nl/ { print line; line = ""; next }'
}

test_labs() {
    local n bad="" d="$tmp/lab" rc rc2 chunk run total need warn=""
    for n in $(man buildable); do
        chunk=$(man "$n" lab)
        [ -n "$chunk" ] || continue
        book/tools/labstub "$n" > "$tmp/stub.cu" 2> "$tmp/err" \
            || { bad="$bad ch$n: $(head -1 "$tmp/err");"; continue; }
        grep -q "Lab, chapter $n:" "$tmp/stub.cu" \
            || bad="$bad ch$n: no 'Lab, chapter $n:' comment in the chunk's place;"
        grep -qF "\"$(printf '%s' "$chunk" | sed 's/\[\[//g; s/\]\]//g')\"" "$tmp/stub.cu" \
            || bad="$bad ch$n: the header does not name the chunk;"
        # (noweb's own stages, which take any chunk name, as notangle does not)
        noweb_markup $(nw_upto "$n") | chunk_own_lines "$chunk" > "$tmp/removed" \
            && [ -s "$tmp/removed" ] \
            && noweb_markup $(nw_upto "$n") | chunk_own_lines "Lab: $chunk" > "$tmp/placeholder" \
            || { bad="$bad ch$n: cannot tangle <<$chunk>> or its <<Lab: ...>>;"; continue; }
        read -r run total <<< "$(lab_leak "$tmp/removed" "$tmp/placeholder" "$tmp/stub.cu")"
        # (a run of half the chunk, or of all of a chunk of 3 lines or
        # fewer, gives the chunk back; a shared idiom of a few lines
        # does not)
        need=$((total <= 3 ? total : (total + 1) / 2 > 3 ? (total + 1) / 2 : 3))
        [ "$total" -gt 0 ] || { bad="$bad ch$n: the lab removes nothing;"; continue; }
        [ "$run" -lt "$need" ] \
            || bad="$bad ch$n: the stub still holds $run consecutive lines of the $total of <<$chunk>>;"
        # planted: the chapter's own code holds the whole chunk
        read -r run total <<< "$(lab_leak "$tmp/removed" "$tmp/placeholder" "tangle/ch$n.cu")"
        [ "$run" -ge "$need" ] || bad="$bad ch$n: the check misses the chunk in tangle/ch$n.cu ($run of $total);"
    done
    [ -z "$bad" ] && ok "every lab's stub empties its chunk, everywhere, and keeps no copy of it" \
        || fail "every lab's stub empties its chunk, everywhere, and keeps no copy of it" "$bad"
    # every stub compiles, without a warning (start_builds)
    bad=
    local labs
    labs=$(for n in $(man buildable); do [ -n "$(man "$n" lab)" ] && echo "$n"; done)
    wait_build checks
    for n in $labs; do
        [ -f build/check/lab/ch$n.ok ] || bad="$bad"$'\n'"$(head -4 build/check/lab/ch$n.log 2> /dev/null || echo "lab$n: not checked: $(tail -3 "$top/checks.log")")"
    done
    [ -z "$bad" ] && ok "every lab's stub compiles without a warning" \
        || fail "every lab's stub compiles without a warning" "$bad"
    # a chapter without a lab says why, in one line
    bad=
    for n in $CHAPTERS; do
        built "$n" && [ -n "$(man "$n" lab)" ] && continue
        make -s lab$n > "$tmp/out" 2>&1; rc=$?
        [ $rc != 0 ] && [ "$(wc -l < "$tmp/out")" = 1 ] && grep -q "no lab$n: ." "$tmp/out" \
            || bad="$bad lab$n: exit $rc: $(cat "$tmp/out");"
    done
    [ -z "$bad" ] && ok "make labN of a chapter without a lab here says why in one line" \
        || fail "make labN of a chapter without a lab here says why in one line" "$bad"
    n=2
    [ -n "$(man $n lab)" ] && built $n || { skip "lab$n: chapter $n has no lab here"; return; }
    local had=no; [ -e lab$n ] && had=yes
    rm -rf "$d"
    if make -s LAB_DIR="$d" lab$n > "$tmp/out" 2>&1 && [ -f "$d/ch$n.cu" ] \
        && [ -x build/lab/ch$n ] && [ -x lab$n ] \
        && grep -q "Lab, chapter $n:" "$d/ch$n.cu"
    then ok "make lab$n writes lab/ch$n.cu and builds it"
    else fail "make lab$n writes lab/ch$n.cu and builds it" "$(tail -3 "$tmp/out")"; fi
    echo "/* the student's line */" >> "$d/ch$n.cu"
    make -s LAB_DIR="$d" lab$n > "$tmp/out" 2>&1
    if grep -q "the student's line" "$d/ch$n.cu"
    then ok "make lab$n never overwrites the student's file"
    else fail "make lab$n never overwrites the student's file"; fi
    if ! have_gpu; then
        ./lab$n --json "$tmp/lab.json" > "$tmp/out" 2>&1; rc=$?
        if [ $rc = 3 ] && [ "$(wc -l < "$tmp/out")" = 1 ] \
            && grep -q "^lab$n: cannot grade here: .*no CUDA GPU" "$tmp/out"
        then ok "./lab$n without a GPU: one clear line and exit 3"
        else fail "./lab$n without a GPU: one clear line and exit 3" "exit $rc: $(cat "$tmp/out")"; fi
        if ! command -v python3 > /dev/null; then skip "./lab$n --json: no python3 to parse the report"
        elif python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert d["verdict"] == "cannot grade" and d["exit"] == 3 and d["checks"] == [] and d["lab"] == 2, d
assert set(d) == {"lab", "file", "chunk", "kernel", "verdict", "message", "exit", "hint", "checks", "sanitizer", "timing"}, d
assert d["file"].endswith("/ch2.cu"), d' \
                "$tmp/lab.json" 2> "$tmp/err"
        then ok "./lab$n --json writes a report that parses, with its verdict and exit"
        else fail "./lab$n --json writes a report that parses, with its verdict and exit" "$(tail -2 "$tmp/err")"; fi
    fi
    ./lab$n --size x > "$tmp/out" 2>&1; rc=$?
    if [ $rc = 2 ] && [ "$(wc -l < "$tmp/out")" = 1 ]
    then ok "./lab$n with bad input: one line and exit 2"
    else fail "./lab$n with bad input: one line and exit 2" "exit $rc: $(cat "$tmp/out")"; fi
    # a program older than the student's file is refused, and a compile
    # that fails leaves none behind
    touch "$d/ch$n.cu"
    ./lab$n > "$tmp/out" 2>&1; rc=$?
    if [ $rc = 2 ] && grep -q "is older than" "$tmp/out"; then ok "./lab$n refuses a program older than the student's file"
    else fail "./lab$n refuses a program older than the student's file" "exit $rc: $(cat "$tmp/out")"; fi
    # only the lines between the marks are the student's: the rest of the
    # file (its launchers, its table of kernels) is the book's
    cp "$d/ch$n.cu" "$tmp/lab-file"
    sed -i 's/^static void run_/this is not compiled; static void run_/' "$d/ch$n.cu"
    echo "this is not compiled either;" >> "$d/ch$n.cu"
    if make -s LAB_DIR="$d" lab$n > "$tmp/out" 2>&1 && [ -x build/lab/ch$n ] \
        && grep -q "this is not compiled" "$d/ch$n.cu" \
        && ! grep -q "this is not compiled" build/lab/ch$n.cu
    then ok "make lab$n compiles only the lines between the lab's marks, in the book's stub"
    else fail "make lab$n compiles only the lines between the lab's marks, in the book's stub" "$(tail -3 "$tmp/out")"; fi
    cp "$tmp/lab-file" "$d/ch$n.cu"
    awk -v l="#include \"../tangle/ch$n.cu\"" '{ print } !done && /---- lab .*: your code begins here ----/ { print l; done = 1 }' \
        "$tmp/lab-file" > "$d/ch$n.cu"
    make -s LAB_DIR="$d" lab$n > "$tmp/out" 2>&1; rc=$?
    ./lab$n --json "$tmp/inc.json" > "$tmp/out2" 2>&1; rc2=$?
    if [ $rc != 0 ] && [ ! -e build/lab/ch$n ] && grep -q "may not use #include" "$tmp/out" \
        && [ $rc2 = 1 ] && grep -q "^lab$n: WRONG: the lab's code does not compile (make lab$n): .*may not use #include" "$tmp/out2" \
        && { ! command -v python3 > /dev/null || python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); assert d["verdict"] == "wrong" and d["exit"] == 1, d' "$tmp/inc.json"; }
    then ok "make lab$n refuses an #include among the lab's lines, and ./lab$n grades it wrong"
    else fail "make lab$n refuses an #include among the lab's lines, and ./lab$n grades it wrong" "exit $rc: $(cat "$tmp/out"); exit $rc2: $(cat "$tmp/out2")"; fi
    # nor a macro that would rewrite the book's code after the lab's
    awk '{ print } !done && /---- lab .*: your code begins here ----/ { print "#define run_coalesced run_naive"; done = 1 }' \
        "$tmp/lab-file" > "$d/ch$n.cu"
    make -s LAB_DIR="$d" lab$n > "$tmp/out" 2>&1; rc=$?
    if [ $rc != 0 ] && [ ! -e build/lab/ch$n ] && grep -q "may not use #define run_coalesced" "$tmp/out"
    then ok "make lab$n refuses a #define among the lab's lines that its stub does not define"
    else fail "make lab$n refuses a #define among the lab's lines that its stub does not define" "exit $rc: $(cat "$tmp/out")"; fi
    cp "$tmp/lab-file" "$d/ch$n.cu"
    awk '{ print } !done && /---- lab .*: your code begins here ----/ { print "this does not compile;"; done = 1 }' \
        "$tmp/lab-file" > "$d/ch$n.cu"
    make -s LAB_DIR="$d" lab$n > "$tmp/out" 2>&1; rc=$?
    ./lab$n > "$tmp/out2" 2>&1; rc2=$?
    if [ $rc != 0 ] && [ ! -e build/lab/ch$n ] && [ $rc2 = 1 ] \
        && grep -q "^lab$n: WRONG: the lab's code does not compile (make lab$n): .*error" "$tmp/out2" \
        && grep -q "$d/ch$n.cu[:(][0-9]" "$tmp/out"
    then ok "a failed make lab$n names the student's line, leaves no program, and ./lab$n grades it wrong"
    else fail "a failed make lab$n names the student's line, leaves no program, and ./lab$n grades it wrong" "make exit $rc: $(head -3 "$tmp/out"); exit $rc2: $(cat "$tmp/out2")"; fi
    # code that would do the grading's work instead of the lab's: each is
    # compiled, refused by its object (bookdata lab-screen), not linked,
    # and graded wrong with the reason, in the JSON too
    local atk what bad=""
    # (one per line: the code, a |, the reason; read raw, as the compiler
    # will read the code)
    cat > "$tmp/attacks" << 'EOF'
static void __attribute__((constructor)) early(void) { static volatile int x; x = 1; }|it runs code before or after main
static void __attribute__((constructor(200))) early(void) { static volatile int x; x = 1; }|it runs code before or after main
__attribute__((used)) static long sys0(long n) { long r; asm volatile("syscall" : "=a"(r) : "a"(n) : "rcx", "r11", "memory"); return r; }|may not use asm
extern "C" double fmax(double a, double b) { return a < b ? b : a; }|it defines fmax with external linkage
static void go(void) { cublas_sgemm(1, 1, 1, 1.0f, 0, 1, 0, 1, 0.0f, 0, 1); } void (*keep)(void) = go;|it calls cublas_sgemm
__attribute__((used)) static void lab_f(void) { } asm(".pushsection .init,\"ax\",@progbits\n\tcall _ZL5lab_fv\n\t.popsection");|may not use asm
__attribute__((used)) static void lab_f(void) { }|it adds the host function _ZL5lab_fv
#pragma redefine_extname cudaLaunchKernel lab_launch|may not use #pragma redefine_extname
EOF
    # (the lines read into an array first: a make run inside the loop
    # takes the jobserver's descriptors from the make that runs the
    # tests, and would read an open descriptor of the loop's as one)
    local -a atks
    mapfile -t atks < "$tmp/attacks"
    for atk in "${atks[@]}"; do
        printf '%s\n' "${atk%|*}" > "$tmp/atk.line"
        what=${atk##*|}
        awk -v f="$tmp/atk.line" '/---- lab [0-9]+, .*: your code ends here ---- / && !done {
                while ((getline l < f) > 0) print l; done = 1 } { print }' \
            "$tmp/lab-file" > "$d/ch$n.cu"
        make -s LAB_DIR="$d" lab$n > "$tmp/out" 2>&1; rc=$?
        ./lab$n --json "$tmp/atk.json" > "$tmp/out2" 2>&1
        # (refused by the object's screen, not linked; or by the splice,
        # not compiled)
        local refused=no
        { [ $rc = 0 ] && grep -q "not linked: $what" "$tmp/out" \
              && grep -q "^lab$n: WRONG: the lab's code was not graded: " "$tmp/out2"; } && refused=yes
        { [ $rc != 0 ] && grep -q "^lab$n: WRONG: the lab's code does not compile (make lab$n): .*$what" "$tmp/out2"; } \
            && refused=yes
        if [ -e build/lab/ch$n ] || ! grep -qF "$what" "$tmp/out" || [ $refused = no ] \
            || { command -v python3 > /dev/null && ! python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); assert d["verdict"] == "wrong" and d["exit"] == 1 and sys.argv[2] in d["message"], d' \
                     "$tmp/atk.json" "$what" 2> /dev/null; }; then
            bad="$bad"$'\n'"$what: make exit $rc: $(tail -2 "$tmp/out"); $(tail -1 "$tmp/out2")"
        fi
    done
    [ "$(wc -l < "$tmp/attacks")" = 8 ] || bad="$bad"$'\n'"the attacks were not all read"
    [ -z "$bad" ] && ok "lab$n: code that runs around main (any priority, or from .init), uses asm or a pragma of the host's, replaces a library's function, calls cuBLAS or adds host code is not built, and graded wrong with its reason" \
        || fail "lab$n: code that runs around main (any priority, or from .init), uses asm or a pragma of the host's, replaces a library's function, calls cuBLAS or adds host code is not built, and graded wrong with its reason" "$bad"
    # (the stub again, built: the runners the judge is tested with)
    cp "$tmp/lab-file" "$d/ch$n.cu"; make -s LAB_DIR="$d" lab$n > /dev/null 2>&1
    # the judge, in a process of its own: a C made here from the seed
    # (the harness's generator, again in Python) is correct; a wrong
    # element, a changed padding element, a short file or another seed
    # is wrong, exit 1
    if [ ! -x build/lab/judge ] || [ ! -x build/lab/ch$n-run ] || [ ! -x build/lab/ch$n-book ]; then
        fail "lab$n: make lab$n builds the runners and the judge" "no build/lab/judge, build/lab/ch$n-run or build/lab/ch$n-book"
    elif ! command -v python3 > /dev/null; then skip "the judge: no python3 to write its input"
    else
        bad=
        for p in none:0:42 elem:1:42 pad:1:42 short:1:42 none:1:43; do
            IFS=: read -r what want sd <<< "$p"
            python3 - 5 6 7 3 42 -1.5 0.5 "$what" > "$tmp/c.bin" << 'PY'
import struct, sys
M = (1 << 64) - 1
def fill(count, seed):
    out, st = [], seed & M
    for _ in range(count):
        st = (st + 0x9e3779b97f4a7c15) & M
        z = ((st ^ (st >> 30)) * 0xbf58476d1ce4e5b9) & M
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
        z ^= z >> 31
        out.append(struct.unpack('f', struct.pack('f', ((z >> 40) + 0.5) / 8388608.0 - 1.0))[0])
    return out
m, n, k, pad, seed = map(int, sys.argv[1:6])
alpha, beta, plant = float(sys.argv[6]), float(sys.argv[7]), sys.argv[8]
lda, ldb, ldc = k + pad, n + pad, n + pad
a, b = fill(m * lda, seed * 7919 + 5), fill(k * ldb, seed * 7919 + 6)
c0 = fill(m * ldc, seed * 7919 + 3)
data = struct.pack('6I', 0x4342414c, m, n, k, ldc, 2)
for r in (0, 1):
    c = []
    for i in range(m):
        for j in range(ldc):
            if j < n:
                t = [a[i * lda + p] * b[p * ldb + j] for p in range(k)]
                b0 = beta * c0[i * ldc + j] if r else 0.0
                # (near, far: off by a share of the element's scale)
                off = {'near': 1e-3, 'far': 1e-2}.get(plant, 0.0)
                off *= abs(alpha) * sum(x * x for x in t) ** 0.5 + abs(b0)
                c.append(struct.pack('f', alpha * sum(t) + b0 + off))
            else:
                c.append(struct.pack('f', c0[i * ldc + j]) if r else b'\xff' * 4)
    if plant == 'elem' and r == 1:
        c[ldc + 1] = struct.pack('f', struct.unpack('f', c[ldc + 1])[0] + 1.0)
    if plant == 'pad' and r == 0:
        c[n] = struct.pack('f', 0.0)
    data += b''.join(c)
sys.stdout.buffer.write(data[:-4] if plant == 'short' else data)
PY
            build/lab/judge --kernel x -m 5 -n 6 -k 7 --pad 3 --alpha -1.5 --beta 0.5 \
                --seed "$sd" --precision fp32 --in "$tmp/c.bin" > "$tmp/out" 2>&1; rc=$?
            [ "$rc" = "$want" ] || bad="$bad"$'\n'"$what (seed $sd): exit $rc, not $want: $(cat "$tmp/out")"
        done
        # A product of one element whose sum cancels (seed 182: |R| is
        # 1 % of its scale S), off by 0.1 % of S, as a TF32 kernel may
        # be: right (its error against R alone is 10 %); off by 1 %: wrong.
        for p in near:0 far:1; do
            IFS=: read -r what want <<< "$p"
            sed -n "/^import struct, sys$/,/^sys.stdout.buffer.write/p" tests/cpu-tests.sh \
                | python3 - 1 1 300 3 182 -1.5 0.5 "$what" > "$tmp/c.bin"
            build/lab/judge --kernel x -m 1 -n 1 -k 300 --pad 3 --alpha -1.5 --beta 0.5 \
                --seed 182 --precision tf32 --in "$tmp/c.bin" > "$tmp/out" 2>&1; rc=$?
            [ "$rc" = "$want" ] || bad="$bad"$'\n'"1x1x300, $what: exit $rc, not $want: $(cat "$tmp/out")"
        done
        build/lab/judge --kernel x -m 5 > "$tmp/out" 2>&1; rc=$?
        [ $rc = 2 ] || bad="$bad"$'\n'"bad options: exit $rc"
        [ -z "$bad" ] && ok "the lab's judge passes a right C (a cancelling one-element product too) and fails a wrong element, a written padding, a short file and another seed" \
            || fail "the lab's judge passes a right C (a cancelling one-element product too) and fails a wrong element, a written padding, a short file and another seed" "$bad"
    fi
    # and the chapter's own code passes the same screen
    book/tools/bookdata lab-answer tangle/ch$n-lab.cu tangle/ch$n.cu > "$d/ch$n.cu"
    if make -s LAB_DIR="$d" lab$n > "$tmp/out" 2>&1 && [ -x build/lab/ch$n ] && [ ! -e build/lab/ch$n.refused ]
    then ok "lab$n: the chapter's own code is linked (the screen refuses nothing of it)"
    else fail "lab$n: the chapter's own code is linked (the screen refuses nothing of it)" "$(tail -3 "$tmp/out")"; fi
    [ $had = yes ] || rm -f lab$n
    rm -rf build/lab/ch$n build/lab/ch$n.* build/lab/ch$n-*
    # The same for lab 10, whose host functions (run_tf32's instances)
    # the host compiler lays out differently when its object comes from
    # noweb's output (line markers naming the .nw files) than from a
    # spliced lab file: the screen compares the lab with the chapter's
    # own code spliced the same way, never with build/ch10.o.
    n=10; had=no; [ -e lab$n ] && had=yes
    if [ -e tangle/ch$n-lab.cu ]; then
        book/tools/bookdata lab-answer tangle/ch$n-lab.cu tangle/ch$n.cu > "$d/ch$n.cu"
        if make -s LAB_DIR="$d" lab$n > "$tmp/out" 2>&1 && [ -x build/lab/ch$n ] && [ ! -e build/lab/ch$n.refused ]
        then ok "lab$n: the chapter's own code is linked, whatever source build/ch$n.o was compiled from"
        else fail "lab$n: the chapter's own code is linked, whatever source build/ch$n.o was compiled from" \
            "$(cat build/lab/ch$n.refused 2>/dev/null | head -2; tail -2 "$tmp/out")"; fi
        [ $had = yes ] || rm -f lab$n
        rm -rf build/lab/ch$n build/lab/ch$n.* build/lab/ch$n-run
    else skip "lab10's own code: chapter 10 is not built here"; fi
    # Lab 7 writes the swizzles that tangle/ch7.h defines for the next
    # chapters: a lab compiles against its kit's headers (build/lab/inc7,
    # without them), so its own code, which says them, links, and the
    # same code without them does not compile.
    n=7; had=no; [ -e lab$n ] && had=yes
    if [ -e tangle/ch$n-lab.cu ]; then
        local why=""
        book/tools/bookdata lab-answer tangle/ch$n-lab.cu tangle/ch$n.cu > "$d/ch$n.cu"
        grep -q "^#define ASWIZZLE" "$d/ch$n.cu" || why="its answer does not say the swizzles;"
        make -s LAB_DIR="$d" lab$n > "$tmp/out" 2>&1 && [ -x build/lab/ch$n ] && [ ! -e build/lab/ch$n.refused ] \
            || why="$why the chapter's code is not linked: $(tail -2 "$tmp/out");"
        grep -v "^#define [AB]SWIZZLE" "$d/ch$n.cu" > "$tmp/l7" && cp "$tmp/l7" "$d/ch$n.cu"
        make -s LAB_DIR="$d" lab$n > "$tmp/out" 2>&1; rc=$?
        ./lab$n > "$tmp/out2" 2>&1; rc2=$?
        { [ $rc != 0 ] && [ $rc2 = 1 ] && grep -q "ASWIZZLE\" is undefined" "$tmp/out2"; } \
            || why="$why without its swizzles: make exit $rc, ./lab$n exit $rc2: $(tail -1 "$tmp/out2");"
        [ -z "$why" ] && ok "lab7 compiles against its kit's ch7.h: the chapter's code links, and without the swizzles it does not compile" \
            || fail "lab7 compiles against its kit's ch7.h: the chapter's code links, and without the swizzles it does not compile" "$why"
        [ $had = yes ] || rm -f lab$n
        rm -rf build/lab/ch$n build/lab/ch$n.* build/lab/ch$n-run
    else skip "lab7: chapter 7 is not built here"; fi
}

# A teacher's grading of handed-in files (make grade: book/tools/
# grade-files) happens in a copy of the book's commit, so that nothing
# in the working tree or build/ of the machine it runs on takes part: in
# a clone whose working tree a student has changed (a grader that passes
# everything), a file that calls cuBLAS is still wrong, the chapter's
# own code is graded (correct, or cannot grade without a GPU), and bad
# usage is one line and exit 2.
test_grade_files() {
    local n=1 r="$tmp/gradeclone" bad="" rc
    [ -e tangle/ch$n-lab.cu ] || { skip "make grade: chapter $n is not built here"; return; }
    command -v git > /dev/null && git rev-parse -q --verify HEAD > /dev/null 2>&1 \
        || { skip "make grade: no git clone here"; return; }
    git clone -q . "$r" 2> /dev/null || { fail "make grade: a clone of the book" "git clone failed"; return; }
    [ -x "$r/book/tools/grade-files" ] || { skip "make grade: the commit has no grade-files yet"; rm -rf "$r"; return; }
    printf '#!/bin/sh\necho "lab$1: correct (planted)"; exit 0\n' > "$r/book/tools/grade"
    book/tools/bookdata lab-answer tangle/ch$n-lab.cu tangle/ch$n.cu > "$tmp/g-own.cu"
    book/tools/labstub $n | awk '/---- lab [0-9]+, .*: your code ends here ---- / && !done {
            print "static void go(void) { cublas_sgemm(1, 1, 1, 1.0f, 0, 1, 0, 1, 0.0f, 0, 1); } void (*keep)(void) = go;"; done = 1 } { print }' \
        > "$tmp/g-atk.cu"
    (cd "$r" && book/tools/grade-files $n --out "$tmp/graded" "$tmp/g-atk.cu" "$tmp/g-own.cu") > "$tmp/g.out" 2>&1; rc=$?
    grep -q "^$tmp/g-atk.cu	exit 1	lab$n: WRONG: the lab's code was not graded: it calls cublas_sgemm" "$tmp/g.out" \
        || bad="$bad"$'\n'"the attack: $(grep g-atk "$tmp/g.out")"
    grep -q "(this working tree's changes are not used)" "$tmp/g.out" \
        || bad="$bad"$'\n'"no word of the working tree's changes: $(head -1 "$tmp/g.out")"
    grep -Eq "^$tmp/g-own.cu	exit (0	lab$n: correct|3	lab$n: cannot grade here)" "$tmp/g.out" \
        || bad="$bad"$'\n'"the chapter's own code: $(grep g-own "$tmp/g.out")"
    [ -s "$tmp/graded/01-g-atk.json" ] && [ -s "$tmp/graded/02-g-own.json" ] \
        || bad="$bad"$'\n'"no JSON of each grading in the output folder"
    { [ $rc = 0 ] || [ $rc = 3 ]; } || bad="$bad"$'\n'"exit $rc"
    book/tools/grade-files $n "$tmp/none.cu" > "$tmp/g.out" 2>&1; rc=$?
    { [ $rc = 2 ] && [ "$(wc -l < "$tmp/g.out")" = 1 ]; } || bad="$bad"$'\n'"a missing file: exit $rc: $(cat "$tmp/g.out")"
    # a link (another student's file, or one of the teacher's) is not
    # handed-in work; a name cannot print a verdict line of its own
    ln -sf "$tmp/g-own.cu" "$tmp/g-link.cu"
    book/tools/grade-files $n "$tmp/g-link.cu" > "$tmp/g.out" 2>&1; rc=$?
    { [ $rc = 2 ] && grep -q "is a symbolic link" "$tmp/g.out"; } || bad="$bad"$'\n'"a link: exit $rc: $(cat "$tmp/g.out")"
    local odd="$tmp/g"$'\texit 0\tlab1: correct\n'".cu"
    cp "$tmp/g-atk.cu" "$odd"
    book/tools/grade-files $n --out "$tmp/graded2" "$odd" > "$tmp/g.out" 2>&1
    { [ "$(grep -c "correct" "$tmp/g.out")" = 1 ] && grep -q "?exit 0?lab1: correct?.cu	exit 1	lab$n: WRONG" "$tmp/g.out"; } \
        || bad="$bad"$'\n'"a name with a tab and a newline: $(cat -A "$tmp/g.out" | head -5)"
    book/tools/grade-files 13 "$tmp/g-own.cu" > "$tmp/g.out" 2>&1; rc=$?
    { [ $rc = 2 ] && grep -q "chapter 13 has no lab" "$tmp/g.out"; } || bad="$bad"$'\n'"a chapter without a lab: exit $rc: $(cat "$tmp/g.out")"
    rm -rf "$r"
    [ -z "$bad" ] && ok "make grade grades handed-in files in a copy of the book's commit: a changed working tree takes no part, an attack is wrong, the chapter's code is not, a link is refused and a name prints no verdict" \
        || fail "make grade grades handed-in files in a copy of the book's commit: a changed working tree takes no part, an attack is wrong, the chapter's code is not, a link is refused and a name prints no verdict" "$bad"
}

# A lab whose idea is speed passes only at lab_speed of the chapter's
# kernel, timed beside it: a ratio whose shortfall (1 - lab_speed) must
# hold three times the between-run spread of that kernel at 4096^3 in
# the results the book shows, or the same code could fail its own lab.
test_lab_speed() {
    local n e k speed sp bad="" count=0 worst=0
    for n in $(man buildable); do
        speed=$(man "$n" lab_speed)
        [ -n "$speed" ] || continue
        e=$(man "$n" lab_entries)
        k=$(man "$n" lab_kernel)
        [ -n "$e" ] || e=$(./ch$n --list 2> /dev/null | awk -F'\t' -v k="$k" \
            '$3 == k || index($3, k "<") == 1 { printf "%s ", $1 }')
        e=${e%% *}
        sp=$(awk -F'\t' -v key="ch$n.$e.4096.spread_pct" '$1 == key { print $2 }' build/results.raw)
        count=$((count + 1))
        if [ -z "$sp" ]; then bad="$bad"$'\n'"lab$n: no spread of ch$n.$e at 4096^3 in the results"
        elif ! awk -v s="$sp" -v f="$speed" 'BEGIN { exit !(3 * s <= 100 * (1 - f)) }'; then
            bad="$bad"$'\n'"lab$n: lab_speed $speed leaves $(awk -v f="$speed" 'BEGIN { print 100 * (1 - f) }') %, under 3 times the spread $sp %"
        fi
        worst=$(awk -v a="$worst" -v b="${sp:-0}" 'BEGIN { print (b > a ? b : a) }')
    done
    # planted: a ratio of 0.99 against the widest spread fails
    awk -v s="$worst" 'BEGIN { exit !(3 * s <= 1) }' \
        && bad="$bad"$'\n'"the check would pass lab_speed 0.99 against a spread of $worst %"
    [ $count -gt 0 ] || bad="no lab states lab_speed"
    [ -z "$bad" ] && ok "every lab_speed ($count labs) stands three spreads between runs below the chapter's kernel" \
        || fail "every lab_speed stands three spreads between runs below the chapter's kernel" "$bad"
}

# The worked answers that change a chapter's code (answers/chN-exE.diff):
# each still fits the code it changes, says what to run, is built, is
# shown by an answer, and was measured with the code as it is now; a
# diff that no longer fits is refused; the keys count a wrong check.
test_answers() {
    local f name n t bad="" out hash rc want_key af
    # a preamble line that runs something (book/tools/answers-bench)
    runs_something='^\(run\|before\|check\|repeat\|profile\|profile-before\|profile-function\|profile-function-before\|sanitize\):'
    local compiled=""
    for f in answers/ch*-ex*.diff; do
        [ -f "$f" ] || continue
        name=$(basename "$f" .diff); n=${name#ch}; n=${n%%-*}
        # the tangled file it changes, its first line (--- tangle/F.cu):
        # the chapter's code or its microbenchmark; and the program it runs
        t=$(book/tools/bookdata answers target --source "$f")
        case " ch$n $(man "$n" micro) " in
        *" $t "*) ;;
        *) bad="$bad"$'\n'"$name changes tangle/$t.cu, not a file of chapter $n"; continue ;;
        esac
        case " $(man "$n" programs) $(man "$n" micro) " in
        *" $(book/tools/bookdata answers target "$f") "*) ;;
        *) bad="$bad"$'\n'"$name runs $(book/tools/bookdata answers target "$f"), not a program of chapter $n" ;;
        esac
        if ! book/tools/apply-diff "$f" "tangle/$t.cu" > "$tmp/applied" 2> "$tmp/err"; then
            bad="$bad"$'\n'"$(cat "$tmp/err")"; continue
        fi
        cmp -s "$tmp/applied" "tangle/$t.cu" && bad="$bad"$'\n'"$name changes nothing"
        book/tools/bookdata answers preamble "$f" | cut -f2- | grep -q "$runs_something" \
            || bad="$bad"$'\n'"$name: its preamble says nothing to run (run:, before:, check:, ...)"
        grep -q "^\\\\answerdiff{$name}" answers/ch$n.tex \
            || bad="$bad"$'\n'"$name: no answer of answers/ch$n.tex shows it (\\answerdiff{$name})"
        case " $(man buildable) " in *" $n "*) compiled="$compiled $name" ;; esac
    done
    # every changed program compiles and links (by the front ends, in
    # parallel, start_builds: build/check/answers/; make answers builds
    # them in full)
    wait_build checks
    local here=0
    for name in $compiled; do
        [[ " $PROVEN " == *" $name "* ]] && continue
        here=$((here + 1))
        [ -x "build/check/answers/$name" ] \
            || bad="$bad"$'\n'"$name does not compile or link: $(head -5 "build/check/answers/$name.log" 2> /dev/null)"
    done
    # an answer that runs the chapter's programs alone: a program it has,
    # and something to run
    for f in answers/ch*-ex*.run; do
        [ -f "$f" ] || continue
        name=$(basename "$f" .run); n=${name#ch}; n=${n%%-*}
        t=$(book/tools/bookdata answers target "$f")
        case " $(man "$n" programs) $(man "$n" micro) " in
        *" $t "*) ;;
        *) bad="$bad"$'\n'"$name runs $t, not a program of chapter $n" ;;
        esac
        book/tools/bookdata answers preamble "$f" | cut -f2- | grep -q "$runs_something" \
            || bad="$bad"$'\n'"$name: says nothing to run"
        [ -f "answers/$name.diff" ] && bad="$bad"$'\n'"$name has both a .diff and a .run"
    done
    for f in answers/ch*.tex; do
        for name in $(sed -n 's/^\\answerdiff{\([^}]*\)}.*/\1/p' "$f"); do
            [ -f "answers/$name.diff" ] || bad="$bad"$'\n'"$f shows answers/$name.diff, which does not exist"
        done
    done
    [ -z "$bad" ] && ok "every answer's diff fits its chapter's code, compiles and links ($here compiled here, $(wc -w <<< "$PROVEN") built and measured with today's code), and is shown; every run names a program" \
        || fail "every answer's diff fits its chapter's code, compiles and links, and is shown; every run names a program" "$bad"
    # a planted change to the code the diff expects: refused, by hunk
    f=$(ls answers/ch*-ex*.diff 2> /dev/null | head -1)
    if [ -n "$f" ]; then
        name=$(basename "$f" .diff); n=${name#ch}; n=${n%%-*}
        awk '/^@@ /{h++} h == 1 && /^ / && !done { print " PLANTED" substr($0, 2); done = 1; next } { print }' \
            "$f" > "$tmp/planted.diff"
        out=$(book/tools/apply-diff "$tmp/planted.diff" "tangle/ch$n.cu" 2>&1 > /dev/null); rc=$?
        [ $rc = 1 ] && grep -q "hunk 1 does not match" <<< "$out" \
            && ok "a diff that no longer fits the code is refused, naming the hunk" \
            || fail "a diff that no longer fits the code is refused, naming the hunk" "exit $rc: $out"
        printf '\\answerdiff{ch%s-ex999}\n' "$n" | book/tools/answer-diffs > /dev/null 2> "$tmp/err"; rc=$?
        [ $rc = 1 ] && grep -q "no answers/ch$n-ex999.diff" "$tmp/err" \
            && ok "an answer that shows a missing diff stops the build" \
            || fail "an answer that shows a missing diff stops the build" "exit $rc: $(cat "$tmp/err")"
    fi
    # measured with the code and the answers as they are, in every file
    # their preambles fill (book/tools/bookdata answers files)
    for n in $CHAPTERS; do
        af=$(book/tools/bookdata answers files "$n")
        [ -n "$af" ] || continue
        hash=$(book/tools/bookdata codehash "$n" answers)
        bad=""
        for f in $af; do
            bad="$bad$(book/tools/csvq -v hash="$hash" -v f="$f" 'csv_row() { next }
                { rows++; if (F("code_hash") != hash) { print f " row " FNR ": stale;"; exit } }
                END { if (!rows) print f ": no rows;" }' "$RESULTS/$f" 2>&1)"
        done
        for f in $(ls answers/ch$n-ex*.diff answers/ch$n-ex*.run 2> /dev/null); do
            name=$(basename "$f"); name=${name%.*}
            cat "$RESULTS"/answers-*ch$n.csv 2> /dev/null | grep -q "^\"\\?${name#ch$n-}[,.]" \
                || bad="$bad no rows for ${name#ch$n-};"
            # a program with a table of its own: its rows among the
            # microbenchmark's, where the answer's keys look for them
            book/tools/bookdata answers preamble "$f" | cut -f2- > "$tmp/pre"
            if grep -qx 'table: micro' "$tmp/pre"; then
                grep -q "^${name#ch$n-},run," "$RESULTS/answers-micro-ch$n.csv" 2> /dev/null \
                    || bad="$bad ${name#ch$n-} (table: micro) has no rows in answers-micro-ch$n.csv;"
            fi
            # each profile its own row, labelled as book/tools/answers-bench says
            ex=${name#ch$n-}
            while IFS= read -r l; do
                set -- ${l#*:}
                case $l in
                profile:*|profile-before:*)
                    e=""; while [ $# -gt 1 ]; do [ "$1" = --kernel ] && e=$2; shift; done
                    case $l in profile-before:*) label=$ex.before.$e ;; *) label=$ex.$e ;; esac ;;
                profile-function:*) label=$ex.$1 ;;
                profile-function-before:*) label=$ex.before.$1 ;;
                *) continue ;;
                esac
                grep -q "^\"$label\"," "$RESULTS/answers-ncu-ch$n.csv" 2> /dev/null \
                    || bad="$bad no profile $label in answers-ncu-ch$n.csv;"
            done < "$tmp/pre"
        done
        [ -z "$bad" ] && ok "ch$n: the worked answers were measured with the current code" \
            || fail "ch$n: the worked answers were measured with the current code" "$bad"
    done
    # the keys of an answer's rows: a wrong check is counted and named
    bad=""
    mkdir -p "$tmp/ans-res" "$tmp/ans-out"
    cp build/manifest.tsv "$tmp/ans-out/"
    { echo 'answer,use,options,chapter,kernel,m,n,k,tflops,error,check,code_hash'
      echo 'ex1,check,"",7,k1,31,33,17,0.1,1e-6,ok,x'
      echo 'ex1,check,"--pad 1",7,k1,31,33,17,0.1,1e-1,FAIL,x'
      echo 'ex1,check,"",7,k1,2,3,4,,,timeout,x'
      echo 'ex1,run,"--size 64",7,k1,64,64,64,2.0,1e-6,ok,x'
      echo 'ex1,before,"--size 64",7,k1,64,64,64,1.6,1e-6,ok,x'; } > "$tmp/ans-res/answers-ch7.csv"
    book/tools/bookdata stage derived "$tmp/ans-res" "$tmp/ans-out" 7 2> "$tmp/err"
    out=$(grep '^ch7\.ex1\.' "$tmp/ans-out/results.keys" | sort | tr '\t' '=' | tr '\n' ' ')
    for want_key in "ch7.ex1.k1.checks=3" "ch7.ex1.k1.failed=2" \
        "ch7.ex1.k1.failed_shapes=31x33x17, 2x3x4" "ch7.ex1.k1.64.change_pct=+25.0" \
        "ch7.ex1.before.k1.64.tflops=1.60"; do
        grep -qF "$want_key " <<< "$out " || bad="$bad missing $want_key;"
    done
    [ -z "$bad" ] && ok "an answer's keys count its wrong checks and compare before and after" \
        || fail "an answer's keys count its wrong checks and compare before and after" "$bad got: $out"
    # repeated runs, a microbenchmark's rows, a sanitizer's counts
    bad=""
    rm -f "$tmp/ans-out/results.keys" "$tmp/ans-out/results.raw"
    { echo 'answer,use,options,chapter,kernel,m,n,k,tflops,error,check,code_hash'
      echo 'ex2,repeat,"--size 64",7,k1,64,64,64,2.0,1e-6,ok,x'
      echo 'ex2,repeat,"--size 64",7,k1,64,64,64,2.0,1e-1,FAIL,x'; } > "$tmp/ans-res/answers-ch7.csv"
    { echo 'answer,use,options,chapter,name,what,tflops,runs,code_hash'
      echo 'ex3,run,"",7,peak_a1,one chain,77.5,21,x'
      echo 'ex3,before,"",7,peak,eight chains,320.0,21,x'; } > "$tmp/ans-res/answers-micro-ch7.csv"
    { echo 'answer,use,tool,options,hazards,errors,warnings,pairs,occurrences,check,exit,code_hash'
      echo 'ex4,run,racecheck,"--size 256",7,3,4,120,5000,FAIL,1,x'; } > "$tmp/ans-res/answers-san-ch7.csv"
    book/tools/bookdata stage derived "$tmp/ans-res" "$tmp/ans-out" 7 2> "$tmp/err"
    out=$(grep '^ch7\.ex' "$tmp/ans-out/results.keys" | sort | tr '\t' '=' | tr '\n' ' ')
    for want_key in "ch7.ex2.k1.64.runs=2" "ch7.ex2.k1.64.runs_failed=1" \
        "ch7.ex3.micro.peak_a1.tflops=77.5" "ch7.ex3.before.micro.peak.tflops=320" \
        "ch7.ex4.racecheck.pairs=120" "ch7.ex4.racecheck.errors=3" "ch7.ex4.racecheck.check=FAIL"; do
        grep -qF "$want_key " <<< "$out " || bad="$bad missing $want_key;"
    done
    [ -z "$bad" ] && ok "an answer's keys count repeated runs, name microbenchmark rows and sanitizer counts" \
        || fail "an answer's keys count repeated runs, name microbenchmark rows and sanitizer counts" "$bad got: $out $(cat "$tmp/err")"
}

# A verdict on a prediction, and a comparison between two measured
# figures, are computed from the data (verdict.* and compare.* keys of
# the manifests, book/bookdata/models.py), never typed: the prose may not say
# "confirmed", "refuted" or "within the noise" by itself.
# The check runs on the prose and on a planted line, which it must catch.
typed_verdicts() {   # reads prose lines (FILE:LINE: TEXT) on stdin
    gawk '{ t = $0; sub(/^[^:]*:[0-9]+: /, "", t); gsub(/\\R\{[^}]*\}/, "", t)
            if (tolower(t) ~ /(^|[^a-z])(confirm(s|ed)?|refut(e|es|ed)|within the noise)([^a-z]|$)/) print }'
}

# A comparison of two measured figures is computed too: a sentence of the
# prose that quotes two measured speeds or times (\R{...tflops},
# \R{...ms}, ...) may not judge them with a typed "faster than",
# "slower than" or "beats" (a ratio, "1.5 times faster", says its number).
typed_comparisons() {   # reads prose lines (FILE:LINE: TEXT) on stdin
    gawk '
    function flush(   n, s, i, x, y, k) {
        n = split(buf, s, /[.!?][ \t]+/)
        for (i = 1; i <= n; i++) {
            x = s[i]; y = x
            k = gsub(/\\R\{[^}]*\.(tflops|ms|us|gbs|pct_cublas)\}/, "", y)
            gsub(/\\R\{[^}]*\}/, "", y); y = tolower(y)
            if (k >= 2 && y ~ /(faster|slower|quicker)( than|[,:;)]|$)|(^|[^a-z])(beats?|outruns?)([^a-z]|$)/ \
                && y !~ /times (faster|slower)/)
                print at ": " substr(x, 1, 200)
        }
        buf = ""
    }
    { f = $0; sub(/:[0-9]+: .*/, "", f); t = $0; sub(/^[^:]*:[0-9]+: /, "", t)
      if (f != pf) { flush(); pf = f; at = $0; sub(/: .*/, "", at) }
      if (buf == "") { at = $0; sub(/: .*/, "", at) }
      buf = buf " " t }
    END { flush() }'
}

test_verdicts() {
    local bad planted got want
    prose_lines | grep -v '^book/preface.tex' > "$tmp/prose"
    bad=$(typed_comparisons < "$tmp/prose")
    planted=$(printf '%s\n' 'chapters/chX.nw:1: It runs at \R{ch.a.4096.tflops} against' \
              'chapters/chX.nw:2: \R{ch.b.4096.tflops}, faster than chapter 3. Next.' \
              'chapters/chY.nw:1: At \R{ch.a.4096.tflops} it is \R{compare.x} \R{ch.b.4096.tflops}.' \
              'chapters/chY.nw:2: It is \R{model.x} times faster: \R{ch.a.ms} and \R{ch.b.ms}.' | typed_comparisons)
    if [ -n "$bad" ]; then fail "no comparison of two measured figures is typed (compare.* keys)" "$bad"
    elif [ "$(printf '%s\n' "$planted" | grep -c .)" != 1 ]; then
        fail "no comparison of two measured figures is typed (compare.* keys)" "the check misses a planted one or flags a computed one: $planted"
    else ok "no comparison of two measured figures is typed (compare.* keys)"; fi
    bad=$(typed_verdicts < "$tmp/prose")
    planted=$(printf '%s\n' 'chapters/chX.nw:1: \paragraph{The hypothesis, confirmed.} It runs faster than cuBLAS.' \
              'chapters/chX.nw:2: The prediction is \R{verdict.x}, \R{compare.y} the other.' | typed_verdicts)
    if [ -n "$bad" ]; then fail "no verdict is typed in the prose (they are computed keys)" "$bad"
    elif [ "$(printf '%s\n' "$planted" | grep -c .)" != 1 ]; then
        fail "no verdict is typed in the prose (they are computed keys)" "the check misses a planted one: $planted"
    else ok "no verdict is typed in the prose (they are computed keys)"; fi
    # the words come from the data: a prediction met, missed, and inside
    # the spread, and a comparison either way and inside the spreads
    local out=$tmp/verdicts
    mkdir -p "$out"
    printf 'ch.a\t10\nch.b\t12\nch.c\t10.1\n' > "$out/results.raw"
    : > "$out/results.keys"
    printf '%s\n' '99	verdict.t_in	ch.a ; 9 ; 11 ; 0.5' '99	verdict.t_out	ch.b ; 9 ; 11 ; 0.5' \
        '99	verdict.t_edge	ch.a ; 9.8 ; inf ; 0.5' '99	compare.t_fast	ch.b ; ch.a ; 1 ; 1' \
        '99	compare.t_slow	ch.a ; ch.b ; 1 ; 1 | larger than / smaller than' \
        '99	compare.t_same	ch.c ; ch.a ; 1 ; 1' > "$out/manifest.tsv"
    book/tools/bookdata stage models "$out" 2> "$out/err"
    got=$(grep -P '^(verdict|compare)\.t_[a-z]+\t' "$out/results.keys" | cut -f2 | tr '\n' '|')
    want='confirmed|refuted|undecided: its run-to-run spread reaches across the predicted bound|faster than|smaller than|within the run-to-run spread of|'
    [ "$got" = "$want" ] && ok "verdicts and comparisons are computed from the values and their spreads" \
        || fail "verdicts and comparisons are computed from the values and their spreads" "got: $got
want: $want $(cat "$out/err")"
}

# No comparison of two measured figures that the book prints as a
# difference lies inside their spreads between runs, as tests/beyond-spread
# computes them from the CSV files alone; a planted one fails.
test_beyond_spread() {
    local d=$tmp/beyond out
    mkdir -p "$d/res"
    printf '%s\n' 'chapter,kernel,m,n,k,alpha,beta,tflops,run' \
        1,a,64,64,64,1,0,10.0,1 1,a,64,64,64,1,0,10.5,2 1,a,64,64,64,1,0,9.6,3 \
        1,b,64,64,64,1,0,10.1,1 1,b,64,64,64,1,0,9.9,2 1,b,64,64,64,1,0,10.0,3 > "$d/res/ch1.csv"
    printf '1\tcompare.t_x\tch1.a.64.tflops ; ch1.b.64.tflops ; 0.1 ; 0.1\n' > "$d/manifest.tsv"
    printf 'compare.t_x\tfaster than\n' > "$d/results.keys"
    if out=$(tests/beyond-spread build "$RESULTS" 2>&1) \
       && ! tests/beyond-spread "$d" "$d/res" > /dev/null 2>&1; then
        ok "no comparison names an effect inside its spread between runs ($out)"
    else fail "no comparison names an effect inside its spread between runs" \
              "$out$(tests/beyond-spread "$d" "$d/res" > /dev/null 2>&1 && echo '
(a planted comparison inside the spread passes)')"; fi
}

# The slides (make slides): a deck per chapter, of several frames, whose
# numbers are the book's and of which none is missing ([not measured]);
# a key taken away shows so, and the check can fail.
test_slides() {
    local n bad="" pages head v
    for n in $CHAPTERS; do
        [ -f build/slides/ch$n.pdf ] && [ -f build/slides/ch$n.md ] \
            || { bad="$bad ch$n: no deck;"; continue; }
        pages=$(pdfinfo build/slides/ch$n.pdf 2> /dev/null | awk '/^Pages:/ { print $2 }')
        [ "${pages:-0}" -ge 4 ] || bad="$bad ch$n: $pages frames;"
        grep -q -e '??' -e '\[not measured\]' build/slides/ch$n.md && bad="$bad ch$n: a number is missing;"
        head=$(man "$n" headline)
        v=$(awk -F'\t' -v k="ch$n.$head.4096.tflops" '$1 == k { print $2 }' build/results.keys)
        [ -z "$v" ] || grep -q "| \\\$4096^3\\\$ | $v |" build/slides/ch$n.md \
            || grep -qF "| \$4096^3\$ | $v |" build/slides/ch$n.md \
            || bad="$bad ch$n: the deck's $head at 4096^3 is not the book's $v;"
        # a lecture: the bound, then the question, then (after the lab)
        # the measurement; code no more than 12 lines of 62 columns a
        # frame (12 pt); the lecturer's notes beside
        awk -v n="$n" -v lab="$(man "$n" lab)" '
            /^# The bound/ { b = NR } /^# Predict, before we measure/ { q = NR }
            /^# Lab / { l = NR } /^# What the measurement said/ { m = NR }
            /^```c/ { code = 1; lines = 0; next } /^```/ { code = 0; next }
            code { if (++lines > 12) long = "a frame of more than 12 lines"
                   if (length($0) > 62) long = "a code line of " length($0) " columns" }
            END { if (!(b && q && m && b < q && q < m)) print "ch" n ": not bound, question, then measurement;"
                  if (lab != "" && !(l && q < l && l < m)) print "ch" n ": no lab slide between the question and the measurement;"
                  if (long != "") print "ch" n ": " long ";" }' build/slides/ch$n.md > "$tmp/order"
        bad="$bad$(cat "$tmp/order")"
        grep -q '^::: notes' build/slides/ch$n.md || bad="$bad ch$n: no lecturer's notes;"
    done
    # (one chapter's notes typeset, as make slides typesets every one)
    [ "$(pdfinfo build/slides/ch3-notes.pdf 2> /dev/null | awk '/^Pages:/ { print $2 }')" -ge 2 ] 2> /dev/null \
        || bad="$bad the notes of chapter 3 are not typeset (build/slides/ch3-notes.pdf);"
    mkdir -p "$tmp/slides"
    grep -v "^ch2\.4096\.speedup	" build/results.keys > "$tmp/slides/results.keys"
    book/tools/slides "$tmp/slides" 2 2> /dev/null | grep -q '\[not measured\]' \
        || bad="$bad a missing key does not show as [not measured];"
    [ -z "$bad" ] && ok "make slides: a lecture per chapter (bound, question, lab, measurement, code at 12 pt, notes), with the book's numbers and none missing" \
        || fail "make slides: a lecture per chapter (bound, question, lab, measurement, code at 12 pt, notes), with the book's numbers and none missing" "$bad"
}

# The data program (book/tools/bookdata): its modules' unit tests, and
# every manifest valid against the schema (book/bookdata/manifest.py).
test_data() {
    local out
    if out=$(python3 -m unittest discover -s tests -p 'test_*.py' 2>&1); then
        ok "the data program's unit tests pass ($(grep -o '^Ran [0-9]* tests' <<< "$out"))"
    else fail "the data program's unit tests pass" "$(tail -15 <<< "$out")"; fi
    if out=$(book/tools/bookdata manifest check 2>&1); then
        ok "every manifest holds only the schema's fields, each of its kind"
    else fail "every manifest holds only the schema's fields, each of its kind" "$out"; fi
}

# What the tests build beside them, in the background (start_builds):
# the instructor's edition and the slides (make's log $top/editions.log),
# and the compile checks, make targets with stamps (checks.log): each
# chapter's code compiled the other way, every lab's stub as labstub
# writes it now (kept in build/test-lab/, so that one that did not
# change is not compiled again), every worked answer.  A test that reads
# them waits for its make (wait_build NAME), from any group.
start_build() {   # NAME TARGET...
    local name=$1; shift
    [ $# != 0 ] || { echo 0 > "$top/$name.rc"; return; }
    ( t0=$SECONDS; make -k "$@" > "$top/$name.log" 2>&1; rc=$?
      group_time "$name" $((SECONDS - t0)) > "$top/$name.time"; echo $rc > "$top/$name.rc" ) &
}
# A group's seconds, of the clock and of the processors (bash's times:
# the subshell's and its children's), for TEST_TIMES=1.
group_time() {   # NAME WALL
    times > "$top/times.$1"   # (not in a pipe: a subshell would time itself)
    awk -v g="$1" -v w="$2" '{ for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); c += p[1] * 60 + p[2] } }
        END { printf "# %s: %ss, %.0fs of the processors\n", g, w, c }' "$top/times.$1"
}
wait_build() { while [ ! -e "$top/$1.rc" ]; do sleep 0.5; done; }
start_builds() {
    local n f name targets="" sd=build/test-lab
    mkdir -p "$sd"
    want book && start_build editions build/instructor.pdf build/html-instructor/answers.html slide-decks
    for n in $CHAPTERS; do
        built "$n" || continue
        want compile && for p in ch$n $(micro_of "$n"); do targets="$targets build/check/$p.ok"; done
        want labs && [ -n "$(man "$n" lab)" ] || continue
        book/tools/labstub "$n" > "$tmp/stub.cu" 2> /dev/null || continue
        cmp -s "$tmp/stub.cu" "$sd/ch$n.cu" || cp "$tmp/stub.cu" "$sd/ch$n.cu"
        targets="$targets build/check/lab/ch$n.ok"
    done
    if want answers; then
        local -A measured=()   # chapter -> yes/no, asked once a chapter
        for f in answers/ch*-ex*.diff; do
            [ -f "$f" ] || continue
            name=$(basename "$f" .diff); n=${name#ch}; n=${n%%-*}
            built "$n" || continue
            [ -n "${measured[$n]:-}" ] \
                || { answers_measured "$n" && measured[$n]=yes || measured[$n]=no; }
            [ "${measured[$n]}" = yes ] && PROVEN="$PROVEN $name" \
                || targets="$targets build/check/answers/$name"
        done
    fi
    start_build checks $targets
}
# Chapter $1's answers were measured with its code and its answers as
# they are now: every results file their preambles fill has rows, each
# of the code hash of today's files (bookdata codehash N answers), so
# make bench built each changed program in full from exactly these files
# and ran it.  (Those are not compiled again here; the others are.)
PROVEN=
answers_measured() {
    local af hash f
    af=$(book/tools/bookdata answers files "$1"); [ -n "$af" ] || return 1
    hash=$(book/tools/bookdata codehash "$1" answers)
    for f in $af; do
        book/tools/csvq -v hash="$hash" 'csv_row() { next }
            { rows++; if (F("code_hash") != hash) exit 1 }
            END { exit !rows }' "$RESULTS/$f" 2> /dev/null || return 1
    done
}

# Groups of tests that read the build and write only below their own
# $tmp run side by side, each in a subshell of its own, beside the
# builds; their lines are printed afterwards in a fixed order and
# counted.  (On two cores the work of a run, not its order, sets its
# time: the groups keep both busy to the end.)
LANES=()
lane() {   # NAME FUNCTION...: run the functions in the background
    local name=$1; shift
    mkdir -p "$tmp/lane-$name"
    ( tmp=$tmp/lane-$name passed=0 failed=0 skipped=0 t0=$SECONDS
      for f in "$@"; do "$f"; done
      group_time "$name" $((SECONDS - t0)) > "$tmp/time"
      echo "$passed $failed $skipped" > "$tmp/counts" ) > "$tmp/lane-$name.out" 2>&1 &
    LANES+=("$name:$!")
}
join_lanes() {
    local l name p f s
    for l in "${LANES[@]}"; do
        name=${l%%:*}; wait "${l#*:}"
        cat "$tmp/lane-$name.out"
        if read -r p f s < "$tmp/lane-$name/counts"; then
            passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
        else fail "the test group $name finished"; fi
    done
    LANES=()
    wait   # (and the builds)
    [ -z "${TEST_TIMES:-}" ] || cat "$tmp"/lane-*/time "$top"/*.time 2> /dev/null
}

lane_programs() {
    want data && test_data
    want manifests && test_manifests
    want compile && test_compile
    want sass && test_sass
    want unit && test_unit
    want unit && test_plans
    want unit && test_lab12_race
    want unit && test_ch14_constants
    want unit && test_lab12_reach
    want unit && test_lib
    want cli && test_cli
    want cli && test_stale_builds
    want cli && { have_gpu || test_no_gpu; }
    want cli && test_micro_cli
    want cli && { have_gpu || test_micro_no_gpu; }
    want results && test_results
    want results && test_models
    want results && test_gpu_figures
    want results && test_verdicts
    want results && test_beyond_spread
    want book && test_other_gpu
    want readme && test_readme
    want readme && test_license
}
lane_book() {
    want book && test_book
    want book && test_html
    want book && test_site
    want book && test_frontback
    want book && test_book_commands
    want book && test_pdf_chunks
    want book && test_index
    want book && test_not_measured
    want book && test_course
    want book && test_kit
    want book && test_syllabus
    figure_tests
}
lane_editions() {
    want book && { wait_build editions; test_instructor; test_slides; }
}
lane_compiled() {
    want compile && test_compile_paths
    want labs && test_labs
    want labs && test_lab_speed
    want labs && test_grade_files
    want answers && test_answers
}
lane_fixture() { want fixture && fixture_cpu_tests; }

cpu_tests() {
    start_builds
    lane programs lane_programs
    lane book lane_book
    lane editions lane_editions
    lane compiled lane_compiled
    lane fixture lane_fixture
    join_lanes
}
