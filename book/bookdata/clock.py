"""bookdata.clock: what the GPU's clock did while a product was timed.

book/tools/clock-experiment logs the SM clock and the power with
nvidia-smi every 20 ms while it runs, a few seconds apart, chapter 14's
3xTF32 product at 4096^3 as the harness times it (back to back), the
same with --reps 17, and libspeed.  It leaves in a folder:

    clock.csv     nvidia-smi's log: timestamp, clocks.sm [MHz], power.draw [W]
    marks.txt     "mark NAME HH:MM:SS.frac", one line as each run starts,
                  and "mark end ..." after the last
    NAME.txt      each run's output: ./ch14's table or libspeed's
    about.txt     gpu=, date=, commit=, code_hash= (chapter 14's), a line each

`summary(folder)` turns them into one row a run (clock-chN.csv): the
product's time, read from the run's own output, and the clock over the
run's stretch of the log.  A sample counts as the GPU at work where its
clock is at least WORKING of the highest clock in the log: the H200 idles
at 345 to 1005 MHz between runs (the log of results/nvidia-h200/
clock-ch14/), and works at 1500 MHz or more.
"""
import os

WORKING = 0.75      # of the top clock: at work, not idling (see above)
LOW = 0.95          # of the top clock: a reading this low or lower is
                    # a lowered clock, not the boost clock's small steps
                    # (1965 and 1920 MHz beside 1980 in the H200's log)

COLUMNS = ['name', 'what', 'ms', 'top_mhz', 'clock_min_mhz',
           'clock_median_mhz', 'below_top_pct', 'power_max_w', 'samples',
           'low_ms',
           'gpu', 'date', 'commit', 'code_hash']

# the product each run's output is read for, and how
WHAT = {
    'default': "./ch14 -m 4096 -n 4096 -k 4096 --kernel 3xtf32",
    'reps17': "./ch14 -m 4096 -n 4096 -k 4096 --kernel 3xtf32 --reps 17",
    'libspeed': "./libspeed (hopper_3xtf32_4096, else ampere_3xtf32_4096)",
}


class ClockError(Exception):
    pass


def _seconds(clock):
    h, m, s = clock.split(':')
    return int(h) * 3600 + int(m) * 60 + float(s)


def _ms(name, text):
    """The 3xTF32 product's time at 4096^3 in a run's output."""
    rows = {}
    for line in text.splitlines():
        f = line.split()
        if name == 'libspeed':
            if len(f) >= 3 and f[2] == 'ms':
                rows[f[0]] = f[1]
        elif (len(f) >= 6 and f[:3] == ['4096', '4096', '4096']
              and f[3] == '3xtf32'):
            return f[5]
    # Hopper's kernels where the GPU has them, else Ampere's
    for row in ('hopper_3xtf32_4096', 'ampere_3xtf32_4096'):
        if row in rows:
            return rows[row]
    raise ClockError('%s.txt: no time of the 3xTF32 product at 4096^3' % name)


def _log(path):
    """[(seconds of the day, MHz, W)] from nvidia-smi's CSV."""
    out = []
    with open(path) as f:
        for line in f.read().splitlines()[1:]:
            p = [x.strip() for x in line.split(',')]
            if len(p) < 3 or ' ' not in p[0]:
                continue
            try:
                out.append((_seconds(p[0].split()[1]), int(p[1].split()[0]),
                            float(p[2].split()[0])))
            except (ValueError, IndexError):
                continue
    if not out:
        raise ClockError('%s: no sample of the clock' % path)
    return out


def _marks(path):
    marks = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) == 3 and p[0] == 'mark':
                marks.append((p[1], _seconds(p[2])))
    if len(marks) < 2 or marks[-1][0] != 'end':
        raise ClockError('%s: no runs, or no "mark end" after them' % path)
    return marks


def summary(folder):
    """The rows of clock-chN.csv, as dicts of text, a run each."""
    log = _log(os.path.join(folder, 'clock.csv'))
    marks = _marks(os.path.join(folder, 'marks.txt'))
    top = max(c for _, c, _ in log)
    about = {}
    with open(os.path.join(folder, 'about.txt')) as f:
        for line in f:
            k, _, v = line.strip().partition('=')
            about[k] = v
    # the log's step: nvidia-smi's -lms, read back as the median gap
    gaps = sorted(b[0] - a[0] for a, b in zip(log, log[1:]) if b[0] > a[0])
    step = gaps[len(gaps) // 2] if gaps else 0
    rows = []
    for (name, t0), (_, t1) in zip(marks, marks[1:]):
        with open(os.path.join(folder, name + '.txt')) as f:
            ms = _ms(name, f.read())
        s = [(c, w) for t, c, w in log if t0 <= t < t1]
        work = sorted(c for c, _ in s if c >= WORKING * top)
        if not work:
            raise ClockError('%s: the GPU never worked in its stretch' % name)
        rows.append({
            'name': name, 'what': WHAT.get(name, name), 'ms': ms,
            'top_mhz': str(top), 'clock_min_mhz': str(work[0]),
            'clock_median_mhz': str(work[len(work) // 2]),
            'below_top_pct': '%.1f' % (100 * sum(c < top for c in work)
                                       / len(work)),
            'power_max_w': '%.0f' % max(w for _, w in s),
            'samples': str(len(work)),
            'low_ms': '%.0f' % (1000 * step * sum(c <= LOW * top for c in work))})
        for c in ('gpu', 'date', 'commit', 'code_hash'):
            rows[-1][c] = about.get(c, '')
    return rows


def csv_text(rows):
    def q(v):
        return '"%s"' % v if (',' in v or ' ' in v) else v
    return '\n'.join([','.join(COLUMNS)] + [
        ','.join(q(r[c]) for c in COLUMNS) for r in rows]) + '\n'
