# A chapter is one file: tests/fixture/ch99.nw, a chapter that is not part
# of the book (a templated kernel at two tile shapes, a TF32 and a BF16
# kernel, a setup step, an sm_90a target), dropped into a scratch copy of
# the sources, must show up in make, make bench, the README table and
# the tests with no other file touched.  Its tangled files are committed
# in tests/fixture/tangle/ so that a GPU machine without noweb can build
# it.  Sourced by tests/run.

# The fixture chapter is Hopper's (sm_90a): its copy is built for sm_90
# whatever ARCH the tests run under (make ARCH=sm_80 test passes ARCH on
# to every make below it through MAKEFLAGS).
fx_env() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ARCH=sm_90 "$@"; }
fx_make() { fx_env make "$@"; }

FIXTURE=99

fixture_copy() {   # a scratch copy of the sources with the fixture in it
    local dir=$tmp/fixture
    rm -rf "$dir"; mkdir -p "$dir"
    if git rev-parse --git-dir > /dev/null 2>&1; then
        git ls-files -co --exclude-standard | grep -v '^build/' \
            | tar -cf - -T - | tar -xf - -C "$dir"
        # and what the build compiled (newer than its sources, times
        # kept), so that the copy compiles the fixture alone
        ls -d build/*.o build/*.flags build/*.log build/*.src build/src build/stamp build/*.codehash \
              build/ptxas-*.csv build/sass-*.csv build/kernels-*.tsv \
              build/cuda-tools $(ls | grep -x 'ch[0-9][0-9a-z]*') 2> /dev/null \
            | tar -cf - -T - | tar -xf - -C "$dir"
    else   # a copy without git (a GPU machine): all but what is built
        tar --exclude=./build --exclude='./ch[0-9]*' --exclude=./tests/unit --exclude=./tests/plans --exclude=./tests/libcheck --exclude=./tests/libcheck-so --exclude=./tests/libverify --exclude=./examples/gemm \
            --exclude=./results -cf - . 2> /dev/null | tar -xf - -C "$dir"
    fi
    cp tests/fixture/ch$FIXTURE.nw "$dir/chapters/"
    cp tests/fixture/tangle/* "$dir/tangle/"
    echo "$dir"
}

fixture_cpu_tests() {
    local r bad="" dir out
    for r in ch$FIXTURE.cu ch$FIXTURE.mk; do
        notangle -R"$r" chapters/ch*.nw tests/fixture/ch$FIXTURE.nw \
            > "$tmp/$r" 2> "$tmp/err" && [ ! -s "$tmp/err" ] \
            && cmp -s "$tmp/$r" "tests/fixture/tangle/$r" \
            || bad="$bad tests/fixture/tangle/$r"
    done
    [ -z "$bad" ] && ok "fixture: its committed tangle is in sync" \
        || fail "fixture: its committed tangle is in sync" "out of date:$bad"
    dir=$(fixture_copy)
    # An ARCH that cannot run it: skipped by name, not built.
    out=$(cd "$dir" && fx_make ARCH=sm_80 ch$FIXTURE 2>&1)
    if grep -q "skipping chapter $FIXTURE (ch$FIXTURE): it needs a GPU of sm_90a, ARCH is sm_80" <<< "$out" \
       && [ ! -e "$dir/ch$FIXTURE" ]; then
        ok "fixture: make ARCH=sm_80 skips it by name"
    else fail "fixture: make ARCH=sm_80 skips it by name" "$out"; fi
    # Built for sm_90a, with one ptxas row and one SASS summary per instance.
    if (cd "$dir" && fx_make -j2 ch$FIXTURE build/ptxas-ch$FIXTURE.csv \
            build/sass-ch$FIXTURE.csv readme > "$tmp/fx.log" 2>&1) \
       && [ -x "$dir/ch$FIXTURE" ] && grep -q -- '-gencode=arch=compute_90a,code=sm_90a' "$dir/build/ch$FIXTURE.flags"
    then ok "fixture: make builds it, for sm_90a"
    else fail "fixture: make builds it, for sm_90a" "$(grep -v ^ptxas "$tmp/fx.log" | tail)"; fi
    out=$(cut -d, -f1 "$dir/build/ptxas-ch$FIXTURE.csv" 2>/dev/null | sort | tr '\n' ' ')
    [ "$out" = "bf16 kernel tf32 tile32 tile64 " ] \
        && ok "fixture: one ptxas row per kernel and template instance" \
        || fail "fixture: one ptxas row per kernel and template instance" "$out"
    out=$(awk -F, 'NR > 1 { print $1 }' "$dir/build/sass-ch$FIXTURE.csv" 2>/dev/null | sort -u | tr '\n' ' ')
    [ "$out" = "bf16 tf32 tile32 tile64 " ] \
        && ok "fixture: one SASS summary per kernel and template instance" \
        || fail "fixture: one SASS summary per kernel and template instance" "$out"
    grep -q "^| $FIXTURE | A fixture chapter | \`tile64\` |" "$dir/README.md" \
        && ok "fixture: a row in the README table" \
        || fail "fixture: a row in the README table" "$(grep "^| $FIXTURE" "$dir/README.md")"
    # make bench takes it from its manifest (here, with no GPU, to say
    # that it cannot run it).
    if ! have_gpu; then
        out=$(cd "$dir" && fx_make bench BENCH_CHAPTERS=$FIXTURE 2>&1)
        grep -q "bench: skipping ch$FIXTURE: no CUDA GPU" <<< "$out" \
            && ok "fixture: make bench names it" \
            || fail "fixture: make bench names it" "$out"
    fi
    # The tests take it from its manifest too: the fixture alone (the
    # book's own chapters are tested by this run).
    (cd "$dir" && fx_env CHAPTERS=$FIXTURE \
        TESTS="manifests compile sass cli" \
        TEST_TARGETS="ch$FIXTURE build/ptxas-ch$FIXTURE.csv build/sass-ch$FIXTURE.csv build/manifest.tsv" \
        tests/run > "$tmp/fx.tests" 2>&1)
    if grep -q "^ok - ch$FIXTURE: tile64's machine code has FFMA" "$tmp/fx.tests" \
       && grep -q "^ok - ch$FIXTURE: bad input" "$tmp/fx.tests" \
       && grep -q "^ok - ch$FIXTURE: ptxas reports every kernel" "$tmp/fx.tests" \
       && grep -q "^ok - ch$FIXTURE: its manifest is complete" "$tmp/fx.tests" \
       && tail -1 "$tmp/fx.tests" | grep -q ' 0 failed$'; then
        ok "fixture: the tests check it ($(tail -1 "$tmp/fx.tests"))"
    else fail "fixture: the tests check it" "$(grep -v '^ok' "$tmp/fx.tests")"; fi
}

fixture_gpu_tests() {
    local dir out gpu csv
    dir=$(fixture_copy)
    (cd "$dir" && fx_make -s -j8 NO_TANGLE=1 programs > /dev/null 2>&1)
    if ! (cd "$dir" && ./ch$FIXTURE -m 1 -n 1 -k 1 --no-check --reps 1 > /dev/null 2>&1); then
        skip "fixture: this GPU cannot run sm_90a code"; return
    fi
    # make bench measures it: every kernel beside its own cuBLAS baseline.
    out=$(cd "$dir" && rm -rf results && BENCH_RUNS=2 fx_make NO_TANGLE=1 bench \
          BENCH_CHAPTERS=$FIXTURE BENCH_SIZES=256,1111 2>&1)
    csv=$(ls "$dir"/results/*/ch$FIXTURE.csv 2>/dev/null | head -1)
    if [ -n "$csv" ] && book/tools/csvq '
        csv_row() { next }
        { n++; b[F("kernel")] = F("precision") "/" F("baseline") "/" F("check")
          if (!isnum(F("setup_ms"))) bad = 1
          runs[F("run")]++ }
        END { exit !(n == 16 && runs[1] == 8 && runs[2] == 8 && !bad && b["tile64"] == "fp32/cublas/ok" \
                     && b["tf32"] == "tf32/cublas_tf32/ok" \
                     && b["bf16"] == "bf16/cublas_bf16/ok") }' "$csv"
    then ok "fixture: make bench measures each kernel beside its own baseline, in two runs"
    else fail "fixture: make bench measures each kernel beside its own baseline, in two runs" \
              "$out"$'\n'"$(cat "$csv" 2>/dev/null)"; fi
    # A TF32 and a BF16 result: their error is that of their precision,
    # above FP32's bound and within their own; a planted wrong element fails.
    for kn in tf32 bf16 tile64; do
        out=$(cd "$dir" && ./ch$FIXTURE -m 200 -n 100 -k 256 --kernel $kn --csv 2>&1)
        if book/tools/csvq -v kn=$kn '
            csv_row() { next }
            { e = F("error"); ok = F("check") == "ok" }
            END { exit !(ok && (kn == "tile64" ? e < 1e-5 : e > 1e-5 && e < 0.01)) }' <<< "$out"
        then ok "fixture: $kn passes with the error of its precision"
        else fail "fixture: $kn passes with the error of its precision" "$out"; fi
        out=$(cd "$dir" && FIXTURE_PLANT=1 ./ch$FIXTURE -m 200 -n 100 -k 256 --kernel $kn 2>&1)
        if [ $? = 1 ] && grep -q "ch$FIXTURE: $kn at 200x100x256: WRONG" <<< "$out"; then
            ok "fixture: a planted wrong element fails $kn"
        else fail "fixture: a planted wrong element fails $kn" "$out"; fi
    done
    # and the GPU tests take it from its manifest
    (cd "$dir" && CHAPTERS=$FIXTURE TESTS=gpu tests/run --gpu > "$tmp/fx.gpu" 2>&1)
    if grep -q "^ok - ch$FIXTURE: verified at every test shape" "$tmp/fx.gpu" \
       && tail -1 "$tmp/fx.gpu" | grep -q ' 0 failed$'; then
        ok "fixture: the GPU tests check it ($(tail -1 "$tmp/fx.gpu"))"
    else fail "fixture: the GPU tests check it" "$(grep -v '^ok' "$tmp/fx.gpu")"; fi
}
