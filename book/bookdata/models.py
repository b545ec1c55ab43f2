"""The chapters' formulas: figures computed from the measured ones.

A chapter's manifest (<<chN.mk>>) may hold three kinds of formula, one
a line; models() evaluates them all, in the manifests' order, over the
raw values of the result keys (results.raw), and adds what they give to
the keys.  The arithmetic is awk's, exactly (the formulas were first
evaluated by awk, and the book's figures must not move).

  model.NAME := EXPRESSION [| FORMAT]
    EXPRESSION is awk arithmetic over numbers (4096, 0.5, 1e-3) and
    result keys: a name with dots is a key (ceil.copy_tbs,
    ch6.float4.4097.ms, model.other).  A kernel's name may hold hyphens
    (ch12.bf16-pairs.4096.ms, ch9.sk-128x128x16-w32x64-t8x8-b1.1111.tflops),
    so a subtraction right after a key needs a space: "a.b -1", not
    "a.b-1".  Operators, loosest first: ?: || && (< <= > >= == !=, one
    per comparison) (+ -) (* / %) (unary - + !) and ^ (or **: right to
    left, tighter than a unary minus: -2^2 is -4).  Functions: int()
    (towards zero), sqrt() exp() log() sin() cos() atan2(y, x), and
    max(a, b), min(a, b) (no blank before their parenthesis).  inf and
    -inf stand for +-1e300.  FORMAT is how results.keys prints the value
    (sig3 if none: bookdata.awk.fmt); results.raw gets it with nine
    significant digits ("%.9g").  model.NAME is itself a key that later
    formulas may use.
  verdict.NAME := VALUE ; LOW ; HIGH ; SPREAD
    a hypothesis predicted LOW <= VALUE <= HIGH (inf and -inf allowed);
    SPREAD is the measurement's own uncertainty, in VALUE's units.
    verdict.NAME is "confirmed" when the whole interval VALUE +- SPREAD
    lies inside the prediction, "refuted" when it lies wholly outside,
    and "undecided: its run-to-run spread reaches across the predicted
    bound" otherwise.
  compare.NAME := A ; B ; SPREAD_A ; SPREAD_B [| MORE / LESS]
    two measured figures and their spreads in % of each (the
    *.spread_pct keys); compare.NAME is MORE ("faster than" unless
    given) when A exceeds B by more than the two spreads together, LESS
    ("slower than") when it falls short by more, and "within the
    run-to-run spread of" otherwise; compare.NAME.by is " by X\\,\\%"
    (X the difference in % of B), " by a factor of R" where one is at
    least twice the other, or, inside the spread,
    " (X\\,\\% apart, within the spreads' Y\\,\\%)".  Both are judged on
    the figures as printed.
  Verdicts and comparisons are words: they go to results.keys only, and
  no formula can use them.

A formula waits until every key it names has a numeric value; the
formulas are gone through again while one of them fires, so that a
formula may use another's result wherever it stands.  One whose keys
never all get a value is left out (the book then shows ??), with a note
on stderr: "models: NAME: no value for KEY...".

Errors (raised as FormulaError before anything is computed, as the awk
program failed to compile): a verdict or comparison without four parts,
and an expression that is not the arithmetic above.  awk itself would
have accepted some of these: a bare name without a dot (an awk
variable, 0), two values side by side (awk joins them as text), a string
constant; they are refused here.  A division by zero stops the run, as
it stopped awk.
"""
import math
import re
import sys

from .awk import fmt, ipow, isnum, num, numstr


class FormulaError(Exception):
    pass


# -- the text of an expression, as book/tools/models rewrote it ---------

# inf and -inf become 1e300 and -1e300 by these substitutions, which
# also swallow the character on either side of the word (so that
# "max(x, inf)" loses its closing parenthesis): kept as awk did it.
_NEG_INF = re.compile(r'(^|[^A-Za-z0-9_.])-inf([^A-Za-z0-9_]|$)')
_POS_INF = re.compile(r'(^|[^A-Za-z0-9_.])inf([^A-Za-z0-9_]|$)')
# A result key: a name, then dotted parts that may hold -hyphen parts.
KEY = re.compile(r'[A-Za-z_][A-Za-z0-9_]*'
                 r'(\.[A-Za-z0-9_]+(-[A-Za-z0-9][A-Za-z0-9_]*)*)+')
_TOKEN = re.compile(r'''
   (?P<ws>[ \t\r\n]+)
 | (?P<num>0[xX][0-9A-Fa-f]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)
 | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
 | (?P<op>\*\*|\|\||&&|<=|>=|==|!=|\+\+|--|!~|[-+*/%^!<>?:(),])
''', re.X)
_BUILTIN = {'int': 1, 'sqrt': 1, 'exp': 1, 'log': 1, 'sin': 1, 'cos': 1,
            'atan2': 2}
_USER = {'max': 2, 'min': 2}     # awk functions of book/tools/models
# binary operators by precedence (higher binds tighter)
_BINARY = {'||': 1, '&&': 2, '<': 3, '<=': 3, '>': 3, '>=': 3, '==': 3,
           '!=': 3, '+': 4, '-': 4, '*': 5, '/': 5, '%': 5}
_CMP = 3


def _number(text):
    """A numeric constant as gawk reads program text: 0x1A is hex and
    017 octal (gawk's extension; 018 is decimal, 017.5 too)."""
    if text[:2] in ('0x', '0X'):
        return float(int(text, 16))
    if re.fullmatch(r'0[0-7]+', text):
        return float(int(text, 8))
    return float(text)


def _lex(text, tokens):
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise FormulaError('cannot read %r' % text[pos:])
        kind, tok = m.lastgroup, m.group()
        pos = m.end()
        if kind == 'num':
            tokens.append(('num', _number(tok)))
        elif kind == 'name':
            # a user function's "(" must follow its name at once
            glued = text[pos:pos + 1] == '('
            tokens.append(('name', tok, glued))
        elif kind == 'op':
            tokens.append(('op', '^' if tok == '**' else tok))


def tokens_of(expr):
    """(tokens, refs) of an expression: refs are the keys it names, in
    order and repeated as they occur (what the note lists)."""
    expr = _NEG_INF.sub(' -1e300 ', expr)
    expr = _POS_INF.sub(' 1e300 ', expr)
    tokens, refs, pos = [], [], 0
    for m in KEY.finditer(expr):
        _lex(expr[pos:m.start()], tokens)
        tokens.append(('key', m.group()))
        refs.append(m.group())
        pos = m.end()
    _lex(expr[pos:], tokens)
    return tokens, refs


# -- the parser: a tree of tuples (OP, operand...) -----------------------

class _Parser:
    def __init__(self, tokens):
        self.toks, self.i = tokens, 0

    def peek(self):
        t = self.toks[self.i] if self.i < len(self.toks) else ('end',)
        return t[1] if t[0] == 'op' else t[0]

    def take(self, want=None):
        if self.i >= len(self.toks):
            raise FormulaError('the expression ends too soon')
        t = self.toks[self.i]
        if want is not None and t != ('op', want):
            raise FormulaError('expected %s, found %s' % (want, _show(t)))
        self.i += 1
        return t

    def whole(self):
        if not self.toks:
            raise FormulaError('an empty expression')
        tree = self.ternary()
        if self.i < len(self.toks):
            # awk would concatenate two values side by side
            raise FormulaError('unexpected %s' % _show(self.toks[self.i]))
        return tree

    def ternary(self):
        cond = self.binary(1)
        if self.peek() != '?':
            return cond
        self.take('?')
        yes = self.ternary()
        self.take(':')
        return ('?:', cond, yes, self.ternary())

    def binary(self, least):
        """Precedence climbing over _BINARY, all left-associative but
        the comparisons, of which awk allows one (a < b < c is an
        error)."""
        left = self.unary()
        while _BINARY.get(self.peek(), 0) >= least:
            op = self.take()[1]
            left = (op, left, self.binary(_BINARY[op] + 1))
            if _BINARY[op] == _CMP and _BINARY.get(self.peek()) == _CMP:
                raise FormulaError('two comparisons in a row')
        return left

    def unary(self):
        if self.peek() in ('-', '+', '!'):
            return ('u' + self.take()[1], self.unary())
        return self.power()

    def power(self):
        # awk: -2^2 is -(2^2), and 2^-3 is 2^(-3): the exponent is a
        # unary expression, which makes ^ right-associative too
        base = self.primary()
        if self.peek() == '^':
            self.take()
            return ('^', base, self.unary())
        return base

    def primary(self):
        t = self.take()
        if t[0] in ('num', 'key'):
            return t
        if t == ('op', '('):
            inner = self.ternary()
            self.take(')')
            return inner
        if t[0] == 'name' and (t[1] in _BUILTIN or t[1] in _USER and t[2]):
            return self.call(t[1])
        raise FormulaError('unexpected %s' % _show(t))

    def call(self, fn):
        self.take('(')
        args = [self.ternary()]
        while self.peek() == ',':
            self.take()
            args.append(self.ternary())
        self.take(')')
        want = _BUILTIN.get(fn, _USER.get(fn))
        if len(args) != want:
            raise FormulaError('%s() takes %d argument%s'
                               % (fn, want, 's' if want > 1 else ''))
        return ('call', fn) + tuple(args)


def _show(t):
    if t[0] == 'num':
        return numstr(t[1])
    return '"%s"' % t[1]


def parse(expr):
    """(tree, refs) of an expression (FormulaError if it is not one)."""
    toks, refs = tokens_of(expr)
    return _Parser(toks).whole(), refs


# -- evaluation, with awk's arithmetic -----------------------------------

def _n(v):
    """A value as a number: keys' values are text (awk's strnums)."""
    return num(v) if isinstance(v, str) else v


def _pow(x, y):
    """gawk's x ^ y: an integral exponent by repeated squaring (which may
    differ from pow() in the last bit), any other by pow()."""
    if math.isfinite(y) and y == int(y) and abs(y) < 2 ** 63:
        n = int(y)
        if n == 0:
            return 1.0
        r = ipow(x, abs(n))
        if n > 0:
            return r
        return 1.0 / r if r != 0 else math.copysign(math.inf, r)
    try:
        return math.pow(x, y)
    except ValueError:
        return -math.nan     # C's pow() of a negative number: -nan
    except OverflowError:
        return math.inf



def _div(a, b, op='/'):
    if b == 0:
        raise FormulaError('division by zero attempted'
                           + (" in `%'" if op == '%' else ''))
    return a / b if op == '/' else math.fmod(a, b)


def _int(x):
    # towards zero, as gawk's double_to_int: int(-0.5) is -0
    if not math.isfinite(x):
        return x
    return math.copysign(float(math.trunc(x)), x)


def _safe(f):
    """A C library function: nan and inf where Python raises."""
    def g(*a):
        try:
            return f(*a)
        except OverflowError:
            return math.inf
        except ValueError:
            return -math.inf if a[0] == 0 else -math.nan   # C's -nan
    return g


_FUNCS = {'int': _int, 'sqrt': _safe(math.sqrt), 'exp': _safe(math.exp),
          'log': _safe(math.log), 'sin': math.sin, 'cos': math.cos,
          'atan2': math.atan2}
_OPS = {'+': lambda a, b: a + b, '-': lambda a, b: a - b,
        '*': lambda a, b: a * b, '/': _div,
        '%': lambda a, b: _div(a, b, '%'), '^': _pow,
        '<': lambda a, b: a < b, '<=': lambda a, b: a <= b,
        '>': lambda a, b: a > b, '>=': lambda a, b: a >= b,
        '==': lambda a, b: a == b, '!=': lambda a, b: a != b,
        'u-': lambda a: -a, 'u+': lambda a: a, 'u!': lambda a: a == 0}
# operators that evaluate an operand only if needed
_LAZY = {
    '?:': lambda t, V: value(t[2] if _true(value(t[1], V)) else t[3], V),
    '&&': lambda t, V: _true(value(t[1], V)) and _true(value(t[2], V)),
    '||': lambda t, V: _true(value(t[1], V)) or _true(value(t[2], V)),
}


def value(tree, V):
    """The value of a parsed expression over the keys' values V: a float,
    or the text of a key where the expression passes one through (a key
    alone, max(), min(), ?:), as awk passes its strnums.  Every value is
    numeric (a formula fires only then), so comparisons are numeric."""
    op = tree[0]
    if op == 'num':
        return tree[1]
    if op == 'key':
        return V[tree[1]]
    if op == '?:':
        return _LAZY[op](tree, V)
    if op in _LAZY:
        return float(_LAZY[op](tree, V))
    if op == 'call':
        return _call(tree[1], [value(t, V) for t in tree[2:]])
    return float(_OPS[op](*(_n(value(t, V)) for t in tree[1:])))


def _call(fn, args):
    if fn == 'max':     # function max(a, b) { return a > b ? a : b }
        return args[0] if _n(args[0]) > _n(args[1]) else args[1]
    if fn == 'min':
        return args[0] if _n(args[0]) < _n(args[1]) else args[1]
    return _FUNCS[fn](*map(_n, args))


def _true(v):
    """awk's truth of a number (a key's text is a numeric string)."""
    return _n(v) != 0


# -- the formulas ---------------------------------------------------------

class Formula:
    """One line: kind (model, verdict, compare), name, trees, refs, and
    how (a model's format) or the words (a comparison's)."""

    def __init__(self, name, text):
        self.name, self.kind = name, name.split('.')[0]
        if self.kind == 'model':
            self._model(text)
        else:
            self._judge(text)

    def _model(self, text):
        self.how = 'sig3'
        m = re.search(r'\|[ \t]*[^|]*$', text)
        if m:
            self.how = _awk_string(m.group()[1:].strip(' \t'))
            text = text[:m.start()]
        self.trees, self.refs = self._parse([text])

    def _judge(self, text):
        words = ''
        m = re.search(r'\|[^|]*$', text)
        if m:
            words, text = m.group()[1:], text[:m.start()]
        parts = text.split(';')
        if len(parts) != 4:
            raise FormulaError('models: %s: wants four parts separated by ;'
                               % self.name)
        self.more, self.less = 'faster than', 'slower than'
        if words != '':
            w = (words.split('/') + [''])[:2]
            self.more, self.less = (_awk_string(x.strip(' \t')) for x in w)
        self.trees, self.refs = self._parse(parts)

    def _parse(self, texts):
        trees, refs = [], []
        for t in texts:
            try:
                tree, r = parse(t)
            except FormulaError as e:
                raise FormulaError('models: %s: %s' % (self.name, e))
            trees.append(tree)
            refs += r
        return trees, refs

    def ready(self, V):
        return all(r in V and isnum(V[r]) for r in self.refs)


def _awk_string(s):
    """Text that book/tools/models put in its program as an awk string
    constant: gawk reads its escapes (\\\\ is one backslash, \\, a plain
    comma); a double quote would have ended the string."""
    if re.search(r'(^|[^\\])(\\\\)*"', s):
        raise FormulaError('models: a double quote in %r' % s)
    esc = {'n': '\n', 't': '\t', 'r': '\r', 'a': '\a', 'b': '\b',
           'f': '\f', 'v': '\v'}
    return re.sub(r'\\(.)', lambda m: esc.get(m.group(1), m.group(1)), s)


def formulas_of_tsv(path):
    """[(name, text)] of build/manifest.tsv, in order: its lines whose
    field starts with model., verdict. or compare. (the rows the awk
    tool read)."""
    out = []
    with open(path, encoding='utf-8') as f:
        for line in f.read().split('\n'):
            p = line.split('\t') + ['', '']
            if re.match(r'^(model|verdict|compare)\.', p[1]):
                out.append((p[1], p[2]))
    return out


def verdict(v, lo, hi, sp):
    v, lo, hi, sp = map(_n, (v, lo, hi, sp))
    if sp < 0:
        sp = -sp
    if v - sp >= lo and v + sp <= hi:
        return 'confirmed'
    if v + sp < lo or v - sp > hi:
        return 'refuted'
    return ('undecided: its run-to-run spread reaches across the '
            'predicted bound')


def compare(a, b, sa, sb, more='faster than', less='slower than'):
    """(words, .by text) of a comparison, judged on the figures as
    printed, so that the book never says "by 0.6 %" beside spreads that
    also print as 0.6 %."""
    a, b, sa, sb = map(_n, (a, b, sa, sb))
    d = _div(100 * (a - b), b)
    sa, sb = (-sa if sa < 0 else sa), (-sb if sb < 0 else sb)
    ad = -d if d < 0 else d          # not abs(): awk keeps -0.0's sign
    pct = fmt(ad, 'pct')
    ad, gap = _n(pct), _n(fmt(sa + sb, 'pct'))
    t = more if ad > gap and d > 0 else less if ad > gap else \
        'within the run-to-run spread of'
    r = a / b if d > 0 else (b / a if a != 0 else 0)
    if ad > gap and r >= 2:
        by = ' by a factor of %.1f' % r
    elif ad > gap:
        by = ' by %s\\,\\%%' % _s(pct)
    else:
        by = " (%s\\,\\%% apart, within the spreads' %s\\,\\%%)" % (
            _s(pct), _s(fmt(sa + sb, 'pct')))
    return t, by


def _s(v):
    """A value as awk prints it with %s."""
    return v if isinstance(v, str) else numstr(v)


def _raw(v):
    x = _n(v)
    return '%.9g' % x if math.isfinite(x) else numstr(x)


def _fire(f, V, keys, done):
    """Evaluate one formula whose keys are ready."""
    args = [value(t, V) for t in f.trees]
    if f.kind == 'model':
        V[f.name] = args[0]
        keys.plain(f.name, _s(fmt(args[0], f.how)), raw=False)
        keys.raw[f.name] = _raw(args[0])
    elif f.kind == 'verdict':
        keys.plain(f.name, verdict(*args), raw=False)
        done.add(f.name)
    else:
        t, by = compare(*args, more=f.more, less=f.less)
        keys.plain(f.name, t, raw=False)
        keys.plain(f.name + '.by', by, raw=False)
        done.update((f.name, f.name + '.by'))


def models(keys, formulas, log=None):
    """Evaluate formulas [(name, text)] (every chapter's, in the
    manifests' order) over keys (a bookdata.keys.Keys: keys.raw are the
    values), adding what they give to keys.  Returns the notes on what
    could not be computed, which go to log (stderr) too."""
    fs = [Formula(name, text) for name, text in formulas
          if re.match(r'^(model|verdict|compare)\.', name)]
    # V: the values formulas compute with; a model's own value stays a
    # full-precision float here while results.raw gets "%.9g"
    V = dict(keys.raw)
    done = set()
    more = True
    while more:
        more = False
        for f in fs:
            seen = f.name in V if f.kind == 'model' else f.name in done
            if not seen and f.ready(V):
                _fire(f, V, keys, done)
                more = True
    return _notes(keys, fs, sys.stderr if log is None else log)


def _notes(keys, fs, log):
    """models: NAME: no value for KEY... for each formula left out: the
    keys it names that have no value at all (one whose value is not a
    number is not listed, as the awk tool did not list it)."""
    have = set(keys.raw) | set(keys.text)
    notes = []
    for f in fs:
        if f.name not in have:
            miss = ''.join(' ' + r for r in f.refs if r not in have)
            notes.append('models: %s: no value for%s' % (f.name, miss))
    for n in notes:
        print(n, file=log)
    return notes
