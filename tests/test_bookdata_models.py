"""bookdata.models (the port of book/tools/models) and bookdata.tables'
sweep and timeline (book/tools/sweep-table, timeline), on small inputs;
the expected texts are what the awk tools printed for them.

Run from the repository's root:
    python3 -m unittest tests/test_bookdata_models.py
"""
import io
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, 'book')
from bookdata import models as M  # noqa: E402
from bookdata.keys import Keys  # noqa: E402
from bookdata.tables import TableError, sweep, timeline  # noqa: E402

RAW = {'a.x': '10', 'a.y': '4', 'a.z-w': '3', 'w.t': '(text)',
       'ch9.sk-128x64x16-b2.1024.tflops': '20.25'}
UNDECIDED = ('undecided: its run-to-run spread reaches across the '
             'predicted bound')


def run(formulas):
    """(keys, notes) after models() over RAW."""
    k = Keys()
    for name, v in RAW.items():
        k.plain(name, v)
    notes = M.models(k, formulas, log=io.StringIO())
    return k, notes


def ev(expr):
    tree, _ = M.parse(expr)
    return M.value(tree, RAW)


class Expressions(unittest.TestCase):
    def test_precedence(self):
        for expr, want in [('1 + 2 * 3', 7), ('(1 + 2) * 3', 9),
                           ('7 - 2 - 1', 4), ('8 / 4 / 2', 1),
                           ('2 * 3 % 4', 2), ('-7 % 3', -1),
                           ('1 - -1', 2), ('!0 + 1', 2), ('!0 == 2', 0),
                           ('1 || 0 && 0', 1), ('2 < 3 == 0', None)]:
            if want is None:
                self.assertRaises(M.FormulaError, M.parse, expr)
            else:
                self.assertEqual(ev(expr), want, expr)

    def test_power(self):
        # right-associative, tighter than a unary minus, as in awk
        self.assertEqual(ev('-2^2'), -4)
        self.assertEqual(ev('2^3^2'), 512)
        self.assertEqual(ev('2^-1^2'), 0.5)
        self.assertEqual(ev('3 ^ -1 * 3'), 1)
        self.assertEqual(ev('2 ** 3'), 8)
        # an integral exponent by repeated squaring, as gawk computes it
        self.assertEqual(ev('(1111 / 1024)^3'), 1.2771511739119887)
        self.assertEqual(ev('1.095^7'), 1.887551606348839)  # pow(): ...387

    def test_ternary_and_functions(self):
        self.assertEqual(ev('0 ? 1 : 0 ? 2 : 3'), 3)
        self.assertEqual(ev('0 || 1 ? 5 : 6'), 5)
        self.assertEqual(ev('a.x > a.y ? a.x : a.y'), '10')  # a key's text
        self.assertEqual(ev('int(-7 / 2)'), -3)
        self.assertEqual(ev('int(3.9)'), 3)
        self.assertEqual(ev('max(a.x, a.y) + min(a.x, a.y)'), 14)
        self.assertEqual(ev('128 * int(sqrt(a.x) + 0.999)'), 512)
        self.assertEqual(ev('1e-3 * a.x'), 0.01)
        self.assertEqual(ev('010 + 0x10'), 24)      # gawk's octal and hex
        self.assertRaises(M.FormulaError, M.parse, 'max (1, 2)')
        self.assertRaises(M.FormulaError, M.parse, 'a.x a.y')
        self.assertRaises(M.FormulaError, M.parse, 'foo + 1')

    def test_keys(self):
        self.assertEqual(M.parse('a.z-w - 1')[1], ['a.z-w'])
        self.assertEqual(ev('a.z-w - 1'), 2)
        self.assertEqual(ev('ch9.sk-128x64x16-b2.1024.tflops / 3'), 6.75)
        # no blank: the hyphen is part of the key
        self.assertEqual(M.parse('a.x-1 + a.y')[1], ['a.x-1', 'a.y'])
        self.assertEqual(ev('-inf + 0 * a.x'), -1e300)

    def test_division_by_zero(self):
        self.assertRaises(M.FormulaError, ev, 'a.x / (a.y - 4)')


class Formulas(unittest.TestCase):
    def test_chain(self):
        k, notes = run([('model.sum', 'a.x + a.y * 2 | %g'),
                        ('model.pow', '-2^2 + 2^3^2 | %d'),
                        ('model.tern', 'a.x > a.y ? a.x : a.y'),
                        ('model.hy', 'a.z-w - 1'),
                        ('model.chain', 'model.late * 2 | %.2f'),
                        ('model.late', 'model.sum / 4')])
        for name, text, raw in [('model.sum', '18', '18'),
                                ('model.pow', '508', '508'),
                                ('model.tern', '10.0', '10'),
                                ('model.hy', '2.00', '2'),
                                ('model.late', '4.50', '4.5'),
                                ('model.chain', '9.00', '9')]:
            self.assertEqual((k.text[name], k.raw[name]), (text, raw), name)
        self.assertEqual(notes, [])

    def test_full_precision_and_raw(self):
        k, _ = run([('model.third', 'a.x / 3 | %.1f'),
                    ('model.back', 'model.third * 3 | %.17g')])
        self.assertEqual(k.text['model.third'], '3.3')
        self.assertEqual(k.raw['model.third'], '3.33333333')
        self.assertEqual(k.text['model.back'], '10')   # not 9.99999999

    def test_left_out(self):
        k, notes = run([('model.none', 'b.missing + a.x'),
                        ('model.dep', 'model.none * 2'),
                        ('model.word', 'w.t + 1')])
        self.assertNotIn('model.none', k.raw)
        self.assertNotIn('model.dep', k.text)
        self.assertEqual(notes, [
            'models: model.none: no value for b.missing',
            'models: model.dep: no value for model.none',
            'models: model.word: no value for'])

    def test_verdicts(self):
        k, _ = run([('verdict.at', '1 ; 0.5 ; 1.5 ; -0.5'),
                    ('verdict.over', '1 ; 0.5 ; 1.5 ; 0.5000001'),
                    ('verdict.out', '3 ; 0.5 ; 1.5 ; 1.4'),
                    ('verdict.edge', '3 ; 0.5 ; 1.5 ; 1.5'),
                    ('verdict.inf', 'a.x ; 0 ; inf ; 0')])
        self.assertEqual(k.text['verdict.at'], 'confirmed')
        self.assertEqual(k.text['verdict.over'], UNDECIDED)
        self.assertEqual(k.text['verdict.out'], 'refuted')
        self.assertEqual(k.text['verdict.edge'], UNDECIDED)
        self.assertEqual(k.text['verdict.inf'], 'confirmed')
        self.assertNotIn('verdict.at', k.raw)     # words: results.keys only

    def test_compares(self):
        k, _ = run([('compare.fac', 'a.x ; a.y ; 1 ; 1'),
                    ('compare.pct', '4.2 ; a.y ; 1 ; 1 | higher than / '
                     'lower than'),
                    ('compare.in', '4.02 ; a.y ; 1 ; 1'),
                    ('compare.low', '2 ; a.y ; 1 ; 1')])
        got = {n: (k.text[n], k.text[n + '.by']) for n in
               ('compare.fac', 'compare.pct', 'compare.in', 'compare.low')}
        self.assertEqual(got, {
            'compare.fac': ('faster than', ' by a factor of 2.5'),
            'compare.pct': ('higher than', ' by 5.0\\,\\%'),
            'compare.in': ('within the run-to-run spread of',
                           " (0.5\\,\\% apart, within the spreads' "
                           "2.0\\,\\%)"),
            'compare.low': ('slower than', ' by a factor of 2.0')})
        self.assertNotIn('compare.fac.by', k.raw)

    def test_malformed(self):
        with self.assertRaises(M.FormulaError) as e:
            run([('model.ok', '1 + 1'), ('verdict.bad', '1 ; 2 ; 3')])
        self.assertEqual(str(e.exception),
                         'models: verdict.bad: wants four parts separated '
                         'by ;')


class Tables(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.d)

    def read(self, name):
        with open(self.path(name)) as f:
            return f.read()

    def path(self, name, text=None):
        p = os.path.join(self.d, name)
        if text is not None:
            with open(p, 'w') as f:
                f.write(text)
        return p

    def test_sweep(self):
        csv = self.path('sweep-ch3.csv', 'kernel,m,n,k,tflops,pct_cublas,gpu\n'
                        'a,2048,2048,2048,20,80.4,H_1\n'
                        'a,1024,1024,1024,10,50,H_1\n'
                        'b,1024,1024,1024,12,60,H_1\n'
                        'b,2048,2048,2048,15,60,H_1\n'
                        'c,4096,512,512,7.5,30,H_1\n')
        sweep(csv, self.path('s.tex'), self.path('p.tex'))
        lines = self.read('s.tex').split('\n')
        self.assertEqual(lines[5], 'configuration & $1024^3$ & '
                         '$4096\\times512\\times512$ & $2048^3$ \\\\')
        self.assertEqual(lines[7:10], [
            '\\texttt{a} & 10.0 (50) & --- & \\textbf{20.0 (80)} \\\\',
            '\\texttt{b} & \\textbf{12.0 (60)} & --- & 15.0 (60) \\\\',
            '\\texttt{c} & --- & \\textbf{7.50 (30)} & --- \\\\'])
        plot = self.read('p.tex')
        self.assertIn('coordinates { (80.4,1) (60,2)};\n'
                      '\\addlegendentry{$2048^3$}\n', plot)
        empty = self.path('sweep-ch4.csv', 'kernel,m,n,k,tflops\n')
        self.assertRaises(TableError, sweep, empty, self.path('e.tex'))
        self.assertFalse(os.path.exists(self.path('e.tex')))

    def test_timeline_placeholder(self):
        timeline('', self.path('t.tex'))
        self.assertEqual(
            self.read('t.tex'),
            '\\begin{tikzpicture}\\node[draw, align=center, inner sep=1em]'
            '{\\textbf{[not measured]} on this GPU:\\\\run '
            '\\texttt{make bench}.};'
            '\\end{tikzpicture}\n')

    def test_timeline_narrows_for_long_lane_names(self):
        """Long lanes' names shorten the time axis: the picture keeps to
        the text column."""
        short = self.path('s.csv', 'flow,lane,panel,start_ms,end_ms\n'
                          'f,copy in,0,0,1\nf,copy out,0,1,2\n')
        long_ = self.path('l.csv', 'flow,lane,panel,start_ms,end_ms\n'
                          'f,INT8 products,0,0,1\nf,rebuilding,0,1,2\n')
        timeline(short, self.path('s.tex'))
        timeline(long_, self.path('l.tex'))
        axis = re.compile(r'\\draw\[->\] \(0,[-0-9.]+\) -- \(([0-9.]+),')
        ws = float(axis.search(self.read('s.tex')).group(1))
        wl = float(axis.search(self.read('l.tex')).group(1))
        self.assertEqual(ws, 9.7)              # 9.4 cm and the arrow's 0.3
        self.assertLess(wl, ws - 0.5)


if __name__ == '__main__':
    unittest.main()
