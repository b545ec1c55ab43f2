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
    # (and in a panel of TF32 or BF16 inputs, cuBLAS in that precision)
    local libs panels
    libs=$(grep -c '^\\addlegendentry{cuBLAS, ' "$f")
    panels=$(grep -c 'title={\(TF32\|BF16\) inputs}' "$f")
    [ "$(( $(grep -c '^\\addplot' "$f") - libs ))" = "$lines" ] && [ "$libs" = "$panels" ] \
        && ok "the progress chart has a line per measured chapter ($lines), a panel per precision, each with its cuBLAS" \
        || fail "the progress chart has a line per measured chapter ($lines), a panel per precision, each with its cuBLAS" \
                "$(grep -c '^\\addplot' "$f") lines, $libs cuBLAS lines of reduced precision in $panels panels"
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

# Every chart keeps its data inside its axes: each point of an \addplot
# and each label placed at (axis cs:x,y) lies within the axis's xmin..xmax
# and ymin..ymax where the chart sets them (a chart drawn with clip=false
# would draw it over the labels and the margin).  The check finds a
# planted point outside.
test_chart_bounds() {
    local out
    out=$(python3 - build/res/*-plot.tex <<'PY' 2>&1
import re, sys
def options(t, i):
    """the text of the [...] that starts at t[i], braces nested"""
    depth = 0
    for j in range(i, len(t)):
        if t[j] == '{': depth += 1
        elif t[j] == '}': depth -= 1
        elif t[j] == ']' and depth == 0: return t[i + 1:j]
    return ''
def outside(t):
    bad = []
    for m in re.finditer(r'\\begin\{axis\}\[', t):
        opts = options(t, m.end() - 1)
        lim = {k: float(v) for k, v in re.findall(r'\b([xy](?:min|max))=(-?[0-9.eE+-]+)', opts)}
        body = t[m.end():t.find('\\end{axis}', m.end())]
        pts = []
        for c in re.findall(r'coordinates\s*\{([^}]*)\}', body):
            pts += re.findall(r'\(\s*([-0-9.eE+]+)\s*,\s*([-0-9.eE+]+)\s*\)', c)
        pts += re.findall(r'axis cs:\s*([-0-9.eE+]+)\s*,\s*([-0-9.eE+]+)', body)
        for x, y in pts:
            x, y = float(x), float(y)
            for v, a in ((x, 'x'), (y, 'y')):
                lo, hi = lim.get(a + 'min'), lim.get(a + 'max')
                if (lo is not None and v < lo - 1e-9 * abs(lo)) or \
                        (hi is not None and v > hi + 1e-9 * abs(hi)):
                    bad.append('(%g,%g) outside %s %s..%s' % (x, y, a, lo, hi))
    return bad
files = sys.argv[1:]
if not files:
    print('no charts in build/res')
for f in files:
    for b in outside(open(f).read())[:3]:
        print('%s: %s' % (f, b))
plant = '\\begin{axis}[xmin=0, xmax=10, ymin=0, ymax={5}]\n\\addplot coordinates {(1,2) (11,3)};\n\\end{axis}'
if not outside(plant):
    print('the check missed a point planted outside its axis')
PY
)
    [ -z "$out" ] && ok "every chart keeps its points and labels inside its axes (a planted one outside is found)" \
        || fail "every chart keeps its points and labels inside its axes (a planted one outside is found)" "$out"
}

# No label of a figure lies over another: the boxes of the words that
# pdftotext finds on each figure's page overlap by no more than a fifth
# of the smaller (a dot of a drawn ellipsis apart); a planted pair of
# words one over the other is found.
test_labels_apart() {
    local out
    out=$(python3 - build/fig/*.pdf <<'PY' 2>&1
import re, subprocess, sys
def words(pdf):
    t = subprocess.run(['pdftotext', '-bbox', '-f', '1', '-l', '1', pdf, '-'],
                       capture_output=True, text=True).stdout
    return [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in re.findall(
        r'<word xMin="([-0-9.]+)" yMin="([-0-9.]+)" xMax="([-0-9.]+)" yMax="([-0-9.]+)">(.*?)</word>', t)]
def over(ws):
    ws = [w for w in ws if re.search(r'[A-Za-z0-9]', w[4])]
    bad = []
    for i in range(len(ws)):
        for b in ws[i + 1:]:
            a = ws[i]
            ox, oy = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
            small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
            if ox > 0 and oy > 0 and ox * oy > 0.2 * small:
                bad.append('"%s" over "%s"' % (a[4], b[4]))
    return bad
files = sys.argv[1:]
if not files or not files[0].endswith('.pdf'):
    print('no figures in build/fig')
for f in files:
    for b in over(words(f))[:3]:
        print('%s: %s' % (f, b))
if not over([(0, 0, 10, 5, 'label'), (2, 1, 12, 6, 'other')]):
    print('the check missed two labels planted one over the other')
PY
)
    [ -z "$out" ] && ok "no figure's label lies over another (a planted pair is found)" \
        || fail "no figure's label lies over another (a planted pair is found)" "$out"
}

figure_tests() {
    want book && test_page_white
    want book && test_charts
    want book && test_svg_size
    want book && test_chart_bounds
    want book && test_labels_apart
}
