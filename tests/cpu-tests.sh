# The tests that need no GPU.  Sourced by tests/run, which defines ok,
# fail, check, CHAPTERS, RESULTS, SIZES and tmp.

roots_of() {   # the files chapter $1 tangles to
    if [ "$1" = 0 ]; then echo harness.h harness.c ch0.cu
    else echo "ch$1.cu"; fi
}

nw_upto() {    # the noweb files chapter $1's program is tangled from
    local c
    for c in $CHAPTERS; do [ "$c" -le "$1" ] && echo "chapters/ch$c.nw"
    done
}

test_tangle() {
    local n r bad="" expected="" got
    for n in $CHAPTERS; do
        for r in $(roots_of "$n"); do
            expected="$expected $r"
            if ! notangle -R"$r" $(nw_upto "$n") > "$tmp/$r" \
                    2> "$tmp/err" || [ -s "$tmp/err" ]; then
                bad="$bad $r: $(cat "$tmp/err")"
            elif ! cmp -s "$tmp/$r" "tangle/$r"; then
                bad="$bad tangle/$r is out of date (run make tangle)"
            fi
        done
    done
    [ -z "$bad" ] && ok "tangle/ is in sync with chapters/" \
        || fail "tangle/ is in sync with chapters/" "$bad"
    got=$(noroots chapters/ch*.nw | tr -d '<>' | sort | tr '\n' ' ')
    expected=$(echo $expected | tr ' ' '\n' | sort | tr '\n' ' ')
    [ "$got" = "$expected" ] \
        && ok "every chunk is used; the only roots are the programs" \
        || fail "every chunk is used; the only roots are the programs" \
                "roots: $got"$'\n'"expected: $expected"
    ls tangle | sort > "$tmp/have"
    echo $expected | tr ' ' '\n' | sort > "$tmp/want"
    cmp -s "$tmp/have" "$tmp/want" && ok "tangle/ holds no stray file" \
        || fail "tangle/ holds no stray file" "$(diff "$tmp/want" \
                                                      "$tmp/have")"
}

test_compile() {
    local n w
    for n in $CHAPTERS; do
        [ -x "ch$n" ] && ok "ch$n compiles" || fail "ch$n compiles"
        w=$(grep -v -e '^ptxas info' -e 'bytes stack frame' \
                "build/ch$n.log" 2>/dev/null)
        [ -z "$w" ] && ok "ch$n: no compiler warnings" \
            || fail "ch$n: no compiler warnings" "$w"
        if awk -F, 'NR > 1 && ($5 + $6 > 0 || $4 > 0) { bad = 1 }
                    END { exit bad || NR < 2 }' "build/ptxas-ch$n.csv"
        then ok "ch$n: ptxas reports no spills and no stack"
        else fail "ch$n: ptxas reports no spills and no stack" \
                  "$(cat "build/ptxas-ch$n.csv")"; fi
    done
    [ ! -s build/harness.log ] \
        && ok "harness.c: no warnings at -Wall -Wextra" \
        || fail "harness.c: no warnings at -Wall -Wextra" \
                "$(cat build/harness.log)"
}

# The machine code shows what a chapter claims about it.
SASS_EXPECT="3:smem:lds128 6:float4:lds128 6:float4:ldge128
             6:float4:stge128 6:float4:sts128"
test_sass() {
    book/tools/more-keys "" build > "$tmp/sass.keys"
    local e n kn op
    for e in $SASS_EXPECT; do
        IFS=: read -r n kn op <<< "$e"
        if grep -q "^ch$n\.$kn\.sass\.$op	[1-9]" "$tmp/sass.keys"; then
            ok "ch$n: sgemm_$kn's machine code has $op"
        else fail "ch$n: sgemm_$kn's machine code has $op"; fi
    done
}

test_unit() {
    if tests/unit > "$tmp/unit" 2>&1; then
        ok "harness unit tests ($(tail -1 "$tmp/unit"))"
    else fail "harness unit tests" "$(grep -v '^ok' "$tmp/unit")"; fi
}

# Bad input gets one clear line on stderr and exit code 2, before any
# GPU is touched, so this runs anywhere.
BAD_ARGS=("--size abc" "--size 0" "--size -3" "--size 12x" "-m 10"
          "--frobnicate" "--reps 0" "--alpha nan" "--size 5000000"
          "-m 50000 -n 50000 -k 50000" "--kernel nosuch" "--seed"
          "--ceilings --size 4")
test_cli() {
    local n a rc lines
    for n in $CHAPTERS; do
        local bad=""
        for a in "${BAD_ARGS[@]}"; do
            [ "$n" = 0 ] && [ "$a" = "--ceilings --size 4" ] && continue
            ./ch$n $a > "$tmp/out" 2> "$tmp/err"
            rc=$?
            lines=$(wc -l < "$tmp/err")
            if [ $rc != 2 ] || [ "$lines" != 1 ] || [ -s "$tmp/out" ] \
               || ! grep -q "^ch$n: " "$tmp/err"; then
                bad="$bad"$'\n'"'$a': exit $rc, $(cat "$tmp/err")"
            fi
        done
        [ -z "$bad" ] && ok "ch$n: bad input gives one line and exit 2" \
            || fail "ch$n: bad input gives one line and exit 2" "$bad"
        ./ch$n --help > "$tmp/out" 2>&1 && grep -q -- --size "$tmp/out" \
            && ok "ch$n: --help" || fail "ch$n: --help"
    done
}

test_no_gpu() {
    local rc
    ./ch1 --size 64 > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ $rc = 3 ] && grep -q "^ch1: no CUDA GPU is available" "$tmp/err"
    then ok "without a GPU: a clear message and exit 3"
    else fail "without a GPU: a clear message and exit 3" \
              "exit $rc: $(cat "$tmp/err")"; fi
}

# Every chapter has real measurements at every standard size, all
# verified, and measured on the code that is in tangle/ now.
test_results() {
    local n f hash bad
    if [ -z "$RESULTS" ] || [ ! -d "$RESULTS" ]; then
        fail "measured results exist" "no results/<gpu>/ directory"
        return
    fi
    for n in $CHAPTERS; do
        f=$RESULTS/ch$n.csv
        [ -f "$f" ] || { fail "ch$n: results exist" "$f missing"; continue; }
        hash=$(book/tools/codehash "$n")
        bad=$(awk -F, -v sizes="$SIZES" -v hash="$hash" '
            NR == 1 { next }
            { seen[$2 " " $3 "x" $4 "x" $5] = 1; kern[$2] = 1
              if ($15 != "ok") print "row " NR ": check " $15
              if ($19 !~ /^([0-9]+\.|cuda-)/)
                  print "row " NR ": driver version \"" $19 "\""
              if ($23 != hash) print "row " NR ": stale (code hash " \
                  $23 ", code is " hash ")" }
            END { n = split(sizes, s, " ")
                  for (k in kern) { if (k == "cpu") continue
                      for (i = 1; i <= n; i++)
                          if (!((k " " s[i] "x" s[i] "x" s[i]) in seen))
                              print k ": no row for size " s[i] }
                  if (NR < 2) print "no rows" }' "$f")
        [ -z "$bad" ] && ok "ch$n: results complete, verified and fresh" \
            || fail "ch$n: results complete, verified and fresh" "$bad"
        if [ "$n" != 0 ]; then
            [ -s "$RESULTS/ncu-ch$n.csv" ] \
                && ok "ch$n: profiler counters kept" \
                || fail "ch$n: profiler counters kept" "no ncu-ch$n.csv"
        fi
    done
    f=$RESULTS/ceilings.csv
    if [ -f "$f" ] && [ "$(awk -F, 'NR == 2 { print $15 }' "$f")" \
                          = "$(book/tools/codehash 0)" ]; then
        ok "ceilings measured with the current harness"
    else fail "ceilings measured with the current harness"; fi
}

test_book() {
    local f
    for f in build/book.pdf build/book.html; do
        [ -s "$f" ] && ok "$f built" || fail "$f built"
    done
    [ -s build/book.pdf ] || return
    pdftotext build/book.pdf "$tmp/book.txt"
    if grep -n -e '??' -e 'TODO' "$tmp/book.txt" > "$tmp/ph"; then
        fail "the PDF has no placeholder" "$(head "$tmp/ph")"
    else ok "the PDF has no placeholder"; fi
    if grep -n -e '??' -e 'TODO' -e '\\R{' build/book.html > "$tmp/ph"
    then fail "the HTML has no placeholder" "$(head -c 600 "$tmp/ph")"
    else ok "the HTML has no placeholder"; fi
    if grep -E -i 'undefined|Rerun to get' build/tex/book.log > "$tmp/ph"
    then fail "the LaTeX log has no undefined reference" "$(cat "$tmp/ph")"
    else ok "the LaTeX log has no undefined reference"; fi
    if grep -q 'Overfull \\hbox' build/tex/book.log; then
        fail "no line, of code or prose, runs into the margin" \
             "$(grep -A1 'Overfull \\hbox' build/tex/book.log | head)"
    else ok "no line, of code or prose, runs into the margin"; fi
    for n in $CHAPTERS; do
        grep -q "$(awk -F, -v k=4096 'NR > 1 && $3 == k { v = $9 }
                   END { printf "%.3g", v }' "$RESULTS/ch$n.csv" \
                   2>/dev/null)" "$tmp/book.txt" \
            && ok "ch$n: the PDF quotes its measured 4096 rate" \
            || fail "ch$n: the PDF quotes its measured 4096 rate"
    done
}

test_readme() {
    book/tools/splice-readme --check "$RESULTS" $(for n in $CHAPTERS; do echo chapters/ch$n.nw; done) \
        > "$tmp/readme" 2>&1 \
        && ok "README's results table matches results/" \
        || fail "README's results table matches results/" \
                "$(cat "$tmp/readme")"
}

cpu_tests() {
    test_tangle
    test_compile
    test_sass
    test_unit
    test_cli
    have_gpu || test_no_gpu
    test_results
    test_book
    test_readme
}
