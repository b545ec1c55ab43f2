# csv.awk: the one reader of the book's CSV files and the one number
# formatter, for every tool (gawk -f book/tools/csv.awk -f TOOL.awk ...).
#
# Reading: call csv_row() for every line.  A file's first line is its
# header; afterwards F("name") is the named field of the current row ("" if
# the file has no such column).  Quoted fields (Nsight Compute) are read as
# one field, without their quotes.
#
# Formatting: fmt(value, how), how = "sig3" (3 significant digits, never
# exponent notation), "pct" (a percentage: 0 decimals from 10 on, else 1),
# "err" (2.1e-06 -> $2.1\times10^{-6}$, LaTeX math), "int", "raw" or a
# printf format such as "%.1f".  A value that is not a number is returned
# as it is.

function csv_split(line, out,    n, v) {
    # split() makes fields that compare as numbers when they look like
    # numbers; fields taken apart by hand (quoted ones) are strings
    if (index(line, "\"") == 0) return split(line, out, ",")
    n = 0
    while (line != "" || n == 0) {
        if (substr(line, 1, 1) == "\"") {
            match(line, /^"[^"]*"/)
            v = substr(line, 2, RLENGTH - 2); line = substr(line, RLENGTH + 1)
        } else if (match(line, /^[^,]*/)) {
            v = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1)
        }
        out[++n] = v
        if (substr(line, 1, 1) != ",") break
        line = substr(line, 2)
        if (line == "") out[++n] = ""
    }
    return n
}

# Returns 1 on a header line, 0 on a data row.
function csv_row(    i, n) {
    delete CSV_FIELD
    n = csv_split($0, CSV_FIELD)
    if (FNR == 1) {
        for (i = 1; i <= n; i++) CSV_COL[FILENAME, CSV_FIELD[i]] = i
        return 1
    }
    return 0
}

function F(name) {
    return (FILENAME, name) in CSV_COL ? CSV_FIELD[CSV_COL[FILENAME, name]] : ""
}

function has_col(name) { return (FILENAME, name) in CSV_COL }

# The spread of a measurement: half the interquartile range of its timed
# runs, in % of their median (the tables' column +-).
function spread_pct(ms, q1, q3) { return 50 * (q3 - q1) / ms }

function isnum(s) { return s ~ /^-?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$/ }

function fmt_floor(x,  f) { f = int(x); return f > x ? f - 1 : f }

function fmt(v, how,    a, d, s, p, e10) {
    if (!isnum(v)) return v
    if (how == "raw") return v
    v += 0
    if (how == "int") return sprintf("%.0f", v)
    if (how == "pct") return sprintf((v >= 10 || v <= -10) ? "%.0f" : "%.1f", v)
    if (how == "err") {
        if (v == 0) return "$0$"
        s = sprintf("%.1e", v); split(s, p, "e")
        return sprintf("$%s\\times10^{%d}$", p[1], p[2] + 0)
    }
    if (how ~ /^%/) return sprintf(how, v)
    # sig3: 0.497 6.31 51.2 137 1230 (three significant digits: a
    # measured ratio of 8392 is "8390", not a false 8392)
    a = v < 0 ? -v : v
    if (a == 0) return "0"
    if (a >= 999.5) { e10 = 10 ^ (fmt_floor(log(a) / log(10)) - 2); return sprintf("%.0f", int(v / e10 + (v < 0 ? -0.5 : 0.5)) * e10) }
    if (a >= 99.95) return sprintf("%.0f", v)
    d = 2 - fmt_floor(log(a) / log(10))
    s = sprintf("%." d "f", v)
    if ((s < 0 ? -s : s) + 0 >= 10 ^ (3 - d) && d > 0) s = sprintf("%." (d - 1) "f", v)
    return s
}

# A GPU's name as a directory name: "NVIDIA H100 80GB HBM3" -> nvidia-h100-80gb-hbm3
function slug(s) {
    s = tolower(s); gsub(/[^a-z0-9]+/, "-", s); sub(/^-/, "", s); sub(/-$/, "", s)
    return s
}

# The manifest table written by make (build/manifest.tsv): MAN[n, field].
function read_manifest(file,    line, f) {
    while ((getline line < file) > 0) {
        split(line, f, "\t")
        MAN[f[1], f[2]] = f[3]
        if (f[2] == "programs") MAN_CHAPTERS = MAN_CHAPTERS " " f[1]
    }
    close(file)
}
