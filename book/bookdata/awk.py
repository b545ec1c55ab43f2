"""Numbers as the book prints them.

The book's figures were first computed by awk programs, and the book's
text was typeset from their output; this module keeps those conventions
exactly, so that a figure prints the same whichever program computes it:

  num(s)      a string's numeric value as awk reads it ("12.5x" -> 12.5,
              "" -> 0): the longest leading number, 0 if there is none
  numstr(x)   a computed number as text: integers as integers, others
              with six significant digits ("%.6g")
  isnum(s)    whether a text is a plain decimal number (the test that
              decides whether fmt formats a value or passes it through)
  looks_numeric(s)  whether a CSV field compares as a number
  fmt(v, how) the one number formatter (below)
"""
import math
import re

_NUM = re.compile(r'^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?')
_ISNUM = re.compile(r'^-?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$')
_STRNUM = re.compile(r'^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$')


def num(s):
    """The numeric value of s as awk's s + 0 gives it."""
    if isinstance(s, (int, float)):
        return float(s)
    m = _NUM.match(s)
    if not m:
        low = s.strip().lower()
        for sign in ('+', '-', ''):
            if low in (sign + 'inf', sign + 'nan'):
                return float(low)
        return 0.0
    return float(m.group(0))


def numstr(x):
    """A number as awk writes it into a string: an integral value as an
    integer, any other with "%.6g"."""
    if isinstance(x, str):
        return x
    x = float(x)
    if math.isnan(x):
        return '-nan' if math.copysign(1, x) < 0 else '+nan'
    if math.isinf(x):
        return '-inf' if x < 0 else '+inf'
    if x == int(x):
        return '%d' % int(x)
    return '%.6g' % x


def rawstr(x):
    """A value for results.raw: text as it is, a number as numstr."""
    return x if isinstance(x, str) else numstr(x)


def isnum(s):
    return bool(_ISNUM.match(numstr(s)))


def looks_numeric(s):
    return isinstance(s, (int, float)) or bool(_STRNUM.match(s))


def gt(a, b):
    """awk's a > b between a CSV field (or number) and a number or field:
    numeric when both look numeric, else a comparison of strings."""
    if looks_numeric(a) and looks_numeric(b):
        return num(a) > num(b)
    return numstr(a) > numstr(b)


def ipow(x, n):
    """x ^ n for an integer n >= 1 as gawk computes it: by repeated
    squaring (which may differ from pow() in the last bit)."""
    mult = 1.0
    while n > 1:
        if n % 2 == 1:
            mult *= x
        x *= x
        n //= 2
    return mult * x


def _floor(x):
    f = int(x)
    return f - 1 if f > x else f


def cfmt(how, x):
    """C's printf with one number (awk's sprintf(how, x))."""
    if re.search(r'%[-+ #0]*\d*(\.\d+)?[di]', how):
        x = int(x) if math.isfinite(x) else x
    return how % x


def fmt(v, how=''):
    """The one number formatter.  how: "sig3" or "" (three significant
    digits, never exponent notation: 0.497 6.31 51.2 137 1230), "pct"
    (a percentage: no decimals from 10 on, else one), "err" (2.1e-06 ->
    $2.1\\times10^{-6}$), "int", "raw", or a printf format such as
    "%.1f".  A value that is not a number is returned as it is."""
    if not isnum(v):
        return v
    if how == 'raw':
        return numstr(v)
    v = num(v)
    if how == 'int':
        return '%.0f' % v
    if how == 'pct':
        return ('%.0f' if v >= 10 or v <= -10 else '%.1f') % v
    if how == 'err':
        if v == 0:
            return '$0$'
        mant, exp = ('%.1e' % v).split('e')
        return '$%s\\times10^{%d}$' % (mant, int(exp))
    if how.startswith('%'):
        return cfmt(how, v)
    a = -v if v < 0 else v
    if a == 0:
        return '0'
    if a >= 999.5:
        e10 = 10 ** (_floor(math.log(a) / math.log(10)) - 2)
        return '%.0f' % (int(v / e10 + (-0.5 if v < 0 else 0.5)) * e10)
    if a >= 99.95:
        return '%.0f' % v
    d = 2 - _floor(math.log(a) / math.log(10))
    s = ('%.' + str(d) + 'f') % v
    if abs(float(s)) >= 10 ** (3 - d) and d > 0:
        s = ('%.' + str(d - 1) + 'f') % v
    return s


def tex(s):
    """Text for LaTeX: _ & % # $ escaped."""
    return re.sub(r'([_&%#$])', r'\\\1', s)


def slug(s):
    """A GPU's name as a folder name: NVIDIA H100 80GB HBM3 ->
    nvidia-h100-80gb-hbm3."""
    s = re.sub(r'[^a-z0-9]+', '-', s.lower())
    return s.strip('-')
