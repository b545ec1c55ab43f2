"""noweb filter (book/tools/weave runs it, as book/tools/hilite, after
noidx): syntax highlighting of code chunks for the PDF book.  As it runs
after the cross-referencer, it only splits @text tokens of code into @text
pieces and @literal LaTeX, e.g.
  @text for (i = 0; ...   ->   @literal {\\nwhlkw{}   @text for   @literal }
totex still escapes every @text, identifier uses (@index use + @text) stay
intact, and @<<< launches are already plain text here.  Styles (\\nwhlkw,
\\nwhlcuda, \\nwhlcomment, \\nwhlpp, \\nwhlstr) are defined in book/book.tex.
Groups never span a line end: they are closed before each @nl.  Quotes,
in code and in quoted code [[...]], become straight ones (puttext).
The words of each class are those of book/tools/c-words (book/html.lua
reads the same file).

(A port of the awk program that book/tools/hilite was; its output is the
same byte for byte.)
"""
import os
import re

from . import fields, main, read_file

WORDS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                     'tools', 'c-words')

_ID = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
_OTHER = re.compile(r'[^A-Za-z_"\'/]+|/')
_QUOTE = re.compile(r"['`]")
_STR = {c: re.compile(r'(?:[^%s\\]|\\.)*%s' % (c, c), re.S) for c in '"\''}
_PPLINE = re.compile(r'[ \t]*#')
_BLANK = re.compile(r'[ \t]*')


def words(path=WORDS):
    """class of each word: the lines "CLASS: word word ..." of c-words."""
    cls = {}
    for line in read_file(path) or ():
        if line.startswith('#') or ':' not in line:
            continue
        c, ws = line.split(':', 1)
        for w in fields(ws):
            cls[w] = c
    return cls


class Hilite:
    def __init__(self, cls):
        self.cls = cls
        self.out = []
        self.style = ''     # style of the group now open ('' = none)
        self.code = self.quote = False
        self.bol = self.incomment = self.linecomment = self.pp = 0
        self.instring = ''
        self.lasttext = ''

    def open(self, s):
        if s == self.style:
            return
        if self.style:
            self.out.append('@literal }')
        if s:
            self.out.append('@literal {\\nwhl' + s + '{}')   # {}: spaces are active in code
        self.style = s

    def emit(self, s, t):
        if t:
            self.open(s)
            self.puttext(t)

    def puttext(self, t):
        """T1 fonts print ' and ` as typographic quotes; code wants the
        straight ones, from textcomp."""
        out = self.out
        if t and "'" not in t and '`' not in t:
            out.append('@text ' + t)
            return
        p = 0
        for m in _QUOTE.finditer(t):
            if m.start() > p:
                out.append('@text ' + t[p:m.start()])
            out.append('@literal \\textasciigrave{}' if m.group() == '`'
                       else '@literal \\textquotesingle{}')
            p = m.end()
        if p < len(t):
            out.append('@text ' + t[p:])

    def scan(self, t):
        """Scan one @text piece of code; state (comment, string,
        preprocessor line) carries over to the next piece of the line."""
        emit = self.emit
        p, n = 0, len(t)
        while p < n:
            if self.incomment:
                e = t.find('*/', p)
                if e >= 0:
                    emit('comment', t[p:e + 2])
                    p = e + 2
                    self.incomment = 0
                else:
                    emit('comment', t[p:])
                    p = n
            elif self.linecomment:
                emit('comment', t[p:])
                p = n
            elif self.instring:
                m = _STR[self.instring].match(t, p)
                if m:
                    emit('str', t[p:m.end()])
                    p = m.end()
                    self.instring = ''
                else:
                    emit('str', t[p:])
                    p = n
            elif self.pp:               # whole preprocessor line
                emit('pp', t[p:])
                p = n
            elif t.startswith('//', p):
                self.linecomment = 1
            elif t.startswith('/*', p):
                emit('comment', '/*')
                p += 2
                self.incomment = 1
            elif t[p] == '"' or t[p] == "'":
                self.instring = c = t[p]
                emit('str', c)
                p += 1
            else:
                m = _ID.match(t, p)
                if m:
                    w = m.group()
                    emit(self.cls.get(w, ''), w)
                else:
                    m = _OTHER.match(t, p)
                    emit('', m.group())
                p = m.end()

    def line(self, s):
        out = self.out
        if s.startswith('@begin code'):
            self.code = True
            self.bol = 1
            self.incomment = self.linecomment = self.pp = 0
            self.instring = ''
        if s.startswith('@end code'):
            self.open('')
            self.code = False
        if self.code:
            if s.startswith('@text '):
                t = self.lasttext = s[6:]
                if self.bol and _PPLINE.match(t):
                    self.pp = 1
                if not _BLANK.fullmatch(t):
                    self.bol = 0
                if t:
                    self.scan(t)
                else:
                    out.append(s)
                return
            if s.startswith('@nl'):
                self.open('')
                out.append(s)
                if self.pp and not self.lasttext.endswith('\\'):
                    self.pp = 0      # a trailing backslash continues #define
                self.linecomment = 0
                self.instring = ''
                self.bol = 1
                return
            # An identifier use (@xref/@index use, then its @text) must
            # stay adjacent: close a plain-code group before it, keep
            # comment/string/#line groups open.
            if s.startswith('@xref') or s.startswith('@index use'):
                if not (self.incomment or self.linecomment or self.instring or self.pp):
                    self.open('')
                out.append(s)
                return
            if s.startswith('@use'):
                self.bol = 0
                out.append(s)
                return
        # Quoted code in the prose ([[...]]): only the quotes.
        if s.startswith('@quote'):
            self.quote = True
        if s.startswith('@endquote'):
            self.quote = False
        if self.quote and s.startswith('@text '):
            self.puttext(s[6:])
            return
        out.append(s)


def hilite(lines, cls=None):
    """The token stream (a list of lines) with its code highlighted."""
    h = Hilite(words() if cls is None else cls)
    for s in lines:
        h.line(s)
    return h.out


if __name__ == '__main__':
    main(hilite)
