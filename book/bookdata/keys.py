"""The result keys: every figure the book prints, by name.

A key is a dotted name (ch9.tuned.4096.tflops) with two values: its text
as the book prints it (results.keys, LaTeX) and, for a number, its raw
value (results.raw, unrounded, what formulas compute with).

Every key a stage makes is named here, by name() and the constructors
of its families below (book/DATA.md lists them): a stage says which
family and which parts, never how they are joined.
"""
import re

from .awk import fmt, looks_numeric, num, numstr, tex

_PART = re.compile(r'^[^\s]+$')


def name(*parts):
    """A key from its parts (or from a key and more parts), joined by
    dots; no part is empty or holds a blank (a size is 4096 or
    4096x33x1111, a kernel its name)."""
    for p in parts:
        if not _PART.match(str(p)):
            raise ValueError('a key cannot be made of %r: the part %r is '
                             'empty or holds a blank' % (parts, p))
    return '.'.join(str(p) for p in parts)


def _same(a, b):
    # as awk compares two fields: numbers where both look like numbers
    if looks_numeric(a) and looks_numeric(b):
        return num(a) == num(b)
    return numstr(a) == numstr(b)


def size(m, n, k):
    """The size part of a key: M for a cube, else MxNxK."""
    return m if _same(m, n) and _same(n, k) else '%sx%sx%s' % (m, n, k)


def chapter(ch, *parts):
    """chN.PARTS: a chapter's keys (its kernels' facts, micro, suite,
    answers, main, needs, ...)."""
    return name('ch%s' % ch, *parts)


def measured(ch, kernel, m, n, k, field):
    """chN.KERNEL.SIZE.FIELD: a figure of one kernel at one size."""
    return chapter(ch, kernel, size(m, n, k), field)


def family(fam, *parts):
    """FAMILY.PARTS for the keys of no chapter: ceil, gpu, dev, cublas,
    labs (and the manifests' model, verdict, compare)."""
    return name(fam, *parts)


class Keys:
    """Ordered key -> (text, raw); raw is None for words (verdicts, rows
    of tables), which formulas cannot use.  A key set twice keeps its
    first place and its last value, as \\resultkey and the HTML's
    substitution read it (the last definition wins)."""

    def __init__(self):
        self.text, self.raw = {}, {}

    def put(self, k, v, how=''):
        """A number (or a field's text): printed with fmt(v, how)."""
        self.text[k] = fmt(v, how)
        self.raw[k] = v if isinstance(v, str) else numstr(v)

    def puttext(self, k, v):
        """Text from the data (a GPU's name): LaTeX-escaped."""
        self.text[k] = tex(v)
        self.raw[k] = v

    def plain(self, k, v, raw=True):
        """Text as it is, in both files (raw=False: results.keys only)."""
        self.text[k] = v
        if raw:
            self.raw[k] = v

    def __contains__(self, k):
        return k in self.text

    def get(self, k, default=''):
        return self.text.get(k, default)

    @classmethod
    def load(cls, out):
        """The keys of OUT/results.keys and OUT/results.raw (absent files:
        none), the last line of a key winning."""
        k = cls()
        for name, d in (('results.keys', k.text), ('results.raw', k.raw)):
            try:
                with open(out + '/' + name, encoding='utf-8') as f:
                    for line in f.read().split('\n'):
                        if line:
                            a, _, b = line.partition('\t')
                            d[a] = b
            except FileNotFoundError:
                pass
        return k

    def write(self, out):
        with open(out + '/results.keys', 'w', encoding='utf-8') as f:
            for k, v in self.text.items():
                f.write('%s\t%s\n' % (k, v))
        with open(out + '/results.raw', 'w', encoding='utf-8') as f:
            for k, v in self.raw.items():
                f.write('%s\t%s\n' % (k, v))
