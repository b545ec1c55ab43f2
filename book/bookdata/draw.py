"""A validation set: shapes drawn fresh, on which a chapter's rules are
graded after they were tuned on its suite (manifest fields suite and
validation).

draw(seed, count, suite_rows): count shapes (m, n, k), each dimension
drawn log-uniform over [1, DIM_MAX] by Python's Mersenne Twister from
seed, so that a seed gives the same shapes on every machine.  A shape
whose product is larger than the suite's largest (2MNK, the time
budget: no drawn shape costs more than a shape the suite already
measures) or that the suite holds is drawn again.
"""
import math
import random

DIM_MAX = 32768   # the largest dimension drawn (the range, [1, 32768])


def budget(suite_rows):
    """The largest 2MNK of the suite: the most a drawn shape may cost."""
    return max(2 * int(r['m']) * int(r['n']) * int(r['k']) for r in suite_rows)


def draw(seed, count, suite_rows):
    r = random.Random(seed)
    cap = budget(suite_rows)
    taken = {(int(s['m']), int(s['n']), int(s['k'])) for s in suite_rows}
    out = []
    while len(out) < count:
        d = tuple(min(DIM_MAX, int(math.exp(r.random() * math.log(DIM_MAX + 1))))
                  for _ in range(3))
        if 2 * d[0] * d[1] * d[2] > cap or d in taken:
            continue
        taken.add(d)
        out.append(d)
    return out


def csv_text(seed, shapes):
    """family,m,n,k,origin, as a suite's file."""
    lines = ['family,m,n,k,origin']
    for m, n, k in shapes:
        lines.append('drawn,%d,%d,%d,"seed %d, log-uniform over [1, %d]"'
                     % (m, n, k, seed, DIM_MAX))
    return '\n'.join(lines) + '\n'
