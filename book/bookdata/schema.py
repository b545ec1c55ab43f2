"""The columns of the results files, as the programs that write them
define them.

A program of the book prints a results file from one list of its
columns: a macro NAME_COLUMNS(X) in its tangled source, one line per
column, X(name, "format", value) followed by a comment that says what
the column holds (the harness's REPORT_COLUMNS for chN.csv and the
sweeps, suites and emulated runs; CEILING_COLUMNS for ceilings.csv; a
microbenchmark's own list for micro-chN.csv).  The header and every row
are printed from that list, and this module reads the same list, so the
writer and the readers cannot disagree about a column.

Columns are only ever added at the end of a list: a file measured before
a column existed has a header that is a prefix of the list, and a reader
gets "" for the columns it lacks.  answers-bench writes the rows of a
worked answer behind three columns of its own (ANSWER_PREFIX).  Files
that tools write (the profiler's, the machine code's, the sanitizers',
Triton's, and those of programs an answer adds) are named in
TOOL_FILES and not checked here.

lists(root): {list name: [Column]}; check_header(columns, name, lists)
says what is wrong with a header, or None; check_folder(dir, root) does
so for every CSV file of a results folder.
"""
import glob
import os
import re

from . import csvio, manifest

ANSWER_PREFIX = ['answer', 'use', 'options']
TOOL_FILES = re.compile(r'^(ncu|sass|triton|answers-ncu|answers-san|'
                        r'answers-micro|validation-shapes|tuning-shapes|clock)-')


class Column:
    def __init__(self, name, fmt, note, where):
        self.name, self.fmt, self.note, self.where = name, fmt, note, where

    def __repr__(self):
        return 'Column(%r)' % self.name


_START = re.compile(r'^\s*#define\s+([A-Z][A-Z0-9_]*)_COLUMNS\(X\)')
_ITEM = re.compile(r'^\s*X\(\s*([a-z][a-z0-9_]*)\s*,\s*"((?:[^"\\]|\\.)*)"\s*,'
                   r'.*?(?:/\*\s*(.*?)\s*\*/)?\s*\\?\s*$')


def parse(text, where=''):
    """{NAME: [Column]} of the NAME_COLUMNS(X) macros in C source text."""
    out = {}
    cur = None
    for line in text.split('\n'):
        m = _START.match(line)
        if m:
            cur = out.setdefault(m.group(1), [])
            if not line.rstrip().endswith('\\'):
                cur = None
            continue
        if cur is None:
            continue
        m = _ITEM.match(line)
        if not m:
            raise ValueError('%s: a line of a column list that is not '
                             'X(name, "format", value): %s'
                             % (where, line.strip()))
        cur.append(Column(m.group(1), m.group(2), m.group(3) or '', where))
        if not line.rstrip().endswith('\\'):
            cur = None
    return out


def lists(root=manifest.ROOT):
    """Every column list of tangle/*.c, *.cu and *.h."""
    out = {}
    for path in sorted(glob.glob(os.path.join(root, 'tangle', '*.c'))
                       + glob.glob(os.path.join(root, 'tangle', '*.cu'))
                       + glob.glob(os.path.join(root, 'tangle', '*.h'))):
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        if '_COLUMNS(X)' not in text:
            continue
        rel = os.path.relpath(path, root)
        for name, cols in parse(text, rel).items():
            if name in out:
                raise ValueError('two column lists named %s_COLUMNS: %s '
                                 'and %s' % (name, out[name][0].where, rel))
            out[name] = cols
    return out


def check_header(columns, fname, ls):
    """None when the header COLUMNS of file FNAME is a prefix of one of
    the lists LS (behind ANSWER_PREFIX for an answers-chN.csv); else
    what is wrong, in one line."""
    cols = list(columns)
    if fname.startswith('answers-'):
        if cols[:len(ANSWER_PREFIX)] != ANSWER_PREFIX:
            return 'an answer\'s file starts with %s' % ','.join(ANSWER_PREFIX)
        cols = cols[len(ANSWER_PREFIX):]
    if len(cols) < 2:
        return 'it has no header'
    best, best_name = -1, None
    for name, l in ls.items():
        names = [c.name for c in l]
        if cols == names[:len(cols)]:
            return None
        same = 0
        while same < min(len(cols), len(names)) and cols[same] == names[same]:
            same += 1
        if same > best:
            best, best_name = same, name
    if best_name is None:
        return 'no program in tangle/ defines the columns of a results file'
    names = [c.name for c in ls[best_name]]
    got = cols[best] if best < len(cols) else '(end)'
    want = names[best] if best < len(names) else '(end)'
    return ('its columns are not %s_COLUMNS\'s (%s): column %d is %s, '
            'not %s' % (best_name, ls[best_name][0].where, best + 1 +
                        (len(ANSWER_PREFIX) if fname.startswith('answers-')
                         else 0), got, want))


def check_folder(d, root=manifest.ROOT):
    """['FILE: what is wrong', ...] for the CSV files of folder d that
    programs of the book write."""
    ls = lists(root)
    bad = []
    for path in sorted(glob.glob(os.path.join(d, '*.csv'))):
        fname = os.path.basename(path)
        if TOOL_FILES.match(fname):
            continue
        why = check_header(csvio.read(path).columns, fname, ls)
        if why:
            bad.append('%s: %s' % (path, why))
        why = ragged(path)
        if why:
            bad.append('%s: %s' % (path, why))
    return bad


def ragged(path):
    """None when every row of a CSV file has as many fields as its
    header; else the first row that has not (a text field with an
    unquoted comma shifts every column after it)."""
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().split('\n')
    want = len(csvio.split(lines[0])) if lines else 0
    for i, line in enumerate(lines[1:], 2):
        if line and len(csvio.split(line)) != want:
            return 'row %d has %d fields, the header %d' % (
                i, len(csvio.split(line)), want)
    return None


def describe(root=manifest.ROOT):
    """The lists as text: for each, where it is and its columns with
    their notes (bookdata columns)."""
    out = []
    for name, cols in lists(root).items():
        out.append('%s_COLUMNS (%s)' % (name, cols[0].where))
        for c in cols:
            out.append('  %-24s %-6s %s' % (c.name, c.fmt, c.note))
    return '\n'.join(out) + '\n'
