"""bookdata.indexterms: the subject index's terms."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'book'))
from bookdata import indexterms  # noqa: E402


def terms(text):
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
        f.write(text)
    try:
        return indexterms.load(f.name)
    finally:
        os.remove(f.name)


T = terms('# a comment\n(?i)bank conflicts?\tbank conflict\nTMA\tTMA\nwarps?\twarp\n')


def run(*lines):
    out = indexterms.insert(['@file a.nw', '@begin docs 0']
                            + ['@text ' + l for l in lines] + ['@end docs 0'], T)
    return [l[len('@text '):] for l in out if l.startswith('@text ')]


class Insert(unittest.TestCase):
    def test_first_place_of_each_section(self):
        self.assertEqual(run('Bank conflicts cost; a bank conflict again.',
                             'No more bank conflicts here.',
                             '\\section{Next}', 'bank conflicts, anew.'),
                         ['Bank conflicts\\index{bank conflict|textbf} cost; a bank conflict again.',
                          'No more bank conflicts here.', '\\section{Next}',
                          'bank conflicts\\index{bank conflict}, anew.'])

    def test_not_in_math_braces_headings_or_displays(self):
        self.assertEqual(run('$TMA$ and \\texttt{TMA} and \\ref{TMA}'),
                         ['$TMA$ and \\texttt{TMA} and \\ref{TMA}'])
        self.assertEqual(run('\\paragraph{TMA.} words', '\\[', 'TMA', '\\]', 'TMA'),
                         ['\\paragraph{TMA.} words', '\\[', 'TMA', '\\]',
                          'TMA\\index{TMA|textbf}'])
        self.assertEqual(run('\\begin{figure}', 'TMA', '\\end{figure}'),
                         ['\\begin{figure}', 'TMA', '\\end{figure}'])

    def test_whole_words_and_code(self):
        self.assertEqual(run('warpgroups are not warps'),
                         ['warpgroups are not warps\\index{warp|textbf}'])
        out = indexterms.insert(['@begin docs 0', '@text the ', '@quote', '@text TMA',
                                 '@endquote', '@text  unit', '@end docs 0'], T)
        self.assertEqual(out, ['@begin docs 0', '@text the ', '@quote', '@text TMA',
                               '@endquote', '@text \\index{TMA|textbf}', '@text  unit',
                               '@end docs 0'])

    def test_the_section_that_names_a_term_most_is_its_main_entry(self):
        # (bold in the index: the section that speaks of the term, not
        # the first that names it; on a tie, the first)
        self.assertEqual(run('a warp.', '\\section{B}', 'warps and warps and a warp.',
                             '\\section{C}', 'one warp.'),
                         ['a warp\\index{warp}.', '\\section{B}',
                          'warps\\index{warp|textbf} and warps and a warp.', '\\section{C}',
                          'one warp\\index{warp}.'])
        self.assertEqual(run('a warp.', '\\section{B}', 'a warp.'),
                         ['a warp\\index{warp|textbf}.', '\\section{B}', 'a warp\\index{warp}.'])

    def test_code_chunks_untouched(self):
        out = indexterms.insert(['@begin code 1', '@text TMA warps', '@end code 1'], T)
        self.assertEqual(out, ['@begin code 1', '@text TMA warps', '@end code 1'])

    def test_bad_list(self):
        with self.assertRaises(indexterms.TermError):
            terms('no tab here\n')
        with self.assertRaises(indexterms.TermError):
            terms('(unclosed\tkey\n')


if __name__ == '__main__':
    unittest.main()
