"""Facts of the compiled code: excerpts of a kernel's machine code.

excerpts(sass_txts, functions): for each __global__ function (as C++
spells it: sgemm_float4, sgemm_warp<128, 64>) a few lines of its SASS as
a LaTeX verbatim block, for \\sassexcerpt in the book: from the first
barrier (or, in a kernel without one, from shortly before the first
FFMA) to a few lines past the first FFMA; None for a function without
an FFMA.  sass_txts are the cuobjdump listings of the objects a program
links, in its link order (build/sass-obj-O.txt); each is read once a
run however many programs link it, its names demangled by c++filt in
one call.
"""
import re
import shutil
import subprocess

_INST = re.compile(r'^[ \t]+/\*[0-9a-f]+\*/')


def strip_params(f):
    """A demangled name without its parameter list and void."""
    d = 0
    for i, c in enumerate(f):
        if c == '<':
            d += 1
        elif c == '>':
            d -= 1
        elif c == '(' and d == 0:
            f = f[:i]
            break
    return f[5:] if f.startswith('void ') else f


def demangle(names):
    """{mangled: function as C++ spells it} (c++filt, one call)."""
    if not names:
        return {}
    if not shutil.which('c++filt'):
        raise RuntimeError('c++filt (binutils) is missing')
    r = subprocess.run(['c++filt'], input='\n'.join(names) + '\n',
                       capture_output=True, text=True, check=True)
    return {m: strip_params(d) for m, d in
            zip(names, r.stdout.split('\n'))}


def _norm(line):
    """An instruction line as the excerpt shows it."""
    s = line.lstrip(' \t')
    s = _ENC.sub('', s)
    s = _BLANKS.sub(' ', s)
    return s[:-2] + ';' if s.endswith(' ;') else s


_ENC = re.compile(r'[ \t]*/\* 0x[0-9a-f]+ \*/[ \t]*$')
_BLANKS = re.compile(r'[ \t]+')


def _functions(lines):
    """[(mangled name, first line, end line)] of the listing's functions,
    in its order."""
    starts = [(i, lines[i].split()[-1]) for i in
              (i for i, line in enumerate(lines) if 'Function :' in line)]
    ends = [i for i, _ in starts[1:]] + [len(lines)]
    return [(m, i + 1, e) for (i, m), e in zip(starts, ends)]


def _excerpt(instructions):
    """The excerpt of a function's instructions (an iterable of
    normalized lines, read only as far as the excerpt needs)."""
    code, bar, ffma = [], 0, 0
    for line in instructions:
        code.append(line)
        if not bar and 'BAR.SYNC' in line:
            bar = len(code)
        if not ffma and ' FFMA ' in line:
            ffma = len(code)
        if ffma and len(code) >= ffma + 3:
            break
    if not ffma:
        return None
    frm = bar if bar and bar < ffma else ffma - 4
    frm = max(frm, 1)
    to = ffma + 3
    if to - frm > 19:
        frm = to - 19
    body = ['  ' + code[i - 1] for i in range(frm, min(to, len(code)) + 1)]
    return '\n'.join(['\\begin{verbatim}'] + body + ['\\end{verbatim}']) + '\n'


_LISTINGS = {}   # path -> (lines, {function: [(first, end)]}), read once a run


def _listing(path):
    if path not in _LISTINGS:
        with open(path, encoding='utf-8', errors='replace') as f:
            lines = f.read().split('\n')
        code = _functions(lines)
        fun = demangle(sorted({m for m, _, _ in code}))
        by_name = {}        # function as C++ spells it, blanks dropped
        for m, a, e in code:
            by_name.setdefault(fun.get(m, '').replace(' ', ''), []).append((a, e))
        _LISTINGS[path] = (lines, by_name)
    return _LISTINGS[path]


def excerpts(sass_txts, functions):
    listings = [_listing(t) for t in sass_txts]
    out = {}
    for fn in functions:
        # every function of that name, in the listings' order
        key = fn.replace(' ', '')
        out[fn] = _excerpt(_norm(lines[i])
                           for lines, by_name in listings
                           for a, e in by_name.get(key, [])
                           for i in range(a, e) if _INST.match(lines[i]))
    return out
