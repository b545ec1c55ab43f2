# ptxas.awk: turn the ptxas -v report in build/chN.log into CSV, one row
# per kernel: its name (demangled from _Z<len><name>...), registers,
# static shared memory, stack frame and spills.
BEGIN { print "function,registers,smem_bytes,stack_bytes," \
              "spill_stores,spill_loads" }
function demangle(s,    len) {
    if (s !~ /^_Z[0-9]/) return s
    s = substr(s, 3)
    len = s + 0
    return substr(s, length(len "") + 1, len)
}
/Compiling entry function/ {
    if (fn != "") emit()
    match($0, /'[^']*'/)
    fn = demangle(substr($0, RSTART + 1, RLENGTH - 2))
    regs = smem = stack = sst = sld = 0
}
/bytes stack frame/ {
    stack = $1; sst = $5; sld = $9
}
/Used [0-9]+ registers/ {
    for (i = 1; i <= NF; i++) {
        if ($i ~ /^registers/) regs = $(i - 1)
        if ($i ~ /^smem/) smem = $(i - 2)
    }
}
function emit() {
    print fn "," regs "," smem "," stack "," sst "," sld
}
END { if (fn != "") emit() }
