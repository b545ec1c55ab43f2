"""The measurements and the compiler's facts as result keys, tables and
the progress chart: the first stage of bookdata keys.

measured(keys, out, res, chapters, man, hashes) reads res/ceilings.csv,
res/chN.csv and out/ptxas-P.csv, fills keys (ceil.*, chN.KERNEL.SIZE.*,
chN.KERNEL.registers ..., gpu.*, chN.stale) and writes
out/res/table-chN.tex (one booktabs table per chapter; table-chN-html.tex
the same, never split in two, for the HTML book),
out/res/progress-plot.tex and out/res/progress.tex.

Fields stay text, as awk keeps them; where awk compares two fields it
compares them as numbers when both look like numbers, else as text
(_eq, awk.gt).  A row whose code_hash is not its chapter's current hash
is stale: its table marks it with a dagger.
"""
import os
import re

from . import csvio, runs
from . import keys as K
from .awk import gt, isnum, looks_numeric, num, numstr, tex
from .charts import chart_color, chart_colors, chart_mark, chart_open, \
    chart_ticks, power

_NOT_MEASURED = re.compile(r'^(driver|cuda|date|commit|code_hash|gpu)$')
_IDENT = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')
_PTXAS_FIELDS = ('registers', 'smem_bytes', 'stack_bytes', 'spill_stores',
                 'spill_loads')
GPU_FIELDS = ('name', 'sms', 'clock_mhz', 'driver', 'cuda')


def _eq(a, b):
    """awk's a == b between two fields: as numbers when both look like
    numbers ("4096" == "4096.0"), else as text."""
    if looks_numeric(a) and looks_numeric(b):
        return num(a) == num(b)
    return numstr(a) == numstr(b)


def _later(d, cur):
    """awk's d > cur, cur None while unset (awk's uninitialized value,
    which compares as 0 with a number and as "" with text)."""
    if cur is None:
        cur = 0 if looks_numeric(d) else ''
    return gt(d, cur)


def _sizetex(m, n, k):
    if _eq(m, n) and _eq(n, k):
        return '$%s^3$' % m
    return '$%s\\times%s\\times%s$' % (m, n, k)


def spread_pct(ms, q1, q3):
    """Half the interquartile range of the timed runs, in % of their
    median (the tables' column +-)."""
    return 50 * (num(q3) - num(q1)) / num(ms)


class _State:
    """What the awk program keeps between rows."""

    def __init__(self, chapters, man, hashes):
        self.chapters, self.man = chapters, man
        self.hashes = {str(c): h for c, h in hashes.items() if h}
        self.gpu = {}
        self.lastdate = None
        self.rows = {}        # ch -> [id], ids (ch, kern, m, n, k) in order
        self.cell = {}        # id -> {'spread', 'prec', 'noise', ...}
        self.mixed, self.stale, self.seen = set(), set(), {}
        self.chdate, self.library = {}, set()
        self.runs = {}        # ch -> the most runs of one of its rows


def _files(out, res, chapters, man):
    """The input files, in the order the shell passed them to gawk."""
    files = []
    if res and os.path.isfile(res + '/ceilings.csv'):
        files.append(res + '/ceilings.csv')
    for n in chapters:
        if res and os.path.isfile('%s/ch%s.csv' % (res, n)):
            files.append('%s/ch%s.csv' % (res, n))
    for n in chapters:
        for p in man.get((n, 'programs'), '').split():
            if os.path.isfile('%s/ptxas-%s.csv' % (out, p)):
                files.append('%s/ptxas-%s.csv' % (out, p))
    return files


def _set_gpu(st, r):
    for f in GPU_FIELDS:
        st.gpu[f] = r[f if f != 'name' else 'gpu']


def _ceilings(st, keys, t, r):
    """ceil.NAME for every number of res/ceilings.csv, and the ridge."""
    # awk walks the columns with for (c in CSV_COL), in no fixed order;
    # this walks them in the file's order
    for name in dict.fromkeys(t.columns):
        v = r[name]
        if not _NOT_MEASURED.match(name) and isnum(v):
            keys.put(K.family('ceil', name), v,
                     'int' if re.match(r'^[0-9]+$', v) else 'sig3')
    _set_gpu(st, r)
    if gt(r['copy_tbs'], 0):
        keys.put(K.family('ceil', 'ridge'), num(r['peak_fp32_tflops']) / num(r['copy_tbs']))


def _ptxas(keys, path, r):
    """chN.KERNEL.registers and the like, from out/ptxas-P.csv."""
    ch = re.sub(r'.*ptxas-ch', '', path, count=1)
    ch = re.sub(r'[^0-9].*$', '', ch, count=1, flags=re.S)
    who = r['kernel']
    if who == '':
        who = r['function']
        if not _IDENT.match(who):
            return
    for f in _PTXAS_FIELDS:
        keys.put(K.chapter(ch, who, f), r[f], 'int')


def _cublas_spread(r):
    if r['cublas_ms_q3'] != '' and gt(r['cublas_ms'], 0):
        return spread_pct(r['cublas_ms'], r['cublas_ms_q1'], r['cublas_ms_q3'])
    return None


def _sig(text):
    """How many significant digits a field's text has."""
    d = re.sub(r'[^0-9]', '', text.split('e')[0].split('E')[0]).lstrip('0')
    return len(d)


def _row_keys(keys, p, r):
    """chN.KERNEL.SIZE.*: the row's numbers, raw and formatted.  A rate
    printed with fewer than three significant digits (the CPU's,
    0.0013) is computed from the time instead, as the book prints three."""
    keys.put(p + 'ms', r['ms'])
    if _sig(r['tflops']) < 3 and gt(r['ms'], 0):
        keys.put(p + 'tflops', 2 * num(r['m']) * num(r['n']) * num(r['k'])
                 / (num(r['ms']) * 1e9))
    else:
        keys.put(p + 'tflops', r['tflops'])
    keys.put(p + 'cublas_ms', r['cublas_ms'])
    keys.put(p + 'cublas_tflops', r['cublas_tflops'])
    keys.put(p + 'pct_cublas', r['pct_cublas'], 'pct')
    if r['pct_peak'] != '':
        keys.put(p + 'pct_peak', r['pct_peak'], 'pct')
    keys.put(p + 'error', r['error'], 'err')
    if r['max_error'] != '':
        keys.put(p + 'max_error', r['max_error'], 'err')
    if gt(r['setup_ms'], 0):
        keys.put(p + 'setup_ms', r['setup_ms'])
    if r['runs'] != '':
        keys.put(p + 'runs', r['runs'], 'int')
        keys.put(p + 'pct_cublas_spread_pct', r['pct_cublas_spread'], '%.1f')


def _noise(r, c, prec, m, n, k):
    """Faster than cuBLAS in the same precision by less than the times
    vary: below 2048^3 always (cuBLAS's own time varies more), above by
    less than the two spreads of this run."""
    base = r['baseline']
    same = base == 'cublas_' + prec or (base == 'cublas' and prec == 'fp32')
    if not (num(r['pct_cublas']) > 100 and same):
        return False
    if num(m) * num(n) * num(k) < power(2048, 3):
        return True
    # awk's cell[id, "spread"] here creates the cell when the row has no
    # quartiles: the table then prints 0.0 for it, not ---
    c.setdefault('spread', 0)
    cs = _cublas_spread(r)
    return num(r['pct_cublas']) - 100 < c['spread'] + (0 if cs is None else cs)


def _row(st, keys, r):
    """A results/<gpu>/chN.csv row; a later row for the same kernel and
    size wins."""
    ch, kern, m, n, k = r['chapter'], r['kernel'], r['m'], r['n'], r['k']
    rid = (ch, kern, m, n, k)
    if rid not in st.cell:
        st.rows.setdefault(ch, []).append(rid)
        st.cell[rid] = {}
    c = st.cell[rid]
    p = K.chapter(ch, kern, K.size(m, n, k)) + '.'
    _row_keys(keys, p, r)
    if r['ms_q3'] != '' and gt(r['ms'], 0):
        c['spread'] = spread_pct(r['ms'], r['ms_q1'], r['ms_q3'])
        keys.put(p + 'spread_pct', c['spread'], '%.1f')
    cs = _cublas_spread(r)
    if cs is not None:
        keys.put(p + 'cublas_spread_pct', cs, '%.1f')
    prec = r['precision'] or 'fp32'
    c['prec'] = prec
    if prec != 'fp32':
        st.mixed.add(ch)
    c['noise'] = _noise(r, c, prec, m, n, k)
    c['tflops'], c['check'] = r['tflops'], r['check']
    c['cublas_tflops'], c['base'] = r['cublas_tflops'], r['baseline']
    if r['runs'] != '':
        st.runs[ch] = max(st.runs.get(ch, 1), int(r['runs']))
    # a hash that looks like a number compares as one, as in awk
    c['stale'] = ch in st.hashes and not _eq(r['code_hash'], st.hashes[ch])
    if c['stale']:
        st.stale.add(ch)
    if _later(r['date'], st.chdate.get(ch)):
        st.chdate[ch] = r['date']
    if 'name' not in st.gpu:
        _set_gpu(st, r)
    if _eq(kern, r['baseline']):
        st.library.add((ch, kern))      # cuBLAS itself
    st.seen[ch] = 1


def _read(st, keys, files):
    # awk's fields of a line with a double quote (Nsight Compute's style)
    # are text even where they look numeric; csvio does not say which
    # lines had one, so they compare as numbers here.  No chN.csv or
    # ceilings.csv has quotes, and only the ptxas files' names do, whose
    # fields this stage formats but never compares.
    for path in files:
        t = csvio.read(path)
        rows = t.rows
        if re.search(r'/ch[0-9]+\.csv$', path):
            rows = runs.merge(rows)     # several runs: one row each
        for r in rows:
            if _later(r['date'], st.lastdate):
                st.lastdate = r['date']
            if re.search(r'ceilings\.csv$', path):
                _ceilings(st, keys, t, r)
            elif re.search(r'ptxas-[^/]*\.csv$', path):
                _ptxas(keys, path, r)
            else:
                _row(st, keys, r)


# ---- the tables ----------------------------------------------------------

_PLACEHOLDER = (
    '\\begin{table}[htbp]\n\\centering\n'
    '\\caption{Chapter %s: not measured on this GPU; \\texttt{make bench} measures it.}'
    '\\label{tab:ch%s}\n'
    '\\begin{tabular}{c}\n\\toprule\n\\textbf{[not measured]} \\\\\n\\bottomrule\n'
    '\\end{tabular}\n\\end{table}\n')
_SPREAD_NOTE = (' $\\pm$: half the interquartile range of the timed runs, '
                'in \\% of the median time.')
_RUNS_NOTE = (' Each figure is the median of %d runs, separate processes; '
              '$\\pm$: the larger of half the interquartile range of the '
              'timed repetitions within a run and half the range of the '
              'runs, in \\%% of the median time. The \\%% of cuBLAS is '
              'the median of the runs\' own ratios, each run beside its own '
              'cuBLAS, so it need not be the ratio of the two medians.')
_NOISE_NOTE = (
    ' $^\\ddagger$\\,Faster than cuBLAS by less than the times vary: below '
    '$2048^3$ the time of cuBLAS itself varies more than that from run to '
    'run (chapter~0), above by less than the spread of the two; the '
    'comparison says little about either.')
_STALE_NOTE = (' $^\\dagger$\\,Measured on older code; re-run '
               '\\texttt{make bench}.')
_END = '\\bottomrule\n\\end{tabular}\n\\end{table}\n'


def _head(pc, kl, nonsq, spreads):
    size = ('\\scriptsize' if pc and kl > 10 and nonsq else
            '\\footnotesize' if pc else '\\small')
    sep = '1.5pt' if pc and kl > 12 else '1.8pt' if pc and kl > 10 else '3.5pt'
    return (size + '\\setlength\\tabcolsep{' + sep + '}\n\\begin{tabular}{l'
            + ('l' if pc else '') + 'lrr' + ('r' if spreads else '')
            + 'rrrl}\n\\toprule\nkernel & ' + ('precision & ' if pc else '')
            + '$M\\times N\\times K$ & ms & '
            + ('\\tabhead{}{$\\pm$\\%} & ' if spreads else '')
            + 'TFLOP/s & \\tabhead{cuBLAS}{TFLOP/s} & '
            '\\tabhead{\\% of}{cuBLAS} & error & verified \\\\\n\\midrule\n')


def _kernels(ids):
    """The kernels in the order they first appear, and their row counts."""
    kord, krows = [], {}
    for rid in ids:
        if rid[1] not in krows:
            kord.append(rid[1])
        krows[rid[1]] = krows.get(rid[1], 0) + 1
    return kord, krows


def _cut(ids, kord, krows):
    """More rows than a page holds: the kernel (1-based) that starts a
    second table, cut between kernels near the middle; 0 for none."""
    if len(ids) <= 60:
        return 0
    acc = 0
    for kk, kern in enumerate(kord, 1):
        acc += krows[kern]
        if acc >= len(ids) / 2 and kk < len(kord):
            return kk + 1
    return 0


def _line(st, keys, rid, pc, spreads):
    ch, kern, m, n, k = rid
    c = st.cell[rid]
    p = K.chapter(ch, kern, K.size(m, n, k)) + '.'
    mark = '$^\\dagger$' if c['stale'] else ''
    ck = '\\textbf{FAIL}' if c['check'] == 'FAIL' else tex(c['check'])
    sp = '%.1f' % c['spread'] if 'spread' in c else '---'
    sp = sp + ' & ' if spreads else ''
    over = '$^\\ddagger$' if c['noise'] else ''
    return '%s%s & %s%s & %s & %s%s & %s & %s%s & %s & %s \\\\\n' % (
        tex(kern), mark, c['prec'] + ' & ' if pc else '', _sizetex(m, n, k),
        keys.get(p + 'ms'), sp, keys.get(p + 'tflops'),
        keys.get(p + 'cublas_tflops'), keys.get(p + 'pct_cublas'), over,
        keys.get(p + 'error'), ck)


def _caption(st, ch, ids):
    name, date = tex(st.gpu['name']), st.chdate.get(ch) or ''
    s = '\\caption{Chapter %s measured on the %s, %s.' % (ch, name, date)
    if any('spread' in st.cell[i] for i in ids):
        s += _SPREAD_NOTE if st.runs.get(ch, 1) < 2 else \
            _RUNS_NOTE % st.runs[ch]
    if any(st.cell[i]['noise'] for i in ids):
        s += _NOISE_NOTE
    if ch in st.stale:
        s += _STALE_NOTE
    return s + '}\\label{tab:ch%s}\n' % ch


def table(st, keys, ch, split=True):
    """The text of res/table-chN.tex; split=False: of table-chN-html.tex,
    one table where the PDF's runs over a page (_cut) and goes on in a
    second (a page of HTML has no page to fill)."""
    if ch not in st.seen:       # keeps \ref{tab:resultsN} working
        return _PLACEHOLDER % (ch, ch)
    ids = st.rows[ch]
    kl = max(len(i[1]) for i in ids)
    nonsq = any(not (_eq(i[2], i[3]) and _eq(i[3], i[4])) for i in ids)
    spreads = any('spread' in st.cell[i] for i in ids)
    head = _head(ch in st.mixed, kl, nonsq, spreads)
    s = '\\begin{table}[htbp]\n\\centering\n' + _caption(st, ch, ids) + head
    kord, krows = _kernels(ids)
    cut = _cut(ids, kord, krows)
    name, date = tex(st.gpu['name']), st.chdate.get(ch) or ''
    for kk, kern in enumerate(kord, 1):
        ruled = False
        for rid in ids:
            # awk compares the kernel names as fields (_eq), so kernels
            # "1" and "1.0" would share their rows
            if not _eq(rid[1], kern):
                continue
            if split and kk == cut and not ruled:
                s += (_END + '\\begin{table}[htbp]\\ContinuedFloat\n'
                      '\\centering\n\\caption{Chapter %s measured on the '
                      '%s, %s (continued).}\n' % (ch, name, date) + head)
                ruled = True
            if kk > 1 and not ruled:
                s += '\\midrule\n'
                ruled = True
            s += _line(st, keys, rid, ch in st.mixed, spreads)
    return s + _END


# ---- the progress chart --------------------------------------------------

def _series(st, ch, kern, xs, yr, field='tflops'):
    """{size text: TFLOP/s text} of the headline kernel's square sizes
    (field cublas_tflops: of cuBLAS in the same run); adds the sizes to
    xs and widens yr, [ymin, ymax], row by row."""
    pt = {}
    for rid in st.rows.get(ch, []):
        _, kn, m, n, k = rid
        tf = st.cell[rid].get(field, '')
        if not _eq(kn, kern) or not (_eq(m, n) and _eq(n, k)) \
                or not gt(tf, 0):
            continue
        pt[m], xs[m] = tf, 1
        yr[0], yr[1] = min(yr[0], num(tf)), max(yr[1], num(tf))
    return pt


def _ind_num_asc(keys):
    # gawk's asorti(..., "@ind_num_asc"): by value, ties by the text
    return sorted(keys, key=lambda s: (num(s), s))


# The panels of the progress chart: a precision each, as the kernels'
# inputs are rounded (FP32 and 3xTF32 both give FP32's accuracy, and are
# compared with cuBLAS in FP32).
PANELS = (('fp32', ('fp32', 'fp32_3xtf32'), 'FP32 accuracy'),
          ('tf32', ('tf32',), 'TF32 inputs'),
          ('bf16', ('bf16',), 'BF16 inputs'))


def _headline_prec(st, ch, kern):
    for rid in st.rows.get(ch, []):
        if _eq(rid[1], kern):
            return st.cell[rid].get('prec', 'fp32')
    return 'fp32'


def _coords(pt):
    return ''.join(' (@x%s@,%s)' % (m, pt[m]) for m in _ind_num_asc(pt))


def _plots(st):
    """{panel: [the \\addplot lines (x as @xSIZE@, replaced later), the
    range of y]} and the sizes.  A panel of reduced precision draws its
    chapter's cuBLAS in that precision too (measured in the same run)."""
    panels, xs = {}, {}
    for ch in st.chapters:
        kern = st.man.get((ch, 'headline'), '')
        if ch not in st.seen or kern == '':
            continue
        prec = _headline_prec(st, ch, kern)
        panel = next((p for p, precs, _ in PANELS if prec in precs), 'fp32')
        plots, yr = panels.setdefault(panel, ['', [1e30, 0]])
        pt = _series(st, ch, kern, xs, yr)
        if not pt:
            continue
        lib = (ch, kern) in st.library
        line = 'densely dashed' if chart_open(ch) else 'solid'
        style = 'black, thick, dashed, mark=none' if lib else \
            'color=%s, %s, %s' % (chart_color(ch), line, chart_mark(ch))
        plots += '\\addplot[%s] coordinates {%s};\n\\addlegendentry{%s}\n' % (
            style, _coords(pt), 'cuBLAS (ch0)' if lib else 'ch%s %s%s' % (
                ch, tex(kern), '$^\\dagger$' if ch in st.stale else ''))
        if panel != 'fp32':
            lib_pt = _series(st, ch, kern, xs, yr, 'cublas_tflops')
            if lib_pt:
                plots += ('\\addplot[black, thick, dashed, mark=none] coordinates {%s};\n'
                          '\\addlegendentry{cuBLAS, %s}\n' % (_coords(lib_pt), panel.upper()))
        panels[panel][0] = plots
    return {p: v for p, v in panels.items() if v[0]}, xs


def chart(st):
    """The text of res/progress-plot.tex: a panel per precision (FP32
    accuracy; TF32 inputs; BF16 inputs), one line per chapter (its
    headline kernel; for chapter 0, cuBLAS; in a panel of reduced
    precision, cuBLAS in that precision beside it) over the square
    sizes, at even steps along x; y logarithmic, each panel its own."""
    panels, xs = _plots(st)
    if not panels:
        return ('\\begin{tikzpicture}\\node[draw, align=center, '
                'inner sep=1em]{\\textbf{[not measured]} on this GPU:\\\\run '
                '\\texttt{make bench}.};\\end{tikzpicture}\n')
    xl = _ind_num_asc(xs)
    n = len(xl)
    out = '\\begin{tikzpicture}\n' + chart_colors()
    order = [p for p, _, _ in PANELS if p in panels]
    for j, p in enumerate(order):
        plots, (ymin, ymax) = panels[p]
        for i, m in enumerate(xl):
            plots = re.sub('@x' + m + '@', str(i), plots)
        ticks = chart_ticks(ymin, ymax)
        title = next(t for q, _, t in PANELS if q == p)
        main = j == 0
        if not main:
            # (a small panel: its decades alone, so that its labels keep apart)
            ticks = ','.join(t for t in ticks.split(',')
                             if re.match(r'^(0\.)?0*1(0*)$', t)) or ticks
        place = '' if main else (
            ', at={(main.south west)}, anchor=north west, yshift=-1.9cm'
            if j == 1 else ', at={(%s.north east)}, anchor=north west, xshift=1.9cm'
            % order[j - 1])
        out += ('\\begin{axis}[name=%s, width=%s, height=%s%s,\n'
                % ('main' if main else p, '9cm' if main else '5.2cm',
                   '7cm' if main else '4.4cm', place)
                + '  title={%s}, title style={font=\\footnotesize\\bfseries},\n' % title
                + '  xmin=-0.3, xmax=%s, xtick={0,...,%d}, xticklabels={%s},\n'
                % (numstr(n - 0.7), n - 1, ','.join(xl))
                + '  x tick label style={font=\\footnotesize%s},\n'
                % ('' if main else ', rotate=60, anchor=east')
                + '  ymode=log, ymin=%g, ymax=%g, ytick={%s}, yticklabels={%s},\n'
                % (ymin / 1.3, ymax * 1.3, ticks, ticks)
                + '  y tick label style={font=\\footnotesize},\n'
                + '  grid=major, major grid style={black!15},\n'
                + ('  xlabel={matrix size $n$, $m=n=k$ (evenly spaced)},\n'
                   if main else '')
                + '  ylabel={TFLOP/s (log scale)},\n'
                + '  legend cell align=left, legend style={font=\\footnotesize, '
                + ('row sep=-1pt, at={(1.03,1)}, anchor=north west}]\n'
                   if main else 'at={(0.5,-0.42)}, anchor=north, legend columns=2}]\n')
                + plots + '\\end{axis}\n')
    return out + '\\end{tikzpicture}\n'


def figure(st):
    """The text of res/progress.tex."""
    s = ('\\begin{figure}[htbp]\n\\centering\n\\includegraphics{progress}\n'
         '\\caption{Progress: TFLOP/s of the headline kernel of each chapter '
         'and of cuBLAS')
    if 'name' in st.gpu:
        s += ' on the %s, %s' % (tex(st.gpu['name']), st.lastdate or '')
        s += ('. A panel per precision: FP32 accuracy (FP32 and 3xTF32, '
              'beside cuBLAS in FP32), then TF32 and BF16 inputs, each beside '
              'cuBLAS in its precision in the same run')
    return s + '.}\\label{fig:progress}\n\\end{figure}\n'


def _write(path, text):
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def measured(keys, out, res, chapters, man, hashes):
    """Fill keys from the measurements and write the tables and the
    progress chart under out/res."""
    st = _State([str(c) for c in chapters], man, hashes)
    _read(st, keys, _files(out, res, st.chapters, man))
    # gawk's for (k in gpu) and for (ch in seen): any order; these keep
    # the order the values came in
    for k, v in st.gpu.items():
        keys.puttext(K.family('gpu', k), v)
    if st.lastdate not in (None, ''):
        keys.puttext(K.family('gpu', 'date'), st.lastdate)
    for ch in st.seen:
        keys.puttext(K.chapter(ch, 'stale'), 'yes' if ch in st.stale else 'no')
    os.makedirs(out + '/res', exist_ok=True)
    for ch in st.chapters:
        _write('%s/res/table-ch%s.tex' % (out, ch), table(st, keys, ch))
        _write('%s/res/table-ch%s-html.tex' % (out, ch), table(st, keys, ch, False))
    _write(out + '/res/progress-plot.tex', chart(st))
    _write(out + '/res/progress.tex', figure(st))
    return st
