"""A chapter's shape suite, tuning sweep and trace of timed steps, as the
book sets them.

  suite(n, suite_csv, res, out)  chapter n's shape suite: tables
      (OUTDIR/res/suite-chN.tex, and suite-chN-html.tex for the HTML
      book), a chart (suite-chN-plot.tex) and the keys chN.suite.*
  bound(n, res, out)              the products of the suite and of the
      fresh drawn set that memory bounds, beside the copy's bandwidth
      (OUTDIR/res/bound-chN.tex and the keys chN.bound.*)
  sweep(csv, out_tex, plot_tex)   a tuning sweep as a table and a chart
  timeline(csv, out_tex)          a trace of timed steps as a picture
  run_tables(keys, out, res, chapters, man)  all three for the chapters
      whose manifests ask for them, in the pipeline's order: the
      suites' keys (suite_keys, before the formulas), then the figures

The awk tools compared a CSV field with a number numerically when the
field looked like one and as text otherwise; _lt and _eq below keep that.
"""
import glob
import math
import os
import re
import statistics
import sys

from . import code, csvio, runs
from .manifest import ROOT
from . import keys as K
from .awk import fmt, ipow, looks_numeric, num, numstr, tex


class TableError(Exception):
    """A tool that failed (the awk tool's exit status was not 0)."""


def _s(v):
    """A value as awk prints it with %s."""
    return v if isinstance(v, str) else numstr(v)


def _eq(a, b):
    """awk's a == b between fields: numbers if both look numeric.  None
    is an unset awk variable, equal to both "" and 0."""
    if b is None:
        return a == '' or looks_numeric(a) and num(a) == 0
    if looks_numeric(a) and looks_numeric(b):
        return num(a) == num(b)
    return _s(a) == _s(b)


def _lt(a, b):
    if looks_numeric(a) and looks_numeric(b):
        return num(a) < num(b)
    return _s(a) < _s(b)


def _ge(a, b):
    if looks_numeric(a) and looks_numeric(b):
        return num(a) >= num(b)
    return _s(a) >= _s(b)


def _log(x):
    """C's log(): -inf at 0, -nan below, where Python raises."""
    if x > 0 or math.isnan(x):
        return math.log(x)
    return -math.inf if x == 0 else -math.nan


def _exp(x):
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _div(a, b):
    if b == 0:
        raise TableError('division by zero attempted')
    return a / b


def _write(path, text):
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def _cube(m, n, k):
    return _eq(m, n) and _eq(n, k)


# -- the shape suite ------------------------------------------------------

P = ['fp32', 'tf32', '3xtf32', 'bf16']
PNAME = ['FP32', 'TF32', '3xTF32', 'BF16']


def shape(s):
    """4093x4099x4091 -> $4093\\times4099\\times4091$."""
    q = (s.split('x') + ['', '', ''])[:3] if s else ['', '', '']
    return '$%s\\times%s\\times%s$' % tuple(q)


def _listed(lst, s, v, bound):
    """A list of shapes with their percentages; one just under the bound
    keeps a decimal, so that it does not print as the bound."""
    f = fmt(v, '%.0f')
    if num(f) >= bound:
        f = fmt(v, '%.1f')
    return (lst + ', ' if lst else '') + shape(s) + ' (' + f + '\\,\\%)'


def _listed_x(lst, s, v):
    f = fmt(v, '%.2f')
    if num(f) >= 2:
        f = fmt(v, '%.3f')
    return (lst + ', ' if lst else '') + shape(s) + ' (' + f + '$\\times$)'


def _cell(v):
    """A table's percentage: bold below 80 %, as the counts; a value just
    under 80 or 100 keeps a decimal."""
    if v == '':
        return '---'
    r = fmt(v, '%.0f')
    if num(v) < 100 and num(r) >= 100:
        r = fmt(v, '%.1f')
    if num(v) >= 80:
        return r
    if num(r) >= 80:
        r = fmt(v, '%.1f')
    return '\\textbf{' + r + '}'


class _Suite:
    """What suite-table's awk program gathered from its files."""

    def __init__(self, n, part='suite'):
        self.n, self.keys, self.part = n, [], part
        self.order, self.fam = [], {}
        self.pc, self.tf, self.err = {}, {}, {}
        self.sp = {}      # the spread of a row's ratio to cuBLAS, in %
        self.tp, self.tt, self.tc = {}, {}, {}
        self.gpu = self.tver = ''
        self.stale = set()   # shapes measured with other code than the chapter's

    def key(self, k, v):
        self.keys.append((K.chapter(self.n, self.part, k), _s(v)))

    def shapes(self, table):
        for r in table:
            s = r['m'] + 'x' + r['n'] + 'x' + r['k']
            self.order.append(s)
            self.fam[s] = r['family']

    def measured(self, table):
        for r in table:
            s = r['m'] + 'x' + r['n'] + 'x' + r['k']
            if r['precision'] != '' and r['kernel'] == '':    # Triton's
                p = r['precision']
                self.tp[p, s], self.tt[p, s] = r['pct_torch'], r['tflops']
                self.tc[p, s], self.tver = r['torch_tflops'], r['triton']
            else:
                self.row(r, s)

    def row(self, r, s):
        """A dispatcher's row: its percentage, rate, time, error, spread
        and the bandwidth it would need to read A and B and write C once."""
        k = r['kernel']
        self.pc[k, s], self.tf[k, s] = r['pct_cublas'], r['tflops']
        self.err[k, s], self.gpu = r['error'], r['gpu']
        self.key(k + '.' + s + '.pct', fmt(r['pct_cublas'], '%.0f'))
        self.key(k + '.' + s + '.tflops', fmt(r['tflops'], 'sig3'))
        self.key(k + '.' + s + '.ms', fmt(r['ms'], 'sig3'))
        self.key(k + '.' + s + '.cublas_ms', fmt(r['cublas_ms'], 'sig3'))
        self.key(k + '.' + s + '.error', fmt(r['error'], 'err'))
        spread = _div(50 * (num(r['ms_q3']) - num(r['ms_q1'])), num(r['ms']))
        self.key(k + '.' + s + '.spread_pct', fmt(spread, '%.1f'))
        cs = _div(50 * (num(r['cublas_ms_q3']) - num(r['cublas_ms_q1'])),
                  num(r['cublas_ms']))
        self.sp[k, s] = spread + cs
        byte = _bytes(num(r['m']), num(r['n']), num(r['k']),
                      2 if r['precision'] == 'bf16' else 4, r)
        self.key(k + '.' + s + '.gbs',
                 fmt(_div(byte, num(r['ms'])) / 1e6, '%.0f'))
        self.key(k + '.' + s + '.cublas_gbs',
                 fmt(_div(byte, num(r['cublas_ms'])) / 1e6, '%.0f'))

    def dispatchers(self):
        """Per dispatcher: geometric mean, lowest shape, shapes below."""
        for p in P:
            for k in (p, p + '-tiles'):
                lg, c, lo, los, l80, l100 = 0.0, 0, '', '', '', ''
                below = slow = 0
                for s in self.order:
                    if (k, s) not in self.pc:
                        continue
                    v = num(self.pc[k, s])
                    c += 1
                    lg += _log(v)
                    if lo == '' or v < lo:
                        lo, los = v, s
                    if v < 80:
                        below, l80 = below + 1, _listed(l80, s, v, 80)
                    if v < 100:
                        slow, l100 = slow + 1, _listed(l100, s, v, 100)
                if not c:
                    continue
                self.key(k + '.geomean_pct', fmt(_exp(lg / c), '%.0f'))
                # how far the geometric mean may move between runs: the
                # mean of its shapes' spreads (each the dispatcher's and
                # its cuBLAS's), as if every shape moved the same way
                sps = [self.sp[k, s] for s in self.order if (k, s) in self.sp]
                if sps:
                    self.key(k + '.geomean_spread_pct',
                             fmt(sum(sps) / len(sps), '%.1f'))
                self.key(k + '.min_pct', fmt(lo, '%.0f'))
                self.key(k + '.min_shape', shape(los))
                self.key(k + '.below80', below)
                self.key(k + '.below100', slow)
                self.key(k + '.below80_list', l80 or 'none')
                self.key(k + '.below100_list', l100 or 'none')
                self.key(k + '.measured', c)

    def three(self):
        """3xTF32 against cuBLAS FP32: at the large shapes, its error."""
        big, bigs, nbig, below2, l2 = '', '', 0, 0, ''
        near2, ln2, bigsp = 0, '', 0.0
        worse, ratio, rs = 0, '', ''
        for s in self.order:
            q = (s.split('x') + ['', '', ''])[:3]
            if ('3xtf32', s) not in self.pc:
                continue
            if all(_ge(x, 1024) for x in q):
                nbig += 1
                v = num(self.pc['3xtf32', s]) / 100
                sp = self.sp.get(('3xtf32', s), 0.0)
                if big == '' or v < big:
                    big, bigs, bigsp = v, s, v * sp / 100
                # below 2x by more than the ratio's spread, or within it
                if v < 2 and 100 * (2 - v) / 2 > sp:
                    below2, l2 = below2 + 1, _listed_x(l2, s, v)
                elif v < 2:
                    near2, ln2 = near2 + 1, _listed_x(ln2, s, v)
            if ('cublas-fp32', s) in self.err:
                e = _div(num(self.err.get(('3xtf32', s), '')),
                         num(self.err['cublas-fp32', s]))
                worse += e > 1
                if ratio == '' or e > ratio:
                    ratio, rs = e, s
        self.key('3xtf32.big_shapes', nbig)
        self.key('3xtf32.big_min_x', fmt(big, '%.2f'))
        self.key('3xtf32.big_min_shape', shape(bigs))
        self.key('3xtf32.big_below2', below2)
        self.key('3xtf32.big_below2_list', l2 or 'none')
        self.key('3xtf32.big_near2', near2)
        self.key('3xtf32.big_near2_list', ln2 or 'none')
        self.key('3xtf32.big_min_spread', fmt(bigsp, '%.3f'))
        self.key('3xtf32.err_worse', worse)
        self.key('3xtf32.err_ratio_max', fmt(ratio, '%.2f'))
        self.key('3xtf32.err_ratio_shape', shape(rs))

    def triton(self):
        """Triton: its percentage of cuBLAS (PyTorch), the book over it."""
        for p in P:
            lg = lb = lc = 0.0
            c = 0
            for s in self.order:
                if (p, s) not in self.tp or (p, s) not in self.tf:
                    continue
                tf = num(self.tf[p, s])
                c += 1
                lg += _log(num(self.tp[p, s]))
                lb += _log(_div(tf, num(self.tt[p, s])))
                lc += _log(_div(_div(tf * 100, num(self.pc[p, s])),
                                num(self.tc[p, s])))
            if not c:
                continue
            self.key('triton.' + p + '.cublas_ratio',
                     fmt(_exp(lc / c), '%.2f'))
            self.key('triton.' + p + '.geomean_pct',
                     fmt(_exp(lg / c), '%.0f'))
            self.key('triton.' + p + '.book_over_triton',
                     fmt(_exp(lb / c), '%.2f'))
            self.key('triton.' + p + '.measured', c)
        self.key('triton.version', self.tver or '---')

    def triton_configs(self, table):
        """triton-chN-configs: every configuration alone at one cube;
        per precision the best rate, the autotuner's choice, how many
        configurations ran and how many need more shared memory than an
        SM has."""
        for p in P:
            rows = [r for r in table if r['precision'] == p]
            ran = [r for r in rows if r['tflops'] != '']
            if not ran:
                continue
            best = max(ran, key=lambda r: num(r['tflops']))
            chosen = [r for r in ran if r['chosen'] == 'yes']
            k = 'triton.' + p + '.configs.'
            self.key(k + 'size', rows[0]['m'])
            self.key(k + 'tried', len(rows))
            self.key(k + 'failed', len(rows) - len(ran))
            self.key(k + 'best_tflops', fmt(best['tflops']))
            if best['ms_q3'] != '' and num(best['ms']) > 0:
                self.key(k + 'best_spread_pct', fmt(
                    50 * (num(best['ms_q3']) - num(best['ms_q1']))
                    / num(best['ms']), '%.1f'))
            self.key(k + 'best', best['config'])
            if chosen:
                self.key(k + 'chosen', chosen[0]['config'])
                self.key(k + 'chosen_tflops', fmt(chosen[0]['tflops']))

    def rows(self):
        """The table's rows, grouped by family."""
        out, last = [], ''
        for s in self.order:
            fam = self.fam[s]
            row = '%s & %s%s' % (tex(fam) if not _eq(fam, last) else '',
                                 shape(s), '$^\\dagger$' if s in self.stale else '')
            last = fam
            for p in P:
                # awk's pc[p, s] here made every missing cell an empty
                # entry, which the chart below then plots, as 0 (gawk
                # 5.2.1 printed a random denormal, 4.8e-315, there)
                row += ' & ' + _cell(self.pc.setdefault((p, s), ''))
            sp = [self.sp[p, s] for p in P if (p, s) in self.sp]
            row += ' & ' + (fmt(max(sp), '%.1f') if sp else '---')
            for p in P:
                t = self.tp[p, s] if (p, s) in self.tp else None
                row += ' & ' + (_cell(t) if t is not None else '---')
            out.append(row + ' \\\\\n')
        return ''.join(out)

    def tables(self, table, html):
        cap = ("The suite on the %s: each dispatcher's percentage of the "
               "cuBLAS of its precision measured in the same run (for "
               "3xTF32, of cuBLAS FP32), and Triton's percentage of the "
               "cuBLAS that PyTorch calls, measured in Triton's run. Below "
               "80\\,\\%% in bold. $\\pm$: the largest spread of the "
               "row's four percentages (of the dispatcher's time and of its "
               "cuBLAS's, each the larger of the spreads within and between "
               "runs), in \\%% of the percentage." % tex(self.gpu))
        if self.stale:
            cap += (" $^\\dagger$: measured with an earlier build of the "
                    "chapter's code (%d of the %d shapes)."
                    % (len(self.stale), len(self.order)))
        hd = (' & & \\multicolumn{5}{c}{the book} & \\multicolumn{4}{c}'
              '{Triton} \\\\\nfamily & $M\\times N\\times K$ & FP32 & TF32 & '
              '3xTF32 & BF16 & $\\pm$ & FP32 & TF32 & 3xTF32 & BF16 \\\\\n')
        rows = self.rows()
        _write(table, '{\\scriptsize\\setlength\\tabcolsep{3pt}\n'
               '\\begin{longtable}{llrrrrrrrrr}\n'
               '\\caption{%s}\\label{tab:suite-ch%s}\\\\\n\\toprule\n%s'
               '\\midrule\n\\endfirsthead\n' % (cap, self.n, hd)
               + '\\multicolumn{11}{l}{\\small Table~\\thetable, continued}'
               '\\\\\n\\toprule\n%s\\midrule\n\\endhead\n\\bottomrule\n'
               '\\endfoot\n' % hd + rows + '\\end{longtable}}\n')
        _write(html, '\\begin{table}\\centering\n\\caption{%s}\\label'
               '{tab:suite-ch%s}\n\\begin{tabular}{llrrrrrrrrr}\n\\toprule\n'
               '%s\\midrule\n' % (cap, self.n, hd) + rows
               + '\\bottomrule\n\\end{tabular}\n\\end{table}\n')

    def chart(self, plot):
        """Every dispatcher's percentage at every shape: a panel per
        precision, two by two, the shapes in the suite's order in every
        panel (its families named under the lower panels and parted by
        light lines), on one log scale for all four, every point inside."""
        ns = len(self.order)
        vals = [num(self.pc[p, s]) for p in P for s in self.order
                if (p, s) in self.pc and self.pc[p, s] != '' and num(self.pc[p, s]) > 0]
        if not vals:
            _write(plot, '')
            return
        nice = [1, 2, 5, 10, 20, 25, 40, 50, 80, 100, 150, 200, 250, 300,
                400, 500, 600, 800, 1000, 1500, 2000, 5000, 10000]
        lo = max([v for v in nice if v <= min(vals) / 1.15] or [nice[0]])
        hi = min([v for v in nice if v >= max(vals) * 1.15] or [nice[-1]])
        ticks = [t for t in (1, 2, 5, 10, 25, 50, 100, 200, 400, 1000,
                             2000, 5000) if lo <= t <= hi]
        fams, bounds, centers, start = [], [], [], 0
        for i, s in enumerate(self.order + ['']):
            if i == ns or (i and self.fam[s] != self.fam[self.order[i - 1]]):
                fams.append(tex(self.fam[self.order[i - 1]]))
                centers.append((start + i + 1) / 2.0)
                if i < ns:
                    bounds.append(i + 0.5)
                start = i + 1
        col = ['black!70', 'blue!70!black', 'red!70!black', 'green!50!black']
        mark = ['*', 'square*', 'triangle*', 'diamond*']
        o = ['\\begin{tikzpicture}\n']
        for i, p in enumerate(P):
            x, y = (i % 2) * 6.0, -(i // 2) * 3.3
            bottom = i >= 2
            o.append('\\begin{axis}[at={(%.1fcm,%.1fcm)}, width=5.1cm, height=2.4cm, '
                     'scale only axis,\n' % (x, y))
            o.append('  xmin=0.5, xmax=%s, ymode=log, ymin=%d, ymax=%d,\n'
                     % (numstr(ns + 0.5), lo, hi))
            o.append('  ytick={%s}, log ticks with fixed point, '
                     'yticklabel style={font=\\tiny},\n' % ','.join(map(str, ticks)))
            o.append('  xtick={%s}, xticklabels={}, xmajorgrids, '
                     'major x grid style={black!12}, ymajorgrids, '
                     'major y grid style={black!6},\n'
                     % ','.join(numstr(b) for b in bounds))
            if bottom:
                o.append('  extra x ticks={%s}, extra x tick labels={%s},\n'
                         % (','.join(numstr(c) for c in centers), ','.join(fams)))
                o.append('  extra x tick style={grid=none, major tick length=0pt, '
                         'xticklabel style={rotate=50, anchor=north east, '
                         'font=\\tiny, inner sep=1pt}},\n')
            if i % 2 == 0:
                o.append('  ylabel={\\% of cuBLAS}, ylabel style={font=\\scriptsize},\n')
            o.append('  title={%s%s}, title style={font=\\footnotesize, yshift=-1.5ex}]\n'
                     % (PNAME[i], ' (of cuBLAS FP32)' if p == '3xtf32' else ''))
            o.append('\\addplot[only marks, color=%s, mark=%s, mark size=1.1pt] '
                     'coordinates {' % (col[i], mark[i]))
            o += [' (%d,%s)' % (j, numstr(num(self.pc[p, s])))
                  for j, s in enumerate(self.order, 1)
                  if (p, s) in self.pc and self.pc[p, s] != '' and num(self.pc[p, s]) > 0]
            o.append('};\n')
            o.append('\\draw[black!50, dashed] (axis cs:0.5,80) -- (axis cs:%s,80);\n'
                     % numstr(ns + 0.5))
            o.append('\\draw[black!60] (axis cs:0.5,100) -- (axis cs:%s,100);\n'
                     % numstr(ns + 0.5))
            o.append('\\end{axis}\n')
        o.append('\\end{tikzpicture}\n')
        _write(plot, ''.join(o))


def suite(n, suite_csv, res, out):
    """Chapter n's shape suite (suite_csv: family,m,n,k,origin) as
    measured in res/suite-chN.csv and, where they exist, res/triton-chN.csv
    and res/triton-configs-chN.csv (Triton's configurations one by one):
    writes out/res/suite-chN.tex (a longtable), suite-chN-html.tex (one
    table, for the HTML book) and suite-chN-plot.tex (the chart), and
    returns the keys chN.suite.* [(key, value)].  TableError where
    book/tools/suite-table failed: no res/suite-chN.csv, a division by
    zero (nothing written then), no suite_csv (files written, no keys).
    suite_csv is read from the current folder, as the awk tool read it."""
    measured = os.path.join(res, 'suite-ch%s.csv' % n)
    if not os.path.isfile(measured):
        raise TableError('suite-table: %s is missing' % measured)
    st = _Suite(n)
    missing = not os.path.isfile(suite_csv)
    if missing:
        print("suite-table: cannot open file `%s' for reading" % suite_csv,
              file=sys.stderr)
    else:
        st.shapes(csvio.read(suite_csv))
    rows = csvio.read(measured).rows
    st.measured(runs.merge(rows))
    now = code.hash(int(n))
    st.stale = {r['m'] + 'x' + r['n'] + 'x' + r['k'] for r in rows
                if r.get('code_hash', now) != now}
    st.key('stale_shapes', len(st.stale))
    tri = os.path.join(res, 'triton-ch%s.csv' % n)
    if os.path.isfile(tri):
        st.measured(csvio.read(tri))
    st.key('shapes', len(st.order))
    st.dispatchers()
    st.three()
    st.triton()
    cfg = os.path.join(res, 'triton-configs-ch%s.csv' % n)
    if os.path.isfile(cfg):
        st.triton_configs(csvio.read(cfg))
    os.makedirs(os.path.join(out, 'res'), exist_ok=True)
    base = os.path.join(out, 'res', 'suite-ch%s' % n)
    st.tables(base + '.tex', base + '-html.tex')
    st.chart(base + '-plot.tex')
    if missing:
        raise TableError('suite-table: no suite %s' % suite_csv)
    return st.keys


def validation(n, res, part='validation'):
    """Chapter n's validation set: the shapes drawn fresh
    (res/validation-shapes-chN.csv, family,m,n,k,origin, the seed in
    origin) as measured in res/validation-chN.csv; returns the keys
    chN.validation.*, as the suite's (geometric means with their
    spread, lowest shapes, shapes below 80 %), the seed they were drawn
    from, each precision's highest percentage, the checks that failed,
    and the means over the shapes past the launch.  TableError where a file is missing.
    part='tuning': the same of an earlier drawn set that a chapter's
    rules were tuned on (res/tuning-shapes-chN.csv, res/tuning-chN.csv;
    keys chN.tuning.*)."""
    drawn = os.path.join(res, '%s-shapes-ch%s.csv' % (part, n))
    measured = os.path.join(res, '%s-ch%s.csv' % (part, n))
    for f in (drawn, measured):
        if not os.path.isfile(f):
            raise TableError('validation: %s is missing' % f)
    st = _Suite(n, part)
    shapes = csvio.read(drawn).rows
    st.shapes(shapes)
    rows = csvio.read(measured).rows
    merged = runs.merge(rows)
    st.measured(merged)
    rows_by = {(r['kernel'], r['m'] + 'x' + r['n'] + 'x' + r['k']): r for r in merged}
    st.key('shapes', len(st.order))
    seeds = {re.match(r'seed ([0-9]+)', r['origin']).group(1)
             for r in shapes if re.match(r'seed [0-9]+', r['origin'])}
    if len(seeds) != 1:
        raise TableError('validation: %s names %d seeds' % (drawn, len(seeds)))
    st.key('seed', seeds.pop())
    st.dispatchers()
    # Each precision's highest percentage: its shape, and the rate of
    # the cuBLAS it was measured against there
    for p in P:
        got = [(num(st.pc[p, s]), s) for s in st.order if (p, s) in st.pc]
        if got:
            v, sh = max(got)
            r = rows_by[p, sh]
            st.key(p + '.max_pct', fmt(v, '%.0f'))
            st.key(p + '.max_shape', shape(sh))
            st.key(p + '.max_args', '-m %s -n %s -k %s' % tuple(sh.split('x')))
            st.key(p + '.max_tflops', fmt(r['tflops'], 'sig3'))
            st.key(p + '.max_cublas_tflops', fmt(r['cublas_tflops'], 'sig3'))
    # The checks that failed: the shapes, and the first one's numbers
    # beside the harness's bounds (chapter 0's tolerance(): 4u_p + tau(K)
    # for the error, 16u_p + tau(K) for the worst element)
    bad = [r for r in rows if r['check'] not in ('ok', '')]
    shapes_bad = []
    for r in bad:
        sh = r['m'] + 'x' + r['n'] + 'x' + r['k']
        if sh not in shapes_bad:
            shapes_bad.append(sh)
    st.key('failed', len(shapes_bad))
    st.key('failed_list', ', '.join(shape(x) for x in shapes_bad) or 'none')
    # The same as words a sentence can hold, whatever the draw found
    st.key('failed_said', 'the check failed at %s, in %s' % (
        ', '.join(shape(x) for x in shapes_bad),
        'the entries of ' + '/'.join(sorted({tex(r['precision']).upper() for r in bad})))
        if bad else 'every check passed')
    if bad:
        r = bad[0]
        u = {'tf32': 2.0 ** -11, 'bf16': 2.0 ** -8}.get(r['precision'], 0.0)
        tau = max(64.0, 16.0 * math.sqrt(num(r['k']))) * 2.0 ** -24
        first = [x for x in bad if x['m'] == r['m'] and x['n'] == r['n'] and x['k'] == r['k']]
        st.key('failed_kernels', ', '.join(sorted({'\\texttt{%s}' % tex(x['kernel'])
                                                   for x in first})))
        st.key('failed_error', fmt(r['error'], 'err'))
        st.key('failed_tol', fmt(4 * u + tau, 'err'))
        st.key('failed_max_error', fmt(r['max_error'], 'err'))
        st.key('failed_tol_max', fmt(16 * u + tau, 'err'))
        st.key('failed_max_within', 'inside' if num(r['max_error']) <= 16 * u + tau
               else 'outside')
    # The shapes that take cuBLAS FP32 more than three times its least
    # time over the set: there the launch is no longer most of the time.
    cub = {s: num(r['cublas_ms']) for (k, s), r in rows_by.items() if k == 'fp32'}
    if cub:
        least = min(cub.values())
        long_ = [s for s in st.order if cub.get(s, 0) > 3 * least]
        st.key('launch_us', fmt(least * 1000, '%.1f'))
        st.key('long_us', fmt(3 * least * 1000, '%.0f'))
        st.key('long_shapes', len(long_))
        for p in P:
            vals = [num(st.pc[p, s]) for s in long_ if (p, s) in st.pc]
            if vals:
                st.key(p + '.long_geomean_pct',
                       fmt(_exp(sum(_log(v) for v in vals) / len(vals)), '%.0f'))
                st.key(p + '.long_below80', sum(v < 80 for v in vals))
    # Triton at the same shapes, where the run had it
    # (res/triton-validation-chN.csv: keys chN.validation.triton.*)
    tri = os.path.join(res, 'triton-%s-ch%s.csv' % (part, n))
    if os.path.isfile(tri):
        st.measured(csvio.read(tri))
        st.triton()
    return st.keys


# -- the products bound by memory -----------------------------------------

BOUND_ROWS = 32      # M or N at most this (a few dozen: 32 is the widest
BOUND_K = 16         # tile's side), or K at most BOUND_K: bound by reading
BOUND_US = 5.0       # A or B, or by writing C; and at least this long at
                     # the copy's bandwidth


def bound(n, res, out):
    """The products of chapter n's suite and of its fresh drawn set that
    are bound by memory (M or N at most BOUND_ROWS, or K at most BOUND_K)
    and take at least BOUND_US microseconds at the copy bandwidth of
    res/ceilings.csv: each dispatcher's bandwidth and that of the cuBLAS
    it was measured against, in percent of the copy's, counting the
    least bytes a product moves (A and B read once, C written once, and
    read too where beta is not 0).  Writes out/res/bound-chN.tex (a
    table) and returns the keys chN.bound.*: the shapes, and per
    precision the shapes at 80 % or more of the copy, the dispatcher's
    and cuBLAS's, the median percentages and the lowest shape.
    TableError where a file is missing."""
    files = [os.path.join(res, f) for f in
             ('ceilings.csv', 'suite-ch%s.csv' % n, 'validation-ch%s.csv' % n)]
    for f in files:
        if not os.path.isfile(f):
            raise TableError('bound: %s is missing' % f)
    ceil = csvio.read(files[0]).rows[0]
    copy = num(ceil['copy_tbs']) * 1e12
    if copy <= 0:
        raise TableError('bound: no copy bandwidth in %s' % files[0])
    # (FP32 runs on the CUDA cores, whose multiply-adds can take longer
    # than the bytes: the roof is the longer of the two times)
    ffma = num(ceil.get('ffma_tflops', '0')) * 1e12
    if ffma <= 0:
        raise TableError('bound: no FFMA rate in %s' % files[0])
    keys = []

    def key(k, v):
        keys.append((K.chapter(n, 'bound', k), _s(v)))

    rows = []            # (set, shape, {kernel: row})
    for part, f in (('suite', files[1]), ('fresh', files[2])):
        by = {}
        for r in runs.merge(csvio.read(f).rows):
            s = r['m'] + 'x' + r['n'] + 'x' + r['k']
            by.setdefault(s, {})[r['kernel']] = r
        for s, got in by.items():
            m, nn, kk = (int(x) for x in s.split('x'))
            if not (min(m, nn) <= BOUND_ROWS or kk <= BOUND_K):
                continue
            if _bytes(m, nn, kk, 4, got.get('fp32')) / copy * 1e6 < BOUND_US:
                continue
            rows.append((part, s, got))
    rows.sort(key=lambda x: (x[0] != 'suite', -_bytes(
        *(int(v) for v in x[1].split('x')), 4, x[2].get('fp32'))))
    key('shapes', len(rows))
    key('suite_shapes', sum(r[0] == 'suite' for r in rows))
    key('min_us', fmt(BOUND_US, '%.0f'))
    key('rows', BOUND_ROWS)
    key('thin', _enum_value('tangle/plan14.h', 'THIN'))
    key('k', BOUND_K)

    def pct(r, col):
        if r is None or num(r[col]) <= 0:
            return None
        m, nn, kk = int(r['m']), int(r['n']), int(r['k'])
        es = 2 if r['precision'] == 'bf16' else 4
        return 100 * _bytes(m, nn, kk, es, r) / (num(r[col]) * 1e-3) / copy

    # each product's two times in FP32, in us: its least bytes at the
    # copy's bandwidth, its multiply-adds at the CUDA cores' rate
    table = []
    for part, s, got in rows:
        m, nn, kk = (int(x) for x in s.split('x'))
        times = (_bytes(m, nn, kk, 4, got.get('fp32')) / copy * 1e6,
                 2.0 * m * nn * kk / ffma * 1e6)
        cells = []
        for p in P:
            r = got.get(p)
            cells.append((pct(r, 'ms'), pct(r, 'cublas_ms')))
        table.append((part, s, times, cells))
    # (the two times are two ceilings' predictions, each measured in a
    # run of its own: within a tenth of each other they are as long, and
    # only past that does one pass the other)
    over = [(s, t) for _, s, t, _ in table if t[1] > 1.1 * t[0]]
    even = [(s, t) for _, s, t, _ in table if 0.9 * t[0] <= t[1] <= 1.1 * t[0]]
    key('ffma_tflops', fmt(ffma / 1e12, '%.1f'))
    key('fp32.roof_below100', len(over))

    def listed(got):
        items = ['%s (%s against %s~$\\mu$s)' % (shape(s), fmt(t[1], '%.0f'), fmt(t[0], '%.0f'))
                 for s, t in got]
        return ', '.join(items[:-1]) + ' and ' + items[-1] if len(items) > 1 else items[0]
    # (a clause the prose holds whatever the draw found)
    said = []
    if even:
        said.append('at %s they take as long, within a tenth' % listed(even))
    if over:
        said.append('at %s they pass it' % listed(over))
    key('fp32.roof_over_said', '; '.join(said) or 'here they stay below it')
    for i, p in enumerate(P):
        ours = [(c[i][0], s) for _, s, _, c in table if c[i][0] is not None]
        cub = [c[i][1] for _, _, _, c in table if c[i][1] is not None]
        key(p + '.met', sum(v >= 80 for v, _ in ours))
        key(p + '.cublas_met', sum(v >= 80 for v in cub))
        key(p + '.measured', len(ours))
        if ours:
            key(p + '.median_pct', fmt(statistics.median([v for v, _ in ours]), '%.0f'))
            v, sh = min(ours)
            key(p + '.min_pct', fmt(v, '%.0f'))
            key(p + '.min_shape', shape(sh))
        if cub:
            key(p + '.cublas_median_pct', fmt(statistics.median(cub), '%.0f'))
    o = ['\\begin{table}[htbp]\\centering\\small\\setlength{\\tabcolsep}{2.5pt}\n',
         '\\caption{The products bound by memory, of the suite and of the '
         'fresh drawn set ($M$ or $N$ at most %d, or $K$ at most %d, and at '
         'least %s~$\\mu$s at the copy\'s bandwidth): the time of the least '
         'bytes the product moves in FP32 at the copy\'s %s~TB/s (copy), the '
         'time of its multiply-adds at the CUDA cores\' %s~TFLOP/s (FFMA), '
         'and the bandwidth that this chapter\'s dispatcher (ch.~%s) and the '
         'cuBLAS it was measured against reach, in percent of the copy\'s '
         '(BF16 counts its own, fewer, bytes; 3xTF32\'s cuBLAS is FP32\'s, '
         'the FP32 column\'s). The suite\'s products '
         'first, then the fresh draw\'s, marked~$^\\dagger$.}'
         '\\label{tab:bound-ch%s}\n'
         % (BOUND_ROWS, BOUND_K, fmt(BOUND_US, '%.0f'),
            fmt(copy / 1e12, '%.2f'), fmt(ffma / 1e12, '%.1f'), n, n),
         '\\begin{tabular}{lrrrrrrrrr}\n\\toprule\n',
         ' & copy & FFMA & \\multicolumn{2}{c}{FP32} & \\multicolumn{2}{c}{TF32} '
         '& \\multicolumn{2}{c}{BF16} & 3xTF32 \\\\\n',
         'shape & $\\mu$s & $\\mu$s & ch.~%s & cuBLAS & ch.~%s & cuBLAS & '
         'ch.~%s & cuBLAS & ch.~%s \\\\\n\\midrule\n' % (n, n, n, n)]

    def c(v):
        return '--' if v is None else fmt(v, '%.0f')
    last = 'suite'
    for part, s, times, cells in table:
        if part != last:
            o.append('\\midrule\n')
            last = part
        fp32, tf32, x3, bf16 = cells
        o.append('%s & %s & %s & %s & %s & %s & %s & %s & %s & %s \\\\\n'
                 % (shape(s) + ('$^\\dagger$' if part == 'fresh' else ''),
                    fmt(times[0], '%.0f'), fmt(times[1], '%.0f'),
                    c(fp32[0]), c(fp32[1]),
                    c(tf32[0]), c(tf32[1]), c(bf16[0]), c(bf16[1]), c(x3[0])))
    o.append('\\bottomrule\n\\end{tabular}\n\\end{table}\n')
    os.makedirs(os.path.join(out, 'res'), exist_ok=True)
    _write(os.path.join(out, 'res', 'bound-ch%s.tex' % n), ''.join(o))
    return keys


def _enum_value(path, name):
    """The value of an enumerator NAME = number in the book's file
    path (a constant of the code that a sentence states)."""
    with open(os.path.join(ROOT, path)) as f:
        m = re.search(r'\b%s\s*=\s*(\d+)' % name, f.read())
    if not m:
        raise TableError('%s: no constant %s' % (path, name))
    return int(m.group(1))


def _bytes(m, n, k, size, row):
    """The least bytes of a product: A and B read, C written (and read
    where the row's beta is not 0)."""
    c = 4 * m * n * (2 if row is not None and num(row['beta']) != 0 else 1)
    return size * (m * k + k * n) + c


# -- a tuning sweep -------------------------------------------------------

NAMES = {
    9: 'A name gives the kernel, the block tile '
       '$B_M\\times B_N\\times B_K$, the warp tile (w), the thread tile (t), '
       'the stages (s) and the blocks per SM that '
       '\\texttt{\\_\\_launch\\_bounds\\_\\_} asks for (b).',
    10: 'A name gives the precision, the block tile $B_M\\times B_N$, the '
        'warp tile (w), the stages (s), the blocks per SM that '
        '\\texttt{\\_\\_launch\\_bounds\\_\\_} asks for (b), the rounding of '
        '$A$ (r: 0 truncates, 1 rounds with \\texttt{cvt.rna}, 2 by the '
        'addition, 3 in a pass before the product) and whether a pass '
        'transposes $B$ (t: 1 yes).',
    12: 'A name gives the precision, the stages of the ring (s) and the '
        'rows of tiles in a group (g).',
}


def _size_tex(m, n, k):
    return '$%s^3$' % m if _cube(m, n, k) else \
        '$%s\\times%s\\times%s$' % (m, n, k)


def _sweep_rows(rows):
    """kernels, sizes (first-seen order), dims, tflops, pct, best, gpu."""
    ks, ss, dims, t, p, best, gpu = [], [], {}, {}, {}, {}, ''
    for r in rows:
        k, s = r['kernel'], r['m'] + 'x' + r['n'] + 'x' + r['k']
        if k not in ks:
            ks.append(k)
        if s not in dims:
            ss.append(s)
            dims[s] = (r['m'], r['n'], r['k'])
        t[k, s], p[k, s] = r['tflops'], r['pct_cublas']
        if num(r['tflops']) > num(best.get(s, '')):
            best[s] = r['tflops']
        gpu = r['gpu']
    # sizes in increasing order, by awk's exchange sort (not stable:
    # kept for sizes of equal volume)
    vol = {s: num(m) * num(n) * num(k) for s, (m, n, k) in dims.items()}
    for i in range(len(ss)):
        for j in range(i + 1, len(ss)):
            if vol[ss[j]] < vol[ss[i]]:
                ss[i], ss[j] = ss[j], ss[i]
    return ks, ss, dims, t, p, best, gpu


def sweep(csv, out_tex, plot_tex=''):
    """The rows of a chapter's tuning sweep (results/<gpu>/sweep-chN.csv)
    as a table set in the text (out_tex: one row per configuration, one
    column per size, TFLOP/s and the percentage of cuBLAS, the fastest
    at each size in bold) and, if plot_tex, a bar chart of the
    percentages at the smallest and the largest cube.  TableError (and
    nothing written) if the CSV has no rows."""
    chap = os.path.basename(csv)
    chap = chap[:-4] if chap.endswith('.csv') else chap
    chap = chap[8:] if chap.startswith('sweep-ch') else chap
    ks, ss, dims, t, p, best, gpu = _sweep_rows(runs.merge(csvio.read(csv).rows))
    if not ks:
        raise TableError('sweep-table: %s has no rows' % csv)
    names = next((v for c, v in NAMES.items() if _eq(chap, c)),
                 'A name gives the kernel and its configuration.')
    o = ['\\begin{center}\\footnotesize\\setlength\\tabcolsep{3pt}\n',
         '\\captionof{table}{The tuning sweep on the %s: TFLOP/s and, in '
         'parentheses, the percentage of cuBLAS measured in the same run; '
         'the fastest at each size in bold. %s}\n' % (tex(gpu), names),
         '\\label{tab:sweep-ch%s}\n\\begin{tabular}{l' % chap, 'r' * len(ss),
         '}\n\\toprule\nconfiguration']
    o += [' & ' + _size_tex(*dims[s]) for s in ss]
    o.append(' \\\\\n\\midrule\n')
    for k in ks:
        o.append('\\texttt{%s}' % tex(k))
        for s in ss:
            if (k, s) not in t:
                o.append(' & ---')
                continue
            c = '%s (%s)' % (fmt(t[k, s], 'sig3'), fmt(p[k, s], '%.0f'))
            bold = _eq(t[k, s], best.get(s))
            o.append(' & ' + ('\\textbf{' + c + '}' if bold else c))
        o.append(' \\\\\n')
    o.append('\\bottomrule\n\\end{tabular}\n\\end{center}\n')
    _write(out_tex, ''.join(o))
    if plot_tex:
        _write(plot_tex, _sweep_chart(ks, ss, dims, p))


def _sweep_chart(ks, ss, dims, p):
    cubes = [s for s in ss if _cube(*dims[s])]
    two = (cubes[0] + ' ' + cubes[-1]).split() if cubes else []
    two = (two + ['', ''])[:2]
    o = ['\\begin{tikzpicture}\n\\begin{axis}[xbar, width=8.5cm, '
         'height=%.1fcm,\n' % (0.42 * len(ks) + 1.6),
         '  bar width=4pt, enlarge y limits={abs=0.6}, xmin=0, xmax=110,\n',
         '  xlabel={\\% of cuBLAS in the same run}, xmajorgrids, major grid '
         'style={black!15},\n',
         '  ytick={1,...,%d}, y dir=reverse, yticklabel style={font='
         '\\ttfamily\\scriptsize},\n' % len(ks), '  yticklabels={']
    o += ['%s{%s}' % (',' if j else '', tex(k)) for j, k in enumerate(ks)]
    o.append('},\n  legend style={font=\\footnotesize, at={(0.5,1.02)}, '
             'anchor=south, legend columns=2}]\n')
    for q in (0, 1):
        if q == 1 and _eq(two[1], two[0]):
            break
        o.append('\\addplot[fill=%s, draw=none] coordinates {'
                 % ('black!35' if q == 0 else 'blue!70!black'))
        o += [' (%s,%d)' % (p[k, two[q]], j)
              for j, k in enumerate(ks, 1) if (k, two[q]) in p]
        o.append('};\n\\addlegendentry{$%s^3$}\n'
                 % dims.get(two[q], ('',))[0])
    o.append('\\end{axis}\n\\end{tikzpicture}\n')
    return ''.join(o)


# -- a trace of timed steps -----------------------------------------------

NO_TRACE = ('\\begin{tikzpicture}\\node[draw, align=center, inner sep=1em]'
            '{\\textbf{[not measured]} on this GPU:\\\\run \\texttt{make bench}.};'
            '\\end{tikzpicture}\n')


def timeline(csv, out_tex):
    """A chapter's trace of timed steps (results/<gpu>/events-chN.csv:
    flow, lane, panel (-1: a step of no panel), start_ms, end_ms) as a
    tikzpicture: a group of lanes per flow, a lane per kind of step, each
    step a bar on a common time axis in ms.  Without a CSV (csv "" or
    missing) a placeholder; TableError if it has no rows."""
    if not csv or not os.path.isfile(csv):
        _write(out_tex, NO_TRACE)
        return
    rows = csvio.read(csv).rows
    if not rows:
        raise TableError('timeline: no steps')
    _write(out_tex, _timeline(rows))


def _timeline(rows):
    fs, ls, tmax = [], [], 0.0
    for r in rows:
        if r['flow'] not in fs:
            fs.append(r['flow'])
        if r['lane'] not in ls:
            ls.append(r['lane'])
        if num(r['end_ms']) > tmax:
            tmax = num(r['end_ms'])
    # the time axis is 9.4 cm, less where the lanes' names are long: a
    # name takes about 0.19 cm a character at this size, and the picture
    # must stay within the HTML book's column at 1.55 times its size
    # (tests/figure-tests.sh: at most 552 pt there, 356 pt here)
    longest = max(len(lane) for lane in ls)
    W, H, gap = min(9.4, 11.3 - 0.19 * longest), 0.42, 0.6
    # (gap: room for the next flow's name)
    col = ['0072B2', '009E73', 'D55E00']
    # a tick every 1, 2 or 5 times a power of ten, about 6 of them
    step = _pow10(_log(tmax / 6) / math.log(10))
    if _div(tmax, step) > 30:
        step *= 5
    elif _div(tmax, step) > 12:
        step *= 2
    x = _div(W, tmax)
    o = ['\\begin{tikzpicture}[font=\\footnotesize]\n']
    o += ['\\definecolor{lane%d}{HTML}{%s}\n' % (i, col[(i - 1) % 3])
          for i in range(1, len(ls) + 1)]
    y, lane_y = 0, {}
    for f in fs:
        o.append('\\node[anchor=south west, font=\\footnotesize\\bfseries] '
                 'at (0,%.3f) {%s};\n' % (y + 0.05, tex(f)))
        for lane in ls:
            y -= H
            lane_y[f, lane] = y
            mid = y + H / 2 - 0.04
            o.append('\\node[anchor=east] at (-0.1,%.3f) {%s};\n'
                     % (mid, tex(lane)))
            o.append('\\draw[black!15] (0,%.3f) -- (%.3f,%.3f);\n'
                     % (mid, W, mid))
        y -= gap
    o += [_step(r, ls, lane_y, x, H) for r in rows]
    o.append('\\draw[->] (0,%.3f) -- (%.3f,%.3f) node[right] {ms};\n'
             % (y + 0.1, W + 0.3, y + 0.1))
    t = 0.0
    while t <= tmax + 1e-9:
        o.append('\\draw (%.4f,%.3f) -- (%.4f,%.3f) node[below] {%g};\n'
                 % (t * x, y + 0.1, t * x, y + 0.02, t))
        t += step
    o.append('\\end{tikzpicture}\n')
    return ''.join(o)


def _pow10(e):
    """awk's 10 ^ int(e): an integral power by repeated squaring."""
    n = int(e) if math.isfinite(e) else 0
    if n == 0:
        return 1.0
    return ipow(10.0, n) if n > 0 else 1.0 / ipow(10.0, -n)


def _step(r, ls, lane_y, x, H):
    """One step's bar (darker for a step of no panel, marked B if wide)."""
    li = 0
    for i, lane in enumerate(ls, 1):
        if _eq(lane, r['lane']):
            li = i
    yy = lane_y[r['flow'], r['lane']]
    s, e, loose = num(r['start_ms']), num(r['end_ms']), _lt(r['panel'], 0)
    o = ('\\filldraw[draw=white, line width=0.2pt, fill=lane%d%s] '
         '(%.4f,%.3f) rectangle (%.4f,%.3f);\n'
         % (li, '!55!black' if loose else '', s * x, yy + 0.04, e * x,
            yy + H - 0.12))
    if loose and (e - s) * x > 0.3:
        o += ('\\node[white, font=\\scriptsize] at (%.4f,%.3f) {$B$};\n'
              % ((s + e) / 2 * x, yy + H / 2 - 0.04))
    return o


# -- in the pipeline's order ---------------------------------------

def _rm(pattern):
    for f in glob.glob(pattern):
        os.remove(f)


def run_tables(keys, out, res, chapters, man):
    """The suite, timeline and sweep of each chapter, as book/tools/results
    made them: man is the manifest table (bookdata.manifest.read_tsv),
    res the results folder ("" if none).  A suite's keys go to keys, in
    results.keys and results.raw alike (before the formulas, which use
    them); the figures need no key."""
    suite_keys(keys, out, res, chapters, man)
    figures(out, res, chapters, man)


def suite_keys(keys, out, res, chapters, man):
    """The suites of the chapters whose manifest names one (field suite)
    and that were measured: their files, and their keys added to keys.
    One that fails leaves no keys, as a stage of the pipeline."""
    _rm(os.path.join(out, 'res', 'suite-ch*.tex'))
    _rm(os.path.join(out, 'res', 'bound-ch*.tex'))
    for n in map(str, chapters):
        sf = man.get((n, 'suite'), '')
        if not (sf and res and os.path.isfile(
                os.path.join(res, 'suite-ch%s.csv' % n))):
            continue
        try:
            kv = suite(n, sf, res, out)
        except TableError:
            continue
        for k, v in kv:
            keys.plain(k, v)
        if man.get((n, 'validation'), ''):
            for part in ('validation', 'tuning'):
                try:
                    kv = validation(n, res, part)
                except TableError:
                    continue
                for k, v in kv:
                    keys.plain(k, v)
            try:
                kv = bound(n, res, out)
            except TableError:
                kv = []
            for k, v in kv:
                keys.plain(k, v)


def figures(out, res, chapters, man):
    """The timelines (chapters with a field events; TableError, which
    stopped book/tools/results, for a trace without steps) and the tuning
    sweeps (a sweep without rows leaves no files)."""
    chapters = [str(n) for n in chapters]
    _rm(os.path.join(out, 'res', 'timeline-ch*.tex'))
    for n in chapters:
        if man.get((n, 'events'), ''):
            timeline(os.path.join(res, 'events-ch%s.csv' % n) if res else '',
                     os.path.join(out, 'res', 'timeline-ch%s-plot.tex' % n))
    _rm(os.path.join(out, 'res', 'sweep-ch*.tex'))
    for n in chapters:
        csv = os.path.join(res, 'sweep-ch%s.csv' % n) if res else ''
        if not (csv and os.path.isfile(csv)):
            continue
        tex_, plot = (os.path.join(out, 'res', 'sweep-ch%s%s.tex' % (n, x))
                      for x in ('', '-plot'))
        try:
            sweep(csv, tex_, plot)
        except TableError:
            for f in (tex_, plot):
                if os.path.exists(f):
                    os.remove(f)
