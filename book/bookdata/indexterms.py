"""The subject index's entries, from a list of terms (book/index-terms.txt).

insert(lines, terms) works on noweb's markup stream (book/tools/weave runs
it before the cross-references): in the prose of each section, after the
first place where a term's pattern matches, it writes \\index{KEY}, so
that the index lists every section that speaks of the term, at its
page, and grows as the text does, without \\index in the chapters'
sources.  A term counts only in running text and in quoted code
([[...]], whose \\index goes after the quote): not in code chunks, math
($...$, \\[...\\]), a command's braces (\\ref{}, \\texttt{}, \\R{}),
headings and captions, or tables, figures and verbatim text, nor inside
an \\index the text writes itself.

The list: one term a line, PATTERN<TAB>KEY; PATTERN a Python regular
expression (matched whole words, case as written; (?i) for any case),
KEY as makeindex reads it (sub!entry, sort@text).  '#' starts a comment.
"""
import re

_SKIP_ENVS = ('equation', 'equation*', 'align', 'align*', 'tabular',
              'verbatim', 'figure', 'table', 'longtable', 'tikzpicture',
              'center', 'displaymath')
_HEADING = re.compile(r'\\(chapter|section|subsection|paragraph|caption|'
                      r'label|item\[|resultstable|progresschart)')
_NEW_SECTION = re.compile(r'\\(chapter|section)\b')


class TermError(ValueError):
    pass


def load(path):
    """[(compiled pattern, key)] of the list at path."""
    out = []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            if '\t' not in line:
                raise TermError('%s:%d: want PATTERN<TAB>KEY' % (path, n))
            pat, key = line.split('\t', 1)
            # (a leading (?i) holds for the pattern alone)
            if pat.startswith('(?i)'):
                pat = '(?i:%s)' % pat[4:]
            try:
                rx = re.compile(r'(?<![A-Za-z0-9_\\-])(?:%s)(?![A-Za-z0-9_])' % pat)
            except re.error as e:
                raise TermError('%s:%d: %s' % (path, n, e))
            out.append((rx, key.strip()))
    return out


def _open_spans(text):
    """The positions of TEXT in running text: outside $...$, \\(...\\),
    braces and a command's name."""
    ok = [False] * len(text)
    depth, math, i = 0, False, 0
    while i < len(text):
        c = text[i]
        if c == '\\':
            if i + 1 < len(text) and text[i + 1] in '$%{}&_#\\':
                i += 2
                continue
            m = re.match(r'\\[A-Za-z]+', text[i:])
            if m:
                i += m.end()
                continue
        if c == '$':
            math = not math
        elif c == '{':
            depth += 1
        elif c == '}':
            depth = max(0, depth - 1)
        elif depth == 0 and not math:
            ok[i] = True
        i += 1
    return ok


def insert(lines, terms):
    """The markup LINES with \\index{KEY} after each term's first place in
    the running text of each section (see the module's text); the
    section that names a term most often (the first of them on a tie),
    the one that speaks of it, gets \\index{KEY|textbf}: the index prints
    its page in bold."""
    count = {}
    _insert(lines, terms, count=count)
    best = {}
    for (sec, key), n in sorted(count.items()):
        if key not in best or n > count[(best[key], key)]:
            best[key] = sec
    return _insert(lines, terms, best=best)


def _insert(lines, terms, count=None, best=None):
    """insert's walk through LINES: with COUNT, {(section, key): places}
    filled in and nothing written; with BEST, {key: section}, the marked
    lines."""
    out, docs, env, display, seen = [], False, [], False, set()
    quote, quoted, sec = False, '', 0

    def mark(key):
        return '\\index{%s%s}' % (key, '|textbf' if best and best.get(key) == sec else '')
    for l in lines:
        if l.startswith('@file '):
            seen = set()
            sec += 1
        elif l.startswith('@begin docs'):
            docs = True
        elif l.startswith('@end docs'):
            docs = False
        elif l == '@quote':
            quote, quoted = True, ''
        elif l == '@endquote':
            quote = False
            out.append(l)
            # (a term in quoted code: its \\index after the quote)
            if docs and not env and not display:
                for rx, key in terms:
                    if count is not None:
                        n = len(rx.findall(quoted))
                        if n:
                            count[(sec, key)] = count.get((sec, key), 0) + n
                    elif key not in seen and rx.search(quoted):
                        out.append('@text ' + mark(key))
                        seen.add(key)
            continue
        elif quote and l.startswith('@text '):
            quoted += l[len('@text '):]
        if quote or not (docs and l.startswith('@text ')):
            out.append(l)
            continue
        text = l[len('@text '):]
        if _NEW_SECTION.search(text):
            seen = set()
            sec += 1
        for m in re.finditer(r'\\(begin|end)\{([^}]*)\}', text):
            if m.group(2) in _SKIP_ENVS:
                if m.group(1) == 'begin':
                    env.append(m.group(2))
                elif env:
                    env.pop()
        starts, ends = text.count('\\['), text.count('\\]')
        skip = env or display or starts or _HEADING.search(text)
        display = (display or starts > ends) and not (ends > starts)
        if skip:
            out.append(l)
            continue
        ok = _open_spans(text)
        adds = []
        for rx, key in terms:
            if count is not None:
                n = sum(all(ok[m.start():m.end()]) for m in rx.finditer(text))
                if n:
                    count[(sec, key)] = count.get((sec, key), 0) + n
                continue
            if key in seen:
                continue
            for m in rx.finditer(text):
                if all(ok[m.start():m.end()]):
                    adds.append((m.end(), key))
                    seen.add(key)
                    break
        for at, key in sorted(adds, reverse=True):
            text = text[:at] + mark(key) + text[at:]
        out.append('@text ' + text)
    return out
