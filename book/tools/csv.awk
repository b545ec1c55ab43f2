# csv.awk: CSV files read by column name for the shell's awk programs
# (book/tools/csvq), as book/bookdata/csvio.py reads them.  Call csv_row()
# on every line (1 on a header); F("name") is a field ("" if no column).

function csv_split(line, out,    n, v) {
    # quoted fields (Nsight Compute's) are taken apart by hand
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

function isnum(s) { return s ~ /^-?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$/ }
