"""Unit tests of book/bookdata/measured.py and charts.py (the first stage
of book/tools/results): python3 -m unittest tests/test_bookdata_measured.py
"""
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, 'book')

from bookdata.charts import (chart_color, chart_mark, chart_open,  # noqa
                             chart_ticks)
from bookdata.keys import Keys  # noqa: E402
from bookdata.measured import measured  # noqa: E402
from bookdata import measured as measured_mod  # noqa: E402

COLS = ('chapter,kernel,precision,m,n,k,ms,tflops,baseline,cublas_ms,'
        'cublas_tflops,pct_cublas,pct_peak,error,max_error,check,setup_ms,'
        'gpu,date,code_hash,ms_q1,ms_q3,cublas_ms_q1,cublas_ms_q3')
HASH = 'aaaa'


def row(**kw):
    d = dict(chapter='1', kernel='naive', precision='fp32', m='4096',
             n='4096', k='4096', ms='10.260', tflops='13.4123',
             baseline='cublas', cublas_ms='2.7', cublas_tflops='50.9',
             pct_cublas='26.35', pct_peak='20.04', error='2.1e-06',
             max_error='', check='ok', setup_ms='0.0000', gpu='GPU_X',
             date='2026-01-02', code_hash=HASH, ms_q1='10.0', ms_q3='10.5',
             cublas_ms_q1='2.6', cublas_ms_q3='2.8')
    d.update(kw)
    return ','.join(d[c] for c in COLS.split(','))


class Measured(unittest.TestCase):

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.res = os.path.join(self.dir, 'res-in')
        os.makedirs(self.res)
        self.man = {('1', 'programs'): 'ch1', ('1', 'headline'): 'naive',
                    ('2', 'programs'): 'ch2', ('2', 'headline'): 'x'}

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_stage(self, rows, chapters=('1', '2')):
        with open(os.path.join(self.res, 'ch1.csv'), 'w') as f:
            f.write(COLS + '\n' + ''.join(r + '\n' for r in rows))
        keys = Keys()
        measured(keys, self.dir, self.res, list(chapters), self.man,
                 {'1': HASH, '2': 'bbbb'})
        return keys

    def read(self, name):
        with open(os.path.join(self.dir, 'res', name)) as f:
            return f.read()

    def test_row_keys(self):
        keys = self.run_stage([row()])
        p = 'ch1.naive.4096.'
        self.assertEqual(keys.text[p + 'ms'], '10.3')
        self.assertEqual(keys.raw[p + 'ms'], '10.260')     # the field's text
        self.assertEqual(keys.text[p + 'tflops'], '13.4')
        self.assertEqual(keys.text[p + 'pct_cublas'], '26')
        self.assertEqual(keys.text[p + 'pct_peak'], '20')
        self.assertEqual(keys.text[p + 'error'], '$2.1\\times10^{-6}$')
        self.assertEqual(keys.text[p + 'spread_pct'], '2.4')
        self.assertEqual(keys.raw[p + 'spread_pct'], '2.43665')
        self.assertNotIn(p + 'max_error', keys)       # empty field
        self.assertNotIn(p + 'setup_ms', keys)        # 0: none
        self.assertEqual(keys.text['gpu.name'], 'GPU\\_X')
        self.assertEqual(keys.text['ch1.stale'], 'no')
        self.assertEqual(list(keys.text)[:3],
                         [p + 'ms', p + 'tflops', p + 'cublas_ms'])

    def test_later_row_wins(self):
        keys = self.run_stage([row(), row(m='512', n='512', k='512'),
                               row(ms='9.5', date='2026-02-03')])
        self.assertEqual(keys.text['ch1.naive.4096.ms'], '9.50')
        self.assertEqual(keys.text['gpu.date'], '2026-02-03')
        self.assertIn('of cuBLAS on the GPU\\_X, 2026-02-03. A panel',
                      self.read('progress.tex'))
        self.assertEqual(list(keys.text)[0], 'ch1.naive.4096.ms')

    def test_table_row(self):
        self.run_stage([row()])
        t = self.read('table-ch1.tex')
        self.assertIn('\\caption{Chapter 1 measured on the GPU\\_X, '
                      '2026-01-02. $\\pm$: half the interquartile range', t)
        self.assertIn('naive & $4096^3$ & 10.3 & 2.4 & 13.4 & 50.9 & 26 & '
                      '$2.1\\times10^{-6}$ & ok \\\\\n', t)
        self.assertNotIn('dagger', t)

    def test_stale_row_gets_dagger(self):
        self.run_stage([row(), row(kernel='old', code_hash='cccc')])
        t = self.read('table-ch1.tex')
        self.assertIn('\nold$^\\dagger$ & $4096^3$', t)
        self.assertIn('\nnaive & $4096^3$', t)
        self.assertEqual(t.count('\\midrule'), 2)   # the head's, one rule
        self.assertIn(' $^\\dagger$\\,Measured on older code; re-run '
                      '\\texttt{make bench}.}\\label{tab:ch1}\n', t)
        self.assertIn('\\addlegendentry{ch1 naive$^\\dagger$}',
                      self.read('progress-plot.tex'))

    def test_long_table_cut(self):
        # more than 60 rows: a second table from the kernel past the middle
        self.run_stage([row(kernel='k%d' % (i // 31), m=str(64 + i),
                            n=str(64 + i), k=str(64 + i)) for i in range(62)])
        t = self.read('table-ch1.tex')
        cont = t.index('\\end{table}\n\\begin{table}[htbp]\\ContinuedFloat\n'
                       '\\centering\n\\caption{Chapter 1 measured on the '
                       'GPU\\_X, 2026-01-02 (continued).}\n\\small')
        self.assertLess(t.index('\nk0 & $94^3$'), cont)
        self.assertLess(cont, t.index('\nk1 & $95^3$'))
        # the HTML's: one table, k1's rows after a rule
        h = self.read('table-ch1-html.tex')
        self.assertNotIn('ContinuedFloat', h)
        self.assertIn('\\midrule\nk1 & $95^3$', h)

    def test_placeholder_without_csv(self):
        self.run_stage([row()])
        self.assertEqual(
            self.read('table-ch2.tex'),
            '\\begin{table}[htbp]\n\\centering\n\\caption{Chapter 2: not '
            'measured on this GPU; \\texttt{make bench} measures it.}'
            '\\label{tab:ch2}\n\\begin{tabular}{c}\n\\toprule\n'
            '\\textbf{[not measured]} \\\\\n\\bottomrule\n'
            '\\end{tabular}\n\\end{table}\n')

    def test_no_results_dir(self):
        keys = Keys()
        measured(keys, self.dir, '', ['1'], self.man, {})
        self.assertEqual(list(keys.text), [])
        self.assertIn('[not measured]} on this GPU',
                      self.read('progress-plot.tex'))
        self.assertEqual(self.read('progress.tex').split('\n')[3],
                         '\\caption{Progress: TFLOP/s of the headline '
                         'kernel of each chapter and of cuBLAS.}'
                         '\\label{fig:progress}')

    def test_noise_mark(self):
        # faster than cuBLAS: below 2048^3 always within the noise; above
        # only by less than the two spreads (2.4% + 3.7%)
        self.run_stage([row(kernel='a', m='512', n='512', k='512',
                            pct_cublas='110'),
                        row(kernel='b', pct_cublas='110'),
                        row(kernel='c', pct_cublas='105')])
        t = self.read('table-ch1.tex')
        self.assertIn('\na & $512^3$ & 10.3 & 2.4 & 13.4 & 50.9 & '
                      '110$^\\ddagger$ &', t)
        self.assertIn('\nb & $4096^3$ & 10.3 & 2.4 & 13.4 & 50.9 & 110 &', t)
        self.assertIn('& 105$^\\ddagger$ &', t)

    def test_progress_points_inside_axes(self):
        tf = {'256': '0.75', '1024': '3.1', '4096': '13.4', '1111': '64.2'}
        self.run_stage([row(m=s, n=s, k=s, tflops=v) for s, v in tf.items()])
        p = self.read('progress-plot.tex')
        self.assertIn('xticklabels={256,1024,1111,4096}', p)
        self.assertIn('coordinates { (0,0.75) (1,3.1) (2,64.2) (3,13.4)};', p)
        m = re.search(r'ymin=([^,]+), ymax=([^,]+), ytick=\{([^}]*)\}', p)
        ymin, ymax = float(m.group(1)), float(m.group(2))
        self.assertEqual((m.group(1), m.group(2)), ('0.576923', '83.46'))
        for v in tf.values():
            self.assertTrue(ymin < float(v) < ymax, v)
        self.assertEqual(m.group(3), '0.5,1,2,5,10,20,50,100')
        self.assertIn('xmin=-0.3, xmax=3.3, xtick={0,...,3}', p)


class Charts(unittest.TestCase):

    def test_ticks(self):
        self.assertEqual(chart_ticks(0.75, 64.2), '0.5,1,2,5,10,20,50,100')
        self.assertEqual(chart_ticks(1, 2000), '1,2,5,10,20,50,100,200,'
                         '500,1000,2000,5000')
        self.assertEqual(chart_ticks(3, 4), '2,5,10')

    def test_looks(self):
        self.assertEqual(chart_color('1'), 'chartc0')
        self.assertEqual(chart_color('9'), 'chartc1')
        self.assertEqual(chart_mark('1'), 'mark=square*, mark size=1.6pt, '
                         'mark options={solid}')
        self.assertEqual(chart_mark('2'), 'mark=o, mark size=3.4pt, '
                         'mark options={solid}')
        self.assertFalse(chart_open('1'))
        self.assertTrue(chart_open('2'))
        self.assertFalse(chart_open('14'))      # mark 13 of 13: square* again


class Digits(unittest.TestCase):
    def test_a_rate_of_two_digits_comes_from_the_time(self):
        from bookdata import keys as K
        from bookdata.csvio import Row
        self.assertEqual([measured_mod._sig(t) for t in
                          ('0.0013', '12.5', '2.3723', '1.1e-06', '100')],
                         [2, 3, 5, 2, 3])
        k = K.Keys()
        measured_mod._row_keys(k, 'ch0.cpu.512.', Row(
            m='512', n='512', k='512', ms='205.395', tflops='0.0013',
            cublas_ms='0.0213', cublas_tflops='12.6', pct_cublas='0.01',
            error='1.0e-07'))
        self.assertEqual(k.text['ch0.cpu.512.tflops'], '0.00131')


if __name__ == '__main__':
    unittest.main()
