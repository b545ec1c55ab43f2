"""noweb filter that marks the uses of defined identifiers, in place of
noweb's own finduses (book/tools/weave runs it, as book/tools/finduses,
before noidx).  noweb's finduses marks every occurrence of a defined name
in every chunk of the book, as a word: in comments and strings, as a
member (o->kernel), as a local variable of another chapter that happens
to have the same name, and noidx then drops the uses in the chunk that
defines the name.  Its index called English words identifiers and
functions "never used".

This one reads the code as C:
 - comments, string and character literals are not code;
 - a name after . or -> is a member, not the identifier;
 - a struct, union or enum tag is used only as "struct NAME" (tags have
   a namespace of their own: a variable gpu is not struct gpu);
 - scope: an identifier defined inside a function (a local variable in
   a chunk that is tangled into a function body) is used only by chunks
   tangled into the same function; one defined at file scope (or by
   #define) is used by chunks of its own chapter and later ones (chapter
   N's code may use chunks of chapters up to N, never a later one); an
   appendix chN-NAME.nw belongs to chapter N, wherever it is woven.
   Function bodies are found by tangling every root chunk, counting
   braces outside comments, strings and preprocessor lines.
 - the first occurrence in the defining chunk is the definition; the
   others (not a repeated declaration at file scope) are uses, which
   noidx would drop: they leave "@index selfuse NAME" before
   "@end code", which book/tools/weave turns into an index entry after
   noidx.
Quoted code in the prose ([[...]]) is read the same way and links to a
definition of its chapter or an earlier one.  Output: each use becomes
  @index use NAME   @text NAME   inside the @text that held it.

(A port of the awk program that book/tools/finduses was; its output is
the same byte for byte.)
"""
import re

from . import main

_ID = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
_NUM = re.compile(r'\.?[0-9][A-Za-z0-9_.]*')
_PPLINE = re.compile(r'[ \t]*#')
_BLANK = re.compile(r'[ \t]*')
_CHAPFILE = re.compile(r'ch[0-9]+[-.]')
_AWKNUM = re.compile(r'[0-9]+\.?[0-9]*(?:[eE][-+]?[0-9]+)?')
_IDSTART = frozenset('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_')
_DIGIT = frozenset('0123456789')
_PUNCT = frozenset('{}(;.*')
_DECLEND = frozenset((';', ',', '[', ':', ')'))


class Chunk:
    """The tokens of a code chunk (k = 1, 2, ...) or a quote (k < 0):
    kind ("id", "{", "}", "(", ";", ".", "*", "op", "use"), value
    (identifier, character or chunk name), line of the input and offset
    (1-based) of an identifier in its @text, and whether it lies on a
    preprocessor line."""
    __slots__ = ('kind', 'val', 'line', 'off', 'pre', 'file')

    def __init__(self, file):
        self.kind, self.val, self.line, self.off, self.pre = [], [], [], [], []
        self.file = file

    def add(self, kind, val, line, off, pre):
        self.kind.append(kind)
        self.val.append(val)
        self.line.append(line)
        self.off.append(off)
        self.pre.append(pre)


class FindUses:
    def __init__(self, lines):
        self.L = lines
        self.chunks = {}       # k -> Chunk
        self.nchunks = 0
        self.nquotes = 0
        self.chap = {}         # file number -> chapter
        self.cname = {}        # code chunk -> its name
        self.used = set()      # chunk names used by some chunk
        self.defs = {}         # identifier -> the chunks that define it

    # ---- pass 1: chunks, their tokens, definitions ------------------------
    def parse(self):
        nf = 0
        k = q = 0
        incode = inquote = False
        self.bol = 0
        self.lasttext = ''
        self.reset()
        for i, s in enumerate(self.L):
            if s.startswith('@file '):
                nf += 1
                fc = s[6:]
                fc = fc[fc.rfind('/') + 1:]
                # the chapter a file belongs to: chN.nw and its appendices
                # chN-NAME.nw
                if _CHAPFILE.match(fc):
                    m = _AWKNUM.match(fc, 2)
                    self.chap[nf] = float(m.group()) if m else 0
                else:
                    self.chap[nf] = 1000 + nf
            elif s.startswith('@begin code '):
                self.nchunks += 1
                k = self.nchunks
                incode = True
                self.chunks[k] = Chunk(nf)
                self.reset()
                self.bol = 1
            elif s.startswith('@end code '):
                incode = False
            elif incode and s.startswith('@defn '):
                self.cname[k] = s[6:]
            elif incode and s.startswith('@use '):
                self.used.add(s[5:])
                self.chunks[k].add('use', s[5:], i, 0, self.pp)
                self.bol = 0
            elif incode and s.startswith('@index defn '):
                self.defs.setdefault(s[12:], []).append(k)
            elif incode and s.startswith('@text '):
                self.lex(self.chunks[k], s[6:], i)
            elif incode and s.startswith('@nl'):
                self.newline()
            elif not incode and s.startswith('@quote'):
                inquote = True
                q -= 1
                self.chunks[q] = Chunk(nf)
                self.reset()
                self.bol = 0
            elif not incode and s.startswith('@endquote'):
                inquote = False
            elif inquote and s.startswith('@text '):
                self.lex(self.chunks[q], s[6:], i)
        self.nquotes = -q

    def reset(self):
        self.incomment = self.linecomment = self.pp = 0
        self.instring = ''

    def newline(self):
        if not (self.pp and self.lasttext.endswith('\\')):
            self.pp = 0      # a backslash continues #define
        self.linecomment = 0
        self.instring = ''
        self.bol = 1

    def lex(self, ch, s, i):
        """Split one @text piece (line i) into tokens; comment and string
        state carry over to the next piece."""
        self.lasttext = s
        n = len(s)
        p = 0
        if self.bol and _PPLINE.match(s):
            self.pp = 1
        if not _BLANK.fullmatch(s):
            self.bol = 0
        while p < n:
            c = s[p]
            if self.incomment:
                m = s.find('*/', p)
                if m >= 0:
                    p = m + 2
                    self.incomment = 0
                else:
                    p = n
            elif self.linecomment:
                p = n
            elif self.instring:
                if c == '\\':
                    p += 2
                else:
                    if c == self.instring:
                        self.instring = ''
                    p += 1
            elif s.startswith('//', p):
                self.linecomment = 1
                p = n
            elif s.startswith('/*', p):
                self.incomment = 1
                p += 2
            elif c == '"' or c == "'":
                self.instring = c
                p += 1
            elif c in _IDSTART:
                e = _ID.match(s, p).end()
                ch.add('id', s[p:e], i, p + 1, self.pp)
                p = e
            elif c in _DIGIT or (c == '.' and p + 1 < n and s[p + 1] in _DIGIT):
                p = _NUM.match(s, p).end()
            elif s.startswith('->', p):
                ch.add('.', '->', i, p + 1, self.pp)
                p += 2
            elif c == ' ' or c == '\t':
                p += 1
            else:
                ch.add(c if c in _PUNCT else 'op', c, i, p + 1, self.pp)
                p += 1

    # ---- pass 2: tangle every root, find the functions of each token -----
    # A function body is a { after a ) outside any function (not a struct,
    # enum or initializer, nor extern "C" {).  instruct: tokens tangled
    # directly inside a struct or union body.  fun[(k, i)]: the function
    # bodies (numbered over all roots) into which token i of chunk k is
    # tangled; top: tokens also tangled outside any function.
    def tangle_all(self):
        self.chunksof = {}
        order = []
        for k in range(1, self.nchunks + 1):
            name = self.cname.get(k, '')
            if name not in self.chunksof:
                order.append(name)
                self.chunksof[name] = []
            self.chunksof[name].append(k)
        self.tangled = set()
        self.top = set()
        self.instruct = set()
        self.infun = set()
        self.fun = {}
        self.body = {}
        self.nfun = 0
        self.fndepth = 0
        for name in order:
            if name not in self.used:
                self.depth = 0
                self.infn = False
                self.last = self.last2 = self.lastkind = ''
                self.expand(name, 0)

    def expand(self, name, level):
        if level > 50 or name not in self.chunksof:
            return
        for k in self.chunksof[name]:
            self.tangled.add(k)
            ch = self.chunks[k]
            for i, kind in enumerate(ch.kind):
                if kind == 'use':
                    self.expand(ch.val[i], level + 1)
                    continue
                pre = ch.pre[i]
                if kind == '{' and not pre:
                    last = self.last
                    if not self.infn and last == ')':
                        self.infn = True
                        self.fndepth = self.depth
                        self.nfun += 1
                    self.depth += 1
                    self.body[self.depth] = (
                        last == 'struct' or last == 'union'
                        or ((self.last2 == 'struct' or self.last2 == 'union')
                            and self.lastkind == 'id'))
                elif kind == '}' and not pre:
                    if self.depth > 0:
                        self.depth -= 1
                    if self.infn and self.depth == self.fndepth:
                        self.infn = False
                elif kind == 'id':
                    if self.depth > 0 and self.body[self.depth]:
                        self.instruct.add((k, i))
                    if not self.infn:
                        self.top.add((k, i))
                    else:
                        fs = self.fun.setdefault((k, i), [])
                        if self.nfun not in fs:
                            fs.append(self.nfun)
                            self.infun.add((k, i))
                if not pre:
                    self.last2 = self.last
                    self.lastkind = kind
                    self.last = ch.val[i] if kind == 'op' or kind == 'id' else kind

    # ---- pass 3: which occurrences are definitions and uses ---------------
    def chapter(self, k):
        return self.chap.get(self.chunks[k].file, 0)

    @staticmethod
    def prevtok(ch, i):
        if i == 0:
            return ''
        return ch.val[i - 1] if ch.kind[i - 1] == 'id' else ch.kind[i - 1]

    @staticmethod
    def member(ch, i):
        return i > 0 and ch.kind[i - 1] == '.'

    def tagged(self, ch, i):
        return self.prevtok(ch, i) in ('struct', 'union', 'enum')

    def decide(self):
        defi, self.glob, isdef, istag = {}, {}, set(), set()
        self.defi, self.istag = defi, istag
        mark = self.mark = set()
        selfs = self.selfs = {}
        # The definition: the first occurrence of x in its defining chunk.
        for x, ks in self.defs.items():
            for d, k in enumerate(ks):
                ch = self.chunks[k]
                for i, kind in enumerate(ch.kind):
                    if kind == 'id' and ch.val[i] == x and not self.member(ch, i):
                        break
                else:
                    continue
                defi[x, d] = i
                isdef.add((k, i))
                # a tag in C; a template struct is a type name, used
                # without "struct"
                if self.tagged(ch, i) and not (
                        i > 1 and ch.kind[i - 2] == 'op' and ch.val[i - 2] == '>'):
                    istag.add(x)
                # file scope: tangled there, or a macro, or never tangled
                self.glob[x, d] = ((k, i) in self.top or bool(ch.pre[i])
                                   or k not in self.tangled)
        seen = set()
        for k in range(1, self.nchunks + 1):
            ch = self.chunks[k]
            for i, kind in enumerate(ch.kind):
                x = ch.val[i]
                if kind != 'id' or x not in self.defs or not self.eligible(k, ch, i):
                    continue
                if (k, i) in isdef:
                    mark.add((k, i))
                    continue
                ks = self.defs[x]
                for d in range(len(ks)):
                    if (x, d) in defi and self.visible(x, d, k, ch, i):
                        break
                else:
                    continue
                mark.add((k, i))
                if ks[d] == k and not self.redeclared(k, ch, i) and (k, x) not in seen:
                    seen.add((k, x))
                    selfs.setdefault(k, []).append(x)
        for k in range(-1, -self.nquotes - 1, -1):
            ch = self.chunks[k]
            for i, kind in enumerate(ch.kind):
                x = ch.val[i]
                if kind != 'id' or x not in self.defs or not self.eligible(k, ch, i):
                    continue
                for dk in self.defs[x]:
                    if self.chapter(dk) <= self.chapter(k):
                        mark.add((k, i))
                        break

    def eligible(self, k, ch, i):
        return (not self.member(ch, i) and not self.declmember(k, ch, i)
                and (ch.val[i] not in self.istag or self.tagged(ch, i)))

    def declmember(self, k, ch, i):
        """The name a struct or union body declares: "double
        (*ffma_tflops)(int);" declares a member, it does not use the
        function ffma_tflops."""
        if (k, i) not in self.instruct or i == len(ch.kind) - 1:
            return False
        nx = ch.val[i + 1] if ch.kind[i + 1] == 'op' else ch.kind[i + 1]
        return nx in _DECLEND

    def visible(self, x, d, k, ch, i):
        """Is definition d of x in scope at token i of chunk k?"""
        dc = self.defs[x][d]
        di = self.defi[x, d]
        if self.glob[x, d]:
            return self.chapter(k) >= self.chapter(dc)
        # a macro body names the locals of the function it is expanded in
        if ch.pre[i]:
            return self.chapter(k) == self.chapter(dc)
        theirs = self.fun.get((dc, di), ())
        return any(f in theirs for f in self.fun.get((k, i), ()))

    def redeclared(self, k, ch, i):
        """A second declaration at file scope (a prototype and its
        definition in one chunk) is not a use."""
        p = self.prevtok(ch, i)
        return ((k, i) in self.top and (k, i) not in self.infun
                and i < len(ch.kind) - 1 and ch.kind[i + 1] == '('
                and ((i > 0 and ch.kind[i - 1] == 'id') or p == '*')
                and p != 'return')

    # ---- output: split the @text pieces at the marked uses ----------------
    def output(self):
        marks = {}
        for k in range(-self.nquotes, self.nchunks + 1):
            ch = self.chunks.get(k)
            if ch is None:
                continue
            for i in range(len(ch.kind)):
                if (k, i) in self.mark:
                    marks.setdefault(ch.line[i], []).append((ch.off[i], ch.val[i]))
        out = []
        cur = 0
        for li, s in enumerate(self.L):
            if s.startswith('@begin code '):
                cur += 1
            if s.startswith('@end code ') and cur in self.selfs:
                out.extend('@index selfuse ' + x for x in self.selfs[cur])
            if li not in marks:
                out.append(s)
                continue
            s = s[6:]
            p = 1
            for pos, x in marks[li]:
                if pos > p:
                    out.append('@text ' + s[p - 1:pos - 1])
                out.append('@index use ' + x)
                out.append('@text ' + x)
                p = pos + len(x)
            if p <= len(s):
                out.append('@text ' + s[p - 1:])
        return out


def finduses(lines):
    """The token stream (a list of lines) with the uses marked."""
    f = FindUses(lines)
    f.parse()
    f.tangle_all()
    f.decide()
    return f.output()


if __name__ == '__main__':
    main(finduses)
