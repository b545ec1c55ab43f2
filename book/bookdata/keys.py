"""The result keys: every figure the book prints, by name.

A key is a dotted name (ch9.tuned.4096.tflops) with two values: its text
as the book prints it (results.keys, LaTeX) and, for a number, its raw
value (results.raw, unrounded, what formulas compute with).  Each stage
names the keys of its own files (book/DATA.md lists the families).
"""
from .awk import fmt, numstr, tex


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
