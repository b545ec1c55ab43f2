# chart.awk -- what the book's generated charts share (gawk -f, with
# book/tools/results and book/tools/roofline): one look per chapter, the
# same in every chart.  Chapter N >= 1 gets colour N-1 of 7 and mark N-1
# of 13, so no pair of colour and mark repeats before chapter 92; odd
# chapters have open marks, drawn larger than the filled ones of even
# chapters, so that points and lines that coincide stay visible.
#   chart_colors()       \definecolor lines for the colours chN uses
#   chart_color(ch)      the colour's name
#   chart_mark(ch)       "mark=..., mark size=..., mark options={solid}"
#   chart_open(ch)       1 if its mark is open (its line is dashed)
#   chart_ticks(lo, hi)  "1,2,5,10,20,50": the 1-2-5 values around lo..hi
function chart_init() {
    if (CHART_NC) return
    CHART_NC = split("0072B2 E69F00 009E73 D55E00 56B4E9 CC79A7 8C6D1F", CHART_COL, " ")
    CHART_NM = split("square* o triangle* diamond pentagon* square *" \
                     " triangle diamond* pentagon x + asterisk", CHART_MK, " ")
}
function chart_index(ch) { ch += 0; return ch >= 1 ? ch - 1 : 0 }
function chart_colors(  i, s) {
    chart_init()
    for (i = 0; i < CHART_NC; i++)
        s = s sprintf("\\definecolor{chartc%d}{HTML}{%s}\n", i, CHART_COL[i + 1])
    return s
}
function chart_color(ch) { chart_init(); return "chartc" (chart_index(ch) % CHART_NC) }
function chart_open(ch,  m) {
    chart_init(); m = CHART_MK[chart_index(ch) % CHART_NM + 1]
    return m !~ /\*$/
}
function chart_mark(ch,  m) {
    chart_init(); m = CHART_MK[chart_index(ch) % CHART_NM + 1]
    return sprintf("mark=%s, mark size=%s, mark options={solid}", m,
                   chart_open(ch) ? "3.4pt" : "1.6pt")
}
function chart_floor(x,  f) { f = int(x); return f > x ? f - 1 : f }
function chart_ticks(lo, hi,  e, d, v, s) {
    for (e = chart_floor(log(lo) / log(10)); e <= chart_floor(log(hi) / log(10)) + 1; e++)
        for (d = 1; d <= 3; d++) {
            v = (d == 1 ? 1 : d == 2 ? 2 : 5) * 10 ^ e
            if (v < lo / 2.5 || v > hi * 2.5) continue
            s = s (s == "" ? "" : ",") sprintf("%g", v)
        }
    return s
}
