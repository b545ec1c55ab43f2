# The tests that need a GPU: every kernel verified at awkward shapes, and
# compute-sanitizer memcheck clean.  Sourced by tests/run.

# Shapes: 1x1x1, sizes that are not multiples of any tile (primes,
# tile+1), long thin and short wide ones, K much larger than M and N.
GPU_SHAPES="1x1x1 1x1x300 2x3x4 31x33x17 33x31x65 127x129x1
            257x255x513 1000x3x70 3x1000x70 129x127x1031 513x67x2
            127x131x67 256x256x256 130x259x131"

verify_shape() {   # chapter MxNxK extra-options
    local n=$1 m k nn
    IFS=x read -r m nn k <<< "$2"
    shift 2
    ./ch$n -m "$m" -n "$nn" -k "$k" --reps 5 "$@"
}

gpu_tests() {
    for n in $CHAPTERS; do
        [ -x ./ch$n ] || { fail "ch$n: the program exists"; continue; }
        local bad=""
        for s in $GPU_SHAPES; do
            verify_shape "$n" "$s" > "$tmp/out" 2>&1 \
                || bad="$bad $s"
            verify_shape "$n" "$s" --pad 3 --alpha -1.5 --beta 0.5 \
                > "$tmp/out" 2>&1 || bad="$bad $s(pad 3,beta)"
            verify_shape "$n" "$s" --pad 1 --beta -1 \
                > "$tmp/out" 2>&1 || bad="$bad $s(pad 1,beta)"
        done
        if [ -z "$bad" ]; then ok "ch$n: verified at every test shape"
        else fail "ch$n: verified at every test shape" "failed:$bad"; fi
        check "ch$n: verified at 1024 and 4096 (cuBLAS reference)" \
            ./ch$n --size 1024,4096 --reps 3
        if command -v compute-sanitizer >/dev/null; then
            compute-sanitizer --tool memcheck --error-exitcode 9 \
                ./ch$n -m 67 -n 45 -k 33 --reps 1 > "$tmp/san" 2>&1
            if [ $? = 0 ] && grep -q "ERROR SUMMARY: 0 errors" "$tmp/san"
            then ok "ch$n: compute-sanitizer memcheck clean"
            else fail "ch$n: compute-sanitizer memcheck clean" \
                      "$(tail -5 "$tmp/san")"; fi
        fi
    done
}
