"""Several runs of one measurement, as one row.

make bench times every chapter's programs in several separate processes
(BENCH_RUNS, passes through the chapters in turn) and keeps each run's
rows, with the column run.  A figure moves more between processes than
within one (other kernels' clocks, the memory's state, the library's
choices), so the book quotes the median of the runs and a spread that
covers both: the larger of the within-run spread (half the
interquartile range of the timed repetitions, the median of the runs'
own) and the between-run spread (half the range of the runs' medians),
each in % of the median.

merge(rows) gives one row per measurement: the rows of a file without
the column run, or with one run, come back as they are.  Of several
runs, every figure is the median run's text (the median of three is one
of the three), each one chosen on its own: the time and its rate by the
time, cuBLAS's by cuBLAS's time, the ratio by the ratio, since each run
compares with its own cuBLAS; the error is the largest, the check the
first that is not "ok".  The quartile columns are rewritten so that
half their range is the spread above; the columns runs and
pct_cublas_spread (half the range of the runs' ratios, in % of their
median) are added.

merge_micro(rows) does the same for a microbenchmark's file (one row
per name): a time's row is the median run by its time, its quartiles
rewritten to the larger spread as above; a rate's row (tflops with
tflops_min and tflops_max, the fastest and slowest launch of a run)
is the median run by its rate, with the slowest and fastest launch of
all the runs.  Its column runs (repetitions inside a process) stays;
processes says how many runs there were.
"""
from .awk import num
from .csvio import Row

# What makes two rows one measurement (a later row of the same kernel
# and size still wins over an earlier one, as with a single run).
_SAME = ('chapter', 'kernel', 'm', 'n', 'k', 'alpha', 'beta', 'emulated')


def _median_row(rows, col):
    """The row whose col is the median (the upper one of an even
    count)."""
    return sorted(rows, key=lambda r: num(r[col]))[len(rows) // 2]


def _half_range_pct(values, mid):
    return 50 * (max(values) - min(values)) / mid if mid > 0 else 0.0


def _within_pct(rows, col, q1, q3):
    s = [50 * (num(r[q3]) - num(r[q1])) / num(r[col])
         for r in rows if r[q3] != '' and num(r[col]) > 0]
    return sorted(s)[len(s) // 2] if s else 0.0


def spread(rows, col, q1, q3):
    """The spread of col over the runs, in % of their median: the larger
    of the within-run and between-run spreads."""
    mid = num(_median_row(rows, col)[col])
    return max(_within_pct(rows, col, q1, q3),
               _half_range_pct([num(r[col]) for r in rows], mid))


def _one(rows):
    out = Row(_median_row(rows, 'ms'))
    for col in ('cublas_ms', 'cublas_tflops'):
        out[col] = _median_row(rows, 'cublas_ms')[col]
    out['pct_cublas'] = _median_row(rows, 'pct_cublas')['pct_cublas']
    for col in ('error', 'max_error'):
        if all(r[col] != '' for r in rows):
            out[col] = max(rows, key=lambda r: num(r[col]))[col]
    bad = [r['check'] for r in rows if r['check'] != 'ok']
    out['check'] = bad[0] if bad else out['check']
    for col, q1, q3 in (('ms', 'ms_q1', 'ms_q3'),
                        ('cublas_ms', 'cublas_ms_q1', 'cublas_ms_q3')):
        if out[col] == '' or num(out[col]) <= 0:
            continue
        s = spread(rows, col, q1, q3)
        out[q1] = '%.6g' % (num(out[col]) * (1 - s / 100))
        out[q3] = '%.6g' % (num(out[col]) * (1 + s / 100))
    pct = [num(r['pct_cublas']) for r in rows if r['pct_cublas'] != '']
    if pct:
        out['pct_cublas_spread'] = '%.2f' % _half_range_pct(
            pct, num(out['pct_cublas']))
    out['runs'] = str(len(rows))
    return out


def merge(rows, also=()):
    """One row per measurement, in the order of their first rows; also:
    more columns that tell measurements apart (a worked answer's answer,
    use and options)."""
    if len({r['run'] for r in rows if r['run'] != ''}) < 2:
        return list(rows)
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r[c] for c in _SAME + tuple(also)),
                          []).append(r)
    return [g[0] if len(g) == 1 else _one(g) for g in groups.values()]


def _one_micro(rows):
    if all(r['ms'] != '' for r in rows):
        out = Row(_median_row(rows, 'ms'))
        if num(out['ms']) > 0 and all(r['ms_q3'] != '' for r in rows):
            s = spread(rows, 'ms', 'ms_q1', 'ms_q3')
            out['ms_q1'] = '%.6g' % (num(out['ms']) * (1 - s / 100))
            out['ms_q3'] = '%.6g' % (num(out['ms']) * (1 + s / 100))
    else:
        out = Row(_median_row(rows, 'tflops'))
        if all(r['tflops_min'] != '' for r in rows):
            out['tflops_min'] = min(rows, key=lambda r: num(r['tflops_min']))[
                'tflops_min']
            out['tflops_max'] = max(rows, key=lambda r: num(r['tflops_max']))[
                'tflops_max']
    bad = [r['check'] for r in rows if r['check'] not in ('ok', '-', '')]
    if bad:
        out['check'] = bad[0]
    out['processes'] = str(len(rows))
    return out


def merge_micro(rows, also=()):
    """One row per name of a microbenchmark's file (also: as merge's)."""
    if len({r['run'] for r in rows if r['run'] != ''}) < 2:
        return [Row(r, processes='1') for r in rows]
    groups = {}
    for r in rows:
        groups.setdefault((r['chapter'], r['name'])
                          + tuple(r[c] for c in also), []).append(r)
    return [g[0] if len(g) == 1 else _one_micro(g) for g in groups.values()]


# The files whose rows are timed figures, and what tells one figure from
# another in each: a worked answer's rows of use "check" (correctness at
# small shapes) and "repeat" (an exercise about one process's
# repetitions) are not figures of several runs.
_TIMED = (('ch*.csv', _SAME), ('sweep-ch*.csv', _SAME + ('config',)),
          ('suite-ch*.csv', _SAME + ('entry',)),
          ('validation-ch*.csv', _SAME + ('entry',)),
          ('tuning-ch*.csv', _SAME + ('entry',)),
          ('emulated-ch*.csv', _SAME), ('micro-ch*.csv', ('chapter', 'name')),
          ('answers-ch*.csv', _SAME + ('answer', 'use', 'options')),
          ('answers-micro-ch*.csv', ('chapter', 'name', 'answer', 'options')))
_ONE_PROCESS = ('check', 'repeat')


def short(folder, least=3):
    """The timed figures of a results folder measured in fewer than
    least runs, as 'FILE: KEY... (N runs)' lines (a file of timed rows
    without the column run: one line for the file)."""
    import glob
    import os
    from .csvio import read
    out = []
    for pattern, same in _TIMED:
        for path in sorted(glob.glob(os.path.join(folder, pattern))):
            table = read(path)
            timed = [r for r in table if r['use'] not in _ONE_PROCESS]
            if not timed or not (table.has('ms') or table.has('tflops')):
                continue          # no timed row (checks, or counts)
            if not table.has('run'):
                out.append('%s: no column run' % os.path.basename(path))
                continue
            keys = [c for c in same if table.has(c)]
            seen = {}
            for r in timed:
                seen.setdefault(tuple(r[c] for c in keys), set()).add(r['run'])
            for key, runs in seen.items():
                if len(runs) < least:
                    out.append('%s: %s (%d run%s)' % (
                        os.path.basename(path), ' '.join(k for k in key if k),
                        len(runs), '' if len(runs) == 1 else 's'))
    return out
