"""noweb's token stream after its cross-referencer (stdin: what
`noweave -n -index ... -backend cat` writes) -> LaTeX that pandoc reads,
for the HTML book (book/tools/htmlsrc runs it as book/tools/nw2pandoc).
Documentation passes through; [[code]] becomes \\texttt{...}; each code
chunk becomes an lstlisting whose first line is the marker
  ⟪=chunk name⟫, in whose code a use of another chunk is
⟪chunk name⟫  and a use of an identifier that the book defines is  ⟪#id⟫,
and whose last lines, if the chunk defines or uses such identifiers, are
  ⟪%def id:N,N id: ...⟫   identifiers defined here, with the chunks that
                           use them, this one apart (none: never used)
  ⟪%use id:N id:N ...⟫    identifiers used here, with the chunk that
                           defines them
The identifier index comes last, as one more lstlisting whose first line
is ⟪%index⟫, then a line per identifier:  id N* N N  (* marks the chunks
that define it).  Chunks are numbered 1, 2, 3 through the book as with
noweb's webnumbering.  lstlisting is verbatim to pandoc, so the code
needs no escaping; book/html.lua turns the markers into chunk numbers,
links, footers, the index and highlighting.

(A port of the awk program that book/tools/nw2pandoc was; its output is
the same byte for byte.)
"""
import re

from . import fields, main

_TT = re.compile(r'[{}_&%#$]')


def tt(s):
    """Escape quoted code for \\texttt{}."""
    s = s.replace('\\', '\x01')
    s = _TT.sub(lambda m: '\\' + m.group(), s)
    s = s.replace('^', '\\^{}').replace('~', '\\~{}')
    return s.replace('\x01', '\\textbackslash{}')


def field(f, n):
    """awk's $n (1-based) of the fields f, "" past the last."""
    return f[n - 1] if len(f) >= n else ''


def nw2pandoc(toks):
    """The LaTeX (a string) of the token stream toks (a list of lines)."""
    # Pass 1: the number of each code chunk, by the label noweb gives it.
    num = {}
    n = 0
    want = False
    for t in toks:
        if t.startswith('@begin code '):
            n += 1
            want = True
        elif t.startswith('@begin docs '):
            want = False
        elif want and t.startswith('@xref label '):
            num[field(fields(t), 3)] = n
            want = False

    def chunk(label):
        return str(num[label]) if label in num else ''

    out = []
    bol = True

    def put(s):
        nonlocal bol
        out.append(s)
        bol = s.endswith('\n')

    code = quoting = False
    cur = 0
    defs = uses = isused = pend = q = ''
    isdef = ''
    selfused = set()
    # (no line starts with two of the prefixes: the most frequent first)
    for t in toks:
        if t.startswith('@text '):
            s = t[6:]
            if quoting:
                q += s
            elif code and pend and s.startswith(pend):
                put('⟪#' + pend + '⟫' + s[len(pend):])
                pend = ''
            else:
                put(s)
        elif t.startswith('@nl'):
            if quoting:
                q += ' '
            else:
                put('\n')
            pend = ''
        elif t.startswith('@begin code'):
            if not bol:
                put('\n')
            put('\\begin{lstlisting}\n')
            code = True
            cur += 1
            defs = uses = isused = pend = ''
            selfused = set()
        elif t.startswith('@end code'):
            if not bol:
                put('\n')
            if defs:
                defs = with_self(defs, selfused, cur)
            if defs:
                put('⟪%def' + defs + '⟫\n')
            if uses:
                put('⟪%use' + uses + '⟫\n')
            put('\\end{lstlisting}\n')
            code = False
        elif t.startswith('@defn '):
            put('⟪=' + t[6:] + '⟫')
        elif t.startswith('@use '):
            put('⟪' + t[5:] + '⟫' if code else '$\\langle$' + t[5:] + '$\\rangle$')
        elif t.startswith('@quote'):
            quoting = True
            q = ''
        elif t.startswith('@endquote'):
            quoting = False
            put('\\texttt{' + tt(q) + '}')
        # a name used again in the chunk that defines it (book/tools/weave
        # writes such a use as a literal index entry): the chunk uses it
        elif code and t.startswith('@literal \\nwindexuse{'):
            x = re.sub(r'\}\{[^{}]*\}$', '', t, count=1)   # the key, before the label
            x = re.sub(r'.*\{', '', x, count=1, flags=re.S)
            selfused.add(x.replace(':un', '_'))
        # the quotes the PDF's highlighter writes as LaTeX (T1 fonts would
        # curl them): in the verbatim code of the HTML, the quotes again
        elif code and t in ('@literal \\textquotesingle{}', '@literal \\textasciigrave{}'):
            put("'" if 'quotesingle' in t else '`')
        elif not code:
            continue
        # Identifiers, as noidx found them (only in code chunks).
        elif '@index' in t:
            f = fields(t)
            if f[0] != '@index':
                continue
            what = field(f, 2)
            if what == 'use':
                pend = field(f, 3)
            elif what == 'isused':
                c = chunk(field(f, 3))
                if c and c != str(cur):
                    isused += (',' if isused else '') + c
            elif what == 'defitem':
                defs += ' ' + field(f, 3) + ':' + isused
                isused = ''
            elif what == 'isdefined':
                isdef = chunk(field(f, 3))
            elif what == 'useitem':
                uses += ' ' + field(f, 3) + ':' + isdef
    # The identifier index (noidx writes it after the last chunk).
    line = ''
    for t in toks:
        if '@index' not in t:
            continue
        f = fields(t)
        if f[0] != '@index':
            continue
        what = field(f, 2)
        if what == 'beginindex':
            if not bol:
                put('\n')
            put('\\begin{lstlisting}\n⟪%index⟫\n')
        elif what == 'entrybegin':
            line = field(f, 4)
        elif what == 'entrydefn' and chunk(field(f, 3)):
            line += ' ' + chunk(field(f, 3)) + '*'
        elif what == 'entryuse' and chunk(field(f, 3)):
            line += ' ' + chunk(field(f, 3))
        elif what == 'entryend':
            put(line + '\n')
        elif what == 'endindex':
            put('\\end{lstlisting}\n')
    return ''.join(out)


def with_self(d, selfused, cur):
    """The ⟪%def⟫ list d with the chunk itself as the user of a name
    that it uses again and no other chunk does."""
    r = ''
    for e in fields(d):
        nm, ns = e.split(':', 1) if ':' in e else (e, e)
        if ns == '' and nm in selfused:
            ns = str(cur)
        r += ' ' + nm + ':' + ns
    return r


if __name__ == '__main__':
    main(nw2pandoc)
