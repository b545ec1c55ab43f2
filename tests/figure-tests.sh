# Tests of the book's layout and charts (sourced by tests/run, after the
# build): pages, the generated charts, the figures of the HTML book.

# No page inside a chapter is a third or more white (book/tools/pagewhite):
# long code chunks break across pages, floats do not leave holes.
test_page_white() {
    [ -s build/book.pdf ] || { fail "no page inside a chapter is a third white" "no PDF"; return; }
    book/tools/pagewhite build/book.pdf > "$tmp/white" 2>&1
    if grep -q ' 0 of them inside a chapter$' "$tmp/white"; then
        ok "no page inside a chapter is a third white ($(tail -1 "$tmp/white"))"
    else fail "no page inside a chapter is a third white" "$(grep -e inside -e pages "$tmp/white")"; fi
}

# The progress chart: every size measured, a y axis labelled 1, 2, 5, 10,
# one line per chapter with measurements; the roofline: no legend, a
# label for every point.
test_charts() {
    local f=build/res/progress-plot.tex r=build/res/roofline-plot.tex s n bad="" lines=0 head
    [ -s "$f" ] && [ -s "$r" ] || { fail "the charts are generated" "no $f or $r"; return; }
    for s in $SIZES; do
        grep -q "xticklabels={\([0-9]*,\)*$s[,}]" "$f" || bad="$bad $s"
    done
    [ -z "$bad" ] && ok "the progress chart plots every size measured" \
        || fail "the progress chart plots every size measured" "missing:$bad"
    grep -q 'yticklabels={[0-9.,]*1,2,5,10' "$f" \
        && ok "the progress chart labels its log axis 1, 2, 5, 10" \
        || fail "the progress chart labels its log axis 1, 2, 5, 10" "$(grep ytick "$f")"
    for n in $CHAPTERS; do
        [ -n "$(man "$n" headline)" ] && [ -f "$RESULTS/ch$n.csv" ] && lines=$((lines + 1))
    done
    [ "$(grep -c '^\\addplot' "$f")" = "$lines" ] \
        && ok "the progress chart has a line per measured chapter ($lines)" \
        || fail "the progress chart has a line per measured chapter" \
                "$lines chapters, $(grep -c '^\\addplot' "$f") lines"
    bad=""
    grep -q addlegendentry "$r" && bad="it has a legend;"
    for n in $CHAPTERS; do
        head=$(man "$n" headline)
        # a chapter whose headline was profiled (a headline that is not one
        # kernel, such as a whole job with its copies, has no point)
        [ -n "$head" ] && grep -q "^\"$head\"," "$RESULTS/ncu-ch$n.csv" 2>/dev/null || continue
        grep -qF -- "{ch$n ${head//_/\\_}}" "$r" || bad="$bad no label for ch$n;"
    done
    [ -z "$bad" ] && ok "the roofline labels its points, with no legend" \
        || fail "the roofline labels its points, with no legend" "$bad"
}

# The HTML book shows each figure at 1.55 times its printed size
# (book/tools/svgscale): its 5 pt labels at 10 px.
test_svg_size() {
    local f pdfw svgw bad=""
    for f in build/fig/*.svg; do
        pdfw=$(pdfinfo "${f%.svg}.pdf" | awk '/^Page size/ { print $3 }')
        svgw=$(head -c 600 "$f" | sed -n 's/.*<svg[^>]* width="\([0-9.]*\)pt".*/\1/p')
        awk -v p="$pdfw" -v s="$svgw" 'BEGIN { exit !(s >= 1.5 * p && s <= 552) }' \
            || bad="$bad $(basename "$f"): $svgw pt for $pdfw pt;"
    done
    [ -z "$bad" ] && ok "HTML figures: 5 pt labels at 10 px, within the text column" \
        || fail "HTML figures: 5 pt labels at 10 px, within the text column" "$bad"
}

figure_tests() {
    want book && test_page_white
    want book && test_charts
    want book && test_svg_size
}
