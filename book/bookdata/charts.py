"""What the book's generated charts share, and the roofline chart.

One look per chapter, the same in every chart: chapter N >= 1 gets colour N-1 of 7 and mark N-1
of 13, so no pair of colour and mark repeats before chapter 92; odd
chapters have open marks, drawn larger than the filled ones of even
chapters.

  chart_colors()       \\definecolor lines for the colours chN uses
  chart_color(ch)      the colour's name
  chart_mark(ch)       "mark=..., mark size=..., mark options={solid}"
  chart_open(ch)       True if its mark is open (its line is dashed)
  chart_ticks(lo, hi)  "1,2,5,10,20,50": the 1-2-5 values around lo..hi

roofline(keys_text, outfile) makes res/roofline-plot.tex: the GPU's roofs and one point per chapter, each
labelled where it covers no other label, point or roof.
"""
import math
import os

from .awk import gt, ipow, num, numstr

COLOURS = '0072B2 E69F00 009E73 D55E00 56B4E9 CC79A7 8C6D1F'.split()
MARKS = ('square* o triangle* diamond pentagon* square *'
         ' triangle diamond* pentagon x + asterisk').split()


def power(x, y):
    """awk's x ^ y: an integral exponent by repeated squaring (as gawk
    computes it), any other with pow()."""
    x, y = float(x), float(y)
    if y != int(y) or abs(y) > 2 ** 62:
        return math.pow(x, y)
    n = abs(int(y))
    if n == 0:
        return 1.0
    return ipow(x, n) if y > 0 else 1.0 / ipow(x, n)


def floor(x):
    """chart_floor: int() truncates toward zero, then one down below it."""
    f = int(x)
    return f - 1 if f > x else f


def _index(ch):
    c = num(ch)
    return c - 1 if c >= 1 else 0


def _sub(i):
    # an array subscript computed from a number: CONVFMT's text
    return numstr(i)


def chart_colors():
    return ''.join('\\definecolor{chartc%d}{HTML}{%s}\n' % (i, c)
                   for i, c in enumerate(COLOURS))


def chart_color(ch):
    return 'chartc' + _sub(math.fmod(_index(ch), len(COLOURS)))


def _mark(ch):
    i = _sub(math.fmod(_index(ch), len(MARKS)) + 1)
    # a subscript that is not 1..13 (a fractional chapter) is "" in awk
    return dict((str(j + 1), m) for j, m in enumerate(MARKS)).get(i, '')


def chart_open(ch):
    return not _mark(ch).endswith('*')


def chart_mark(ch):
    return 'mark=%s, mark size=%s, mark options={solid}' % (
        _mark(ch), '3.4pt' if chart_open(ch) else '1.6pt')


def chart_ticks(lo, hi):
    lo, hi = num(lo), num(hi)
    out = []
    e = floor(math.log(lo) / math.log(10))
    while e <= floor(math.log(hi) / math.log(10)) + 1:
        for d in (1, 2, 5):
            v = d * power(10, e)
            if v < lo / 2.5 or v > hi * 2.5:
                continue
            out.append('%g' % v)
        e += 1
    return ','.join(out)


# ---- the roofline --------------------------------------------------------

def _lg(v):
    return math.log(num(v)) / math.log(10)


def _width(t):
    """A label's width in cm (footnotesize)."""
    return 0.14 * len(t) + 0.2


class _Roof:
    """The axes, and the boxes and leader lines labels keep clear of."""

    W, H, RIGHT = 10, 7.2, -0.05     # cm; labels stay inside the axes

    def __init__(self, xmin, xmax, ymin, ymax, peak, bw):
        self.xmin, self.xmax, self.ymin, self.ymax = xmin, xmax, ymin, ymax
        self.boxes, self.segs, self.lines = [], [], []
        # the bandwidth roof in cm: y = Y0 + x * S up to the ridge Xr
        self.Xr = self.X(num(peak) / num(bw))
        self.Y0 = self.Y(num(bw) * xmin)
        self.S = (self.Y(peak) - self.Y0) / self.Xr

    # data coordinates <-> cm on the axis box
    def X(self, v):
        lo, hi = _lg(self.xmin), _lg(self.xmax)
        return self.W * (_lg(v) - lo) / (hi - lo)

    def Y(self, v):
        lo, hi = _lg(self.ymin), _lg(self.ymax)
        return self.H * (_lg(v) - lo) / (hi - lo)

    def dataX(self, c):
        lo, hi = _lg(self.xmin), _lg(self.xmax)
        return '%.4g' % (self.xmin * power(10, c / self.W * (hi - lo)))

    def dataY(self, c):
        lo, hi = _lg(self.ymin), _lg(self.ymax)
        return '%.4g' % (self.ymin * power(10, c / self.H * (hi - lo)))

    def addbox(self, x0, y0, x1, y1):
        self.boxes.append((x0, y0, x1, y1))

    def overlaps(self, x0, y0, x1, y1):
        return any(x0 < bx1 and x1 > bx0 and y0 < by1 and y1 > by0
                   for bx0, by0, bx1, by1 in self.boxes)

    def crosses_slope(self, x0, y0, x1, y1):
        """Does the box cross the bandwidth roof?"""
        if x0 > self.Xr:
            return False
        if x1 > self.Xr:
            x1 = self.Xr
        ya = self.Y0 + x0 * self.S
        yb = self.Y0 + x1 * self.S
        return not (y0 > yb + 0.05 or y1 < ya - 0.05)

    def fits(self, x0, y0, x1, y1):
        return (x0 >= 0.05 and x1 <= self.W + self.RIGHT and y0 >= 0.05
                and y1 <= self.H - 0.05 and not self.overlaps(x0, y0, x1, y1)
                and not self.crosses_slope(x0, y0, x1, y1)
                and not self.covers_leader(x0, y0, x1, y1))

    def covers_leader(self, x0, y0, x1, y1):
        for a, b, c, d in self.segs:
            for x, y in _walk(a, b, c, d):
                if x0 < x < x1 and y0 < y < y1:
                    return True
        return False

    def crosses_leader(self, a, b, c, d):
        for s0, t0, s1, t1 in self.segs:
            if (_orient(a, b, c, d, s0, t0) * _orient(a, b, c, d, s1, t1) < 0
                    and _orient(s0, t0, s1, t1, a, b)
                    * _orient(s0, t0, s1, t1, c, d) < 0):
                return True
        return False

    def leader_hits(self, px, py, ax, ay, skip0, skip1):
        """Does the line pass through a box other than boxes skip0..skip1
        (numbered from 1, as in the awk), or through the roof?"""
        for x, y in _walk(px, py, ax, ay):
            for i, (bx0, by0, bx1, by1) in enumerate(self.boxes, 1):
                if skip0 <= i <= skip1:
                    continue
                if (bx0 - 0.03 < x < bx1 + 0.03
                        and by0 - 0.03 < y < by1 + 0.03):
                    return True
            if x < self.Xr and y > self.Y0 + x * self.S - 0.03:
                return True
        return False


def _walk(a, b, c, d):
    """Points every 0.04 cm along a segment (t accumulates as in awk)."""
    l = math.sqrt(power(c - a, 2) + power(d - b, 2))
    t = 0
    while t <= l:
        yield a + t / l * (c - a), b + t / l * (d - b)
        t += 0.04


def _orient(ax, ay, bx, by, cx, cy):
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


_ANCHOR = {'E': 'west', 'W': 'east', 'N': 'south', 'S': 'north',
           'NE': 'south west', 'NW': 'south east', 'SE': 'north west',
           'SW': 'north east'}


def _beside(r, pt):
    """A label right beside a lone point, in one of 8 directions."""
    px, py, t = r.X(pt['x']), r.Y(pt['y']), pt['t']
    w, h = _width(t), 0.36
    for k in ('E', 'W', 'S', 'N', 'SE', 'SW', 'NE', 'NW'):
        dx = 0.2 if 'E' in k else -0.2 if 'W' in k else 0
        dy = 0.2 if 'N' in k else -0.2 if 'S' in k else 0
        ax, ay = px + dx, py + dy
        x0 = ax if 'E' in k else ax - w if 'W' in k else ax - w / 2
        y0 = ay if 'N' in k else ay - h if 'S' in k else ay - h / 2
        if not r.fits(x0, y0, x0 + w, y0 + h):
            continue
        r.addbox(x0, y0, x0 + w, y0 + h)
        r.lines.append('\\node[lab, anchor=%s] at (axis cs:%s,%s) {%s};\n'
                       % (_ANCHOR[k], r.dataX(ax), r.dataY(ay), t))
        return True
    return False


DXS = (0.3, 0.45, 0.8, 1.2, 1.7, 2.3, 3)
DYS = (0, -0.45, 0.45, -0.9, 0.9, -1.4, 1.4, -2, 2, -2.7, -3.5)


def _stack(r, grp, force=False):
    """The labels of a group as a list to the east or west, one leader
    line per point, in the order of the angles under which the points
    are seen from the list's middle."""
    pts, (gb0, gb1) = grp['pts'], grp['boxes']
    k, h, w, cy, xl, xr = len(pts), 0.36, 0, 0, 1e9, -1e9
    for p in pts:
        w = max(w, _width(p['t']))
        cy += r.Y(p['y']) / k
        xl = min(xl, r.X(p['x']))
        xr = max(xr, r.X(p['x']))
    for dx in DXS:
        for dy in DYS:
            for side in ('E', 'W'):
                x0 = xr + dx if side == 'E' else xl - dx - w
                x1 = x0 + w
                y1 = cy + dy + k * h / 2
                y0 = y1 - k * h
                if not force and not r.fits(x0, y0, x1, y1):
                    continue
                ex = x0 if side == 'E' else x1
                order = _by_angle(r, pts, side, ex, (y0 + y1) / 2)
                if not force and _blocked(r, order, ex, y1, h, gb0, gb1):
                    continue
                r.addbox(x0, y0, x1, y1)
                _leaders(r, order, side, ex, y1, h)
                return True
    return False


def _by_angle(r, pts, side, ex, ym):
    sign = 1 if side == 'E' else -1
    ang = [math.atan2(r.Y(p['y']) - ym, sign * (ex - r.X(p['x'])))
           for p in pts]
    order = list(range(len(pts)))
    # the awk's exchange sort, kept: equal angles stay as it leaves them
    for j in range(len(order)):
        for q in range(j + 1, len(order)):
            if ang[order[q]] > ang[order[j]]:
                order[j], order[q] = order[q], order[j]
    return [pts[i] for i in order]


def _blocked(r, order, ex, y1, h, gb0, gb1):
    for j, p in enumerate(order, 1):
        px, py, ay = r.X(p['x']), r.Y(p['y']), y1 - (j - 0.5) * h
        if (r.leader_hits(px, py, ex, ay, gb0, gb1)
                or r.crosses_leader(px, py, ex, ay)):
            return True
    return False


def _leaders(r, order, side, ex, y1, h):
    for j, p in enumerate(order, 1):
        ay = y1 - (j - 0.5) * h
        r.segs.append((r.X(p['x']), r.Y(p['y']), ex, ay))
        r.lines.append(
            '\\draw[leader] (axis cs:%s,%s) -- (axis cs:%s,%s) '
            'node[lab, anchor=%s] {%s};\n'
            % (numstr(p['x']), p['y'], r.dataX(ex), r.dataY(ay),
               'west' if side == 'E' else 'east', p['t']))


def _points(val, n=4096):
    """cuBLAS, then each chapter's headline kernel with profiler counts:
    dicts x (a number), y (the key's text), c (chapter or "lib"), t."""
    flop, cw = 2.0 * n * n * n, 4.0 * n * n
    pts = []
    r = val.get('ceil.cublas_tflops', '')
    if r != '':
        pts.append({'x': num('%.4g' % (flop / (12 * n * n))), 'y': r,
                    'c': 'lib', 't': 'cuBLAS'})
    chs = {}
    for key in val:
        if key.startswith('ch') and key.endswith('.main') \
                and key[2:-5].isdigit() and key[2:-5].isascii():
            chs[numstr(num(key[2:-5]))] = 1
    for c in sorted(chs, key=lambda s: (num(s), s)):
        k = val.get('ch%s.main' % c, '')
        gb = val.get('ch%s.%s.ncu.dram_gb' % (c, k), '')
        r = val.get('ch%s.%s.%d.tflops' % (c, k, n), '')
        if k == '' or gb == '' or r == '':
            continue
        pts.append({'x': num('%.4g' % (flop / (num(gb) * 1e9 + cw))),
                    'y': r, 'c': c,
                    't': ('ch%s %s' % (c, k)).replace('_', '\\_')})
    return pts


def _ranges(pts):
    """Decades around the points."""
    xmin, xmax, ymin = 1, 2000, 0.2
    for p in pts:
        while p['x'] < 2 * xmin:
            xmin /= 10
        while p['x'] > xmax / 2:
            xmax *= 10
        while gt(1.5 * ymin, p['y']):       # pty < 1.5 * ymin, awk's way
            ymin /= 10
    return xmin, xmax, ymin


def _groups(r, pts):
    """Points closer than 0.45 cm (single linkage), highest first, with
    the numbers of their boxes (consecutive per group)."""
    np_ = len(pts)
    grp = list(range(np_))
    for i in range(np_):
        for j in range(i):
            if (power(r.X(pts[i]['x']) - r.X(pts[j]['x']), 2)
                    + power(r.Y(pts[i]['y']) - r.Y(pts[j]['y']), 2)
                    < power(0.45, 2)):
                a, b = grp[i], grp[j]
                grp = [b if g == a else g for g in grp]
    gid = {}
    for g in grp:
        gid.setdefault(g, len(gid))
    groups = [[] for _ in gid]
    for i, g in enumerate(grp):
        groups[gid[g]].append(pts[i])
    out = []
    for gp in groups:
        for a in range(len(gp)):
            for b in range(a + 1, len(gp)):
                if num(gp[b]['y']) > num(gp[a]['y']):
                    gp[a], gp[b] = gp[b], gp[a]
        first = len(r.boxes) + 1
        for p in gp:
            x, y = r.X(p['x']), r.Y(p['y'])
            r.addbox(x - 0.13, y - 0.13, x + 0.13, y + 0.13)
        out.append({'pts': gp, 'boxes': (first, len(r.boxes))})
    return out


def _awk_ne(a, b):
    """awk's a != b between two fields of results.keys."""
    return gt(a, b) or gt(b, a)


def _head(r, peak, ffma, bw):
    bl = 'DRAM copy rate %s TB/s' % bw
    pl = 'FP32 peak %s TFLOP/s (solid)' % peak
    fl = 'measured FFMA rate %s TFLOP/s (dashed)' % ffma
    two = _awk_ne(ffma, peak)
    xt, yt = chart_ticks(r.xmin, r.xmax), chart_ticks(r.ymin, r.ymax)
    s = ('\\begin{tikzpicture}[lab/.style={font=\\footnotesize, '
         'inner sep=1.5pt,\n'
         '    text=black, fill=white, fill opacity=0.85, text opacity=1},\n'
         '  leader/.style={black!50, line width=0.4pt}]\n')
    s += chart_colors()
    s += '\\begin{axis}[scale only axis, width=%scm, height=%scm,\n' % (
        numstr(r.W), numstr(r.H))
    s += '  xmode=log, ymode=log, clip=false,\n'
    s += '  xmin=%g, xmax=%g, ymin=%g, ymax=%g,\n' % (
        r.xmin, r.xmax, r.ymin, r.ymax)
    s += '  xtick={%s}, xticklabels={%s},\n' % (xt, xt)
    s += '  ytick={%s}, yticklabels={%s},\n' % (yt, yt)
    s += ('  tick label style={font=\\footnotesize},\n'
          '  grid=major, major grid style={black!12},\n'
          '  xlabel={arithmetic intensity (FLOP per byte of DRAM traffic, '
          'log scale)},\n'
          '  ylabel={TFLOP/s (log scale)}]\n')
    P, B, F = num(peak), num(bw), num(ffma)
    s += '\\addplot[black, thick] coordinates {(%g,%g) (%g,%g)}\n' % (
        r.xmin, B * r.xmin, P / B, P)
    s += '  node[pos=0.5, sloped, above, font=\\footnotesize] {%s};\n' % bl
    s += '\\addplot[black, thick] coordinates {(%g,%g) (%g,%g)}\n' % (
        P / B, P, r.xmax, P)
    s += '  ;\n'
    # the label of the roofs stands in the top left corner, left of the
    # ridge and above the peak, where no kernel's point can be: left of
    # the ridge a kernel is bound by the slope, below the peak
    s += ('\\node[anchor=north west, font=\\footnotesize, inner sep=2pt, '
          'align=left] at (axis cs:%g,%g) {%s};\n'
          % (r.xmin * 1.1, r.ymax / 1.15, pl + '\\\\' + fl if two else pl))
    if two:
        s += '\\addplot[black, dashed] coordinates {(%g,%g) (%g,%g)};\n' % (
            F / B, F, r.xmax, F)
    # keep clear of: the compute roofs and their label, the slope label
    r.addbox(0, r.H - 0.9, _width(fl), r.H)
    # (a label may lie over the flat roofs: its white ground hides the
    # lines for its width, and the crowd of kernels near the ridge
    # needs the room; it keeps clear of the slope and of other labels)
    A, L, cx = math.atan2(r.S, 1), _width(bl), r.Xr / 2
    s_ = -L / 2
    while s_ <= L / 2 + 0.01:
        qx = cx + s_ * math.cos(A) - 0.22 * math.sin(A)
        qy = r.Y0 + cx * r.S + s_ * math.sin(A) + 0.22 * math.cos(A)
        r.addbox(qx - 0.2, qy - 0.2, qx + 0.2, qy + 0.2)
        s_ += 0.25
    return s


def _plot(val):
    peak = val.get('ceil.peak_fp32_tflops', '')
    ffma = val.get('ceil.ffma_tflops', '')
    bw = val.get('ceil.copy_tbs', '')
    if peak == '' or bw == '':
        return ('\\begin{tikzpicture}\\node[draw, inner sep=1em]\n'
                '{\\textbf{[not measured]} on this GPU: run '
                '\\texttt{make bench}.};\n'
                '\\end{tikzpicture}\n')
    if ffma == '':
        ffma = peak
    pts = _points(val)
    xmin, xmax, ymin = _ranges(pts)
    # the top: above FP32's peak, and above every point (the tensor
    # cores' chapters run past FP32's roof)
    ymax = max([2.6 * num(peak)] + [1.6 * num(p['y']) for p in pts])
    r = _Roof(xmin, xmax, ymin, ymax, peak, bw)
    s = _head(r, peak, ffma, bw)
    groups = _groups(r, pts)
    # the lists of the crowded groups first (they need the most room,
    # and take it even where nothing fits), then lone points beside
    # themselves where they can, then with a leader line, then anyhow
    for g in groups:
        if len(g['pts']) > 1 and not _stack(r, g):
            _stack(r, g, True)
    lone = [g for g in groups if len(g['pts']) == 1]
    left = [g for g in lone if not _beside(r, g['pts'][0])]
    for g in [g for g in left if not _stack(r, g)]:
        _stack(r, g, True)
    s += ''.join(r.lines)
    for p in pts:          # the points, over the leader lines
        if p['c'] == 'lib':
            s += ('\\addplot[only marks, mark=square*, mark size=2.2pt, black]'
                  ' coordinates {(%s,%s)};\n' % (numstr(p['x']), p['y']))
        else:
            s += ('\\addplot[only marks, %s, color=%s] '
                  'coordinates {(%s,%s)};\n'
                  % (chart_mark(p['c']), chart_color(p['c']),
                     numstr(p['x']), p['y']))
    return s + '\\end{axis}\n\\end{tikzpicture}\n'


def roofline(keys_text, outfile):
    """res/roofline-plot.tex from the result keys (key -> text, as in
    results.keys with the last line for a key winning)."""
    # awk reads each line's second tab-separated field
    val = {k: v.split('\t')[0] for k, v in keys_text.items()}
    text = _plot(val)
    with open(outfile + '.tmp', 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(outfile + '.tmp', outfile)
