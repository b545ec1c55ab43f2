"""Replace \\R{key}, \\resultstable{N}, \\sweeptable{N}, \\sweepchart{N},
\\suitetable{N}, \\boundtable{N}, \\suitechart{N}, \\sassexcerpt{N}{name}, \\progresschart
(and \\tabhead{a}{b} inside the tables) in LaTeX (stdin) by the text that
book/results.sty would typeset, for the HTML book (pandoc cannot look keys
up).  Usage: python3 -m weave.subst OUTDIR (book/tools/subst OUTDIR): it
reads OUTDIR/results.keys and OUTDIR/res/*.tex, written by
book/tools/bookdata keys.  Code (lstlisting, verbatim) is left alone.  A
key that results.keys lacks prints as results.sty's \\notmeasured does,
\\notmeasurednote becomes the sentence that counts them (or nothing),
and stderr lists the keys.
"""
import re
import sys

from . import ENC, ERR, main, read_file

NOT_MEASURED = '\\textbf{[not measured]}'
_CMD = re.compile(r'\\R\{[^}]*\}|\\resultstable\{[0-9]+\}|\\sweeptable\{[0-9]+\}'
                  r'|\\sweepchart\{[0-9]+\}|\\suitetable\{[0-9]+\}|\\boundtable\{[0-9]+\}'
                  r'|\\suitechart\{[0-9]+\}|\\sassexcerpt\{[0-9]+\}\{[a-z0-9_]+\}'
                  r'|\\progresschart')
_TABHEAD = re.compile(r'\\tabhead\{[^}]*\}\{[^}]*\}')
_VERB_BEGIN = re.compile(r'\\begin\{(lstlisting|verbatim)\}')
_VERB_END = re.compile(r'\\end\{(lstlisting|verbatim)\}')

SWEEPCHART = (
    '\n\\begin{figure}\n\\centering\n\\includegraphics{sweep-ch{n}}\n'
    '\\caption{The tuning sweep of chapter~{n}: the percentage of cuBLAS of '
    'each configuration at the smallest and the largest size measured '
    '(table~\\ref{tab:sweep-ch{n}} has the rest).}\\label{fig:sweep-ch{n}}\n'
    '\\end{figure}\n')
SUITECHART = (
    '\n\\begin{figure}\n\\centering\n\\includegraphics{suite-ch{n}}\n'
    "\\caption{The suite at a glance: for each precision, its dispatcher's "
    'percentage of the cuBLAS of that precision (3xTF32: of cuBLAS FP32) at '
    'every shape, on a log scale, the shapes in the same order in every '
    "panel (table~\\ref{tab:suite-ch{n}}'s, its families named below); the "
    'dashed line is 80\\,\\%, the solid one 100\\,\\%.}'
    '\\label{fig:suite-ch{n}}\n\\end{figure}\n')


def keys(out):
    """The values of OUTDIR/results.keys (key TAB value lines)."""
    val = {}
    for line in read_file(out + '/results.keys') or ():
        kv = line.split('\t')
        val[kv[0]] = kv[1] if len(kv) > 1 else ''
    return val


def slurp(path):
    """A file's text, each line ending in a newline; "" if unreadable."""
    return ''.join(line + '\n' for line in read_file(path) or ())


class Subst:
    def __init__(self, out, val=None):
        self.out = out
        self.val = keys(out) if val is None else val
        self.undef = []         # the missing keys, in the order met

    def res(self, name):
        return slurp(self.out + '/res/' + name)

    def replace(self, m):
        """The text of one command m."""
        if m.startswith('\\R{'):
            k = m[3:-1]
            if k in self.val:
                return self.val[k]
            if k not in self.undef:
                self.undef.append(k)
            return NOT_MEASURED
        if m.startswith('\\sassexcerpt'):
            q = re.split(r'[{}]', m)
            t = self.res('sass-ch' + q[1] + '-' + q[3] + '.tex')
            return '\n' + t if t else NOT_MEASURED
        n = re.sub(r'[^0-9]', '', m)
        if m.startswith('\\sweepchart'):
            return SWEEPCHART.replace('{n}', n)
        if m.startswith('\\suitechart'):
            return SUITECHART.replace('{n}', n)
        if m.startswith('\\suitetable'):
            t = self.res('suite-ch' + n + '-html.tex')
            return '\n' + t if t else NOT_MEASURED + ' No shape suite measured for chapter ' + n + ' on this GPU.'
        if m.startswith('\\boundtable'):
            t = self.res('bound-ch' + n + '.tex')
            return '\n' + t if t else NOT_MEASURED + ' No products bound by memory measured for chapter ' + n + ' on this GPU.'
        if m.startswith('\\sweeptable'):
            t = self.res('sweep-ch' + n + '.tex')
            # in the PDF an inline table; pandoc knows the table float
            t = t.replace('\\begin{center}', '\\begin{table}\\centering', 1)
            t = t.replace('\\captionof{table}', '\\caption', 1)
            t = t.replace('\\end{center}', '\\end{table}', 1)
            return '\n' + t if t else NOT_MEASURED + ' No tuning sweep for chapter ' + n + ' on this GPU.'
        if m.startswith('\\resultstable'):
            t = self.res('table-ch' + n + '-html.tex')
            return '\n' + t if t else NOT_MEASURED + ' No measurements for chapter ' + n + ' on this GPU.'
        t = self.res('progress.tex')
        return '\n' + t if t else NOT_MEASURED

    def line(self, s):
        r = []
        p = 0
        for m in _CMD.finditer(s):
            r.append(s[p:m.start()])
            r.append(self.replace(m.group()))
            p = m.end()
        r.append(s[p:])
        r = ''.join(r)
        while True:
            m = _TABHEAD.search(r)
            if not m:
                return r
            h = m.group()[9:-1].replace('}{', ' ', 1)
            r = r[:m.start()] + h + r[m.end():]

    def lines(self, lines):
        out = []
        verb = False
        for s in lines:
            if _VERB_BEGIN.match(s):
                verb = True
            if _VERB_END.match(s):
                verb = False
                out.append(s)
            elif verb:
                out.append(s)
            else:
                out.append(self.line(s))
        return out


def subst(lines, out):
    """The lines with the results of OUTDIR out put in; the missing keys
    are listed on stderr."""
    su = Subst(out)
    res = su.lines(lines)
    n = len(su.undef)
    note = ('%d %s of this edition %s not measured on this GPU; each is '
            'marked %s.' % (n, 'figure' if n == 1 else 'figures',
                            'was' if n == 1 else 'were', NOT_MEASURED)
            if n else '')
    res = [s.replace('\\notmeasurednote', note) for s in res]
    if su.undef:
        msg = ('subst: %d figures not measured on this GPU, marked '
               '[not measured]:%s\n'
               % (n, ''.join(' ' + k for k in su.undef[:8])
                  + (' ...' if n > 8 else '')))
        err = getattr(sys.stderr, 'buffer', None)
        if err is None:
            sys.stderr.write(msg)
        else:                   # the key's bytes as they came
            sys.stderr.flush()
            err.write(msg.encode(ENC, ERR))
            err.flush()
    return res


if __name__ == '__main__':
    main(lambda lines: subst(lines, sys.argv[1] if len(sys.argv) > 1 else ''))
