"""The weave filters (book/weave: finduses, hilite, nw2pandoc, subst) on
small token streams and LaTeX.

Run from the repository's root:
    python3 -m unittest tests/test_weave.py
"""
import contextlib
import io
import os
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, 'book'))
from weave import finduses, hilite, nw2pandoc, subst  # noqa: E402


def chunk(n, name, code, defs=()):
    """noweb's markup of code chunk n: its name, its lines (a line
    "<<x>>" uses chunk x), then the identifiers it defines (@ %def)."""
    toks = ['@begin code %d' % n, '@defn ' + name, '@nl']
    for line in code:
        if line.startswith('<<'):
            toks.append('@use ' + line[2:-2])
        else:
            toks.append('@text ' + line)
        toks.append('@nl')
    toks += ['@index defn ' + x for x in defs]
    return toks + ['@end code %d' % n]


def uses(out):
    """(chunk, name) of each use finduses marked, "self" for a use in the
    defining chunk."""
    r, n = [], 0
    for t in out:
        if t.startswith('@begin code '):
            n = int(t.split()[2])
        elif t.startswith('@index use '):
            r.append((n, t[11:]))
        elif t.startswith('@index selfuse '):
            r.append((n, 'self ' + t[15:]))
    return r


class FindUses(unittest.TestCase):
    def test_comment_is_not_a_use(self):
        toks = (['@file chapters/ch1.nw']
                + chunk(1, 'a.c', ['int width;', '<<b>>'], ['width'])
                + chunk(2, 'b', ['/* width */ int x = width;']))
        out = finduses.finduses(toks)
        self.assertEqual(out[out.index('@begin code 2'):], [
            '@begin code 2', '@defn b', '@nl', '@text /* width */ int x = ',
            '@index use width', '@text width', '@text ;', '@nl', '@end code 2'])
        self.assertEqual(uses(out), [(1, 'width'), (2, 'width')])

    def test_member_is_not_a_use(self):
        toks = (['@file chapters/ch1.nw']
                + chunk(1, 'a.c', ['int width;', '<<b>>'], ['width'])
                + chunk(2, 'b', ['void f(struct s *p) { p->width = width; }']))
        self.assertEqual(uses(finduses.finduses(toks)), [(1, 'width'), (2, 'width')])

    def test_struct_tag(self):
        toks = (['@file chapters/ch1.nw']
                + chunk(1, 'a.c', ['struct gpu { int n; };', '<<b>>'], ['gpu'])
                + chunk(2, 'b', ['struct gpu g; int gpu = g.n;', 'char *s = "gpu";']))
        out = finduses.finduses(toks)
        self.assertEqual(uses(out), [(1, 'gpu'), (2, 'gpu')])
        self.assertIn('@text struct ', out)     # struct gpu: the tag, used
        self.assertIn('@text  g; int gpu = g.n;', out)

    def test_local_variable_in_its_function_only(self):
        toks = (['@file chapters/ch1.nw']
                + chunk(1, 'a.c', ['void f(void) {', '<<f decl>>', '<<f loop>>', '}',
                                   'void g(void) {', '<<g loop>>', '}'])
                + chunk(2, 'f decl', ['int i = 0;'], ['i'])
                + chunk(3, 'f loop', ['i++;'])
                + chunk(4, 'g loop', ['i++;']))
        self.assertEqual(uses(finduses.finduses(toks)), [(2, 'i'), (3, 'i')])

    def test_later_chapter_not_used_by_earlier(self):
        toks = (['@file chapters/ch1.nw']
                + chunk(1, 'one.c', ['int a = helper(1);'])
                + ['@begin docs 2', '@text See ', '@quote', '@text helper', '@endquote',
                   '@nl', '@end docs 2', '@file chapters/ch2.nw']
                + chunk(3, 'two.c', ['int helper(int x);', 'int b = helper(2);',
                                     'int helper(int x) { return x; }'], ['helper'])
                + ['@file chapters/ch2-extra.nw']
                + chunk(4, 'extra.c', ['int c = helper(3);']))
        # chunk 1 and the quote (chapter 1) do not use chapter 2's helper;
        # chunk 3 marks all three (noidx drops marks in the defining chunk)
        # and leaves a selfuse for the call; the appendix of chapter 2 uses it
        self.assertEqual(uses(finduses.finduses(toks)),
                         [(3, 'helper'), (3, 'helper'), (3, 'helper'),
                          (3, 'self helper'), (4, 'helper')])

    def test_prototype_and_definition_are_not_a_selfuse(self):
        toks = (['@file chapters/ch1.nw']
                + chunk(1, 'a.c', ['int helper(int x);', 'int helper(int x) { return x; }'],
                        ['helper']))
        self.assertEqual(uses(finduses.finduses(toks)), [(1, 'helper'), (1, 'helper')])


class Hilite(unittest.TestCase):
    def test_keyword_and_comment(self):
        out = hilite.hilite(['@begin code 1', '@defn x', '@nl',
                             '@text int n; // it\'s n', '@nl', '@end code 1'])
        self.assertEqual(out, [
            '@begin code 1', '@defn x', '@nl',
            '@literal {\\nwhlkw{}', '@text int', '@literal }', '@text  ', '@text n',
            '@text ; ', '@literal {\\nwhlcomment{}', '@text // it',
            '@literal \\textquotesingle{}', '@text s n', '@literal }',
            '@nl', '@end code 1'])


class Nw2Pandoc(unittest.TestCase):
    def test_code_chunk_is_a_listing(self):
        toks = ['@begin docs 0', '@text See ', '@quote', '@text a_b', '@endquote',
                '@nl', '@end docs 0',
                '@begin code 1', '@xref label NW1', '@defn main', '@nl',
                '@text int a_b = ', '@index use a_b', '@text a_b', '@text ;', '@nl',
                '@use helper', '@nl', '@index defitem a_b', '@end code 1']
        self.assertEqual(nw2pandoc.nw2pandoc(toks),
                         'See \\texttt{a\\_b}\n'
                         '\\begin{lstlisting}\n'
                         '⟪=main⟫\n'
                         'int a_b = ⟪#a_b⟫;\n'
                         '⟪helper⟫\n'
                         '⟪%def a_b:⟫\n'
                         '\\end{lstlisting}\n')


    def test_quotes_of_the_highlighter_are_quotes_again(self):
        # the PDF's highlighter writes ' and ` in code as LaTeX; the
        # HTML's code is verbatim and must print them
        toks = ['@begin code 1', '@xref label NW1', '@defn q', '@nl',
                '@text /* the book', '@literal \\textquotesingle{}', '@text s */',
                '@literal \\textasciigrave{}', '@nl', '@end code 1']
        self.assertEqual(nw2pandoc.nw2pandoc(toks),
                         '\\begin{lstlisting}\n'
                         '⟪=q⟫\n'
                         "/* the book's */`\n"
                         '\\end{lstlisting}\n')


class Subst(unittest.TestCase):
    def test_keys_and_code(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'results.keys'), 'w') as f:
                f.write('gpu.name\tH200\n')
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                out = subst.subst(['\\notmeasurednote',
                                   'GPU: \\R{gpu.name}, \\R{nope}.',
                                   '\\begin{lstlisting}', 'x = \\R{gpu.name};',
                                   '\\end{lstlisting}'], d)
                whole = subst.subst(['\\notmeasurednote', '\\R{gpu.name}'], d)
        mark = '\\textbf{[not measured]}'
        self.assertEqual(out, ['1 figure of this edition was not measured on '
                               'this GPU; each is marked %s.' % mark,
                               'GPU: H200, %s.' % mark, '\\begin{lstlisting}',
                               'x = \\R{gpu.name};', '\\end{lstlisting}'])
        self.assertEqual(whole, ['', 'H200'])
        self.assertEqual(err.getvalue(),
                         'subst: 1 figures not measured on this GPU, marked '
                         '[not measured]: nope\n')


if __name__ == '__main__':
    unittest.main()
