"""bookdata.runs: several runs of a measurement as one row."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'book'))
from bookdata import runs  # noqa: E402
from bookdata.csvio import Row  # noqa: E402


def row(run, ms, q1, q3, cms, pct, err='1.0e-06', check='ok', kernel='k'):
    return Row(chapter='9', kernel=kernel, m='4096', n='4096', k='4096',
               alpha='1', beta='0', ms=ms, tflops='%.4f' % (137.4 / float(ms)),
               ms_q1=q1, ms_q3=q3, cublas_ms=cms, cublas_ms_q1=cms,
               cublas_ms_q3=cms, cublas_tflops='%.4f' % (137.4 / float(cms)),
               pct_cublas=pct, error=err, max_error=err, check=check,
               run=run)


class Merge(unittest.TestCase):
    def test_one_run_as_it_is(self):
        rows = [row('1', '3.0', '2.99', '3.01', '2.8', '93.33'),
                row('', '3.0', '2.99', '3.01', '2.8', '93.33', kernel='j')]
        self.assertEqual(runs.merge(rows), rows)
        self.assertEqual(runs.merge(rows[:1]), rows[:1])

    def test_three_runs(self):
        rows = [row('1', '3.00', '2.99', '3.01', '2.80', '93.33'),
                row('2', '3.30', '3.29', '3.31', '2.75', '83.33',
                    err='2.0e-06'),
                row('3', '3.10', '3.09', '3.11', '2.90', '93.55',
                    check='FAIL'),
                row('1', '1.0', '0.9', '1.1', '1.0', '100', kernel='j'),
                row('2', '1.0', '0.9', '1.1', '1.0', '100', kernel='j')]
        k, j = runs.merge(rows)
        self.assertEqual((k['kernel'], j['kernel']), ('k', 'j'))
        # each figure the median run's text, chosen on its own
        self.assertEqual((k['ms'], k['tflops']), ('3.10', rows[2]['tflops']))
        self.assertEqual(k['cublas_ms'], '2.80')
        self.assertEqual(k['pct_cublas'], '93.33')
        self.assertEqual((k['error'], k['check'], k['runs']),
                         ('2.0e-06', 'FAIL', '3'))
        # between runs: half of 3.30 - 3.00 in % of 3.10, above the
        # within-run 0.33 %
        between = 50 * 0.30 / 3.10
        self.assertAlmostEqual(runs.spread(rows[:3], 'ms', 'ms_q1', 'ms_q3'),
                               between)
        self.assertAlmostEqual(
            50 * (float(k['ms_q3']) - float(k['ms_q1'])) / float(k['ms']),
            between, places=3)
        self.assertEqual(k['pct_cublas_spread'],
                         '%.2f' % (50 * (93.55 - 83.33) / 93.33))
        # within a run larger than between: the within-run spread
        self.assertAlmostEqual(
            50 * (float(j['ms_q3']) - float(j['ms_q1'])) / float(j['ms']),
            10.0, places=3)


def micro(run, name, ms=None, q=None, tf=None, lo=None, hi=None):
    r = Row(chapter='13', name=name, run=run, check='-')
    if ms is not None:
        r.update(ms=ms, ms_q1=q[0], ms_q3=q[1])
    else:
        r.update(tflops=tf, tflops_min=lo, tflops_max=hi)
    return r


class MergeAnswers(unittest.TestCase):
    def test_an_answers_sides_stay_apart(self):
        rows = []
        for run, ms in (('1', '3.0'), ('2', '3.3'), ('3', '3.1')):
            for use in ('run', 'before'):
                r = row(run, ms, ms, ms, '2.8', '90')
                r.update(answer='ex1', use=use, options='--size 4096')
                rows.append(r)
        m = runs.merge(rows, also=('answer', 'use', 'options'))
        self.assertEqual([(r['use'], r['ms'], r['runs']) for r in m],
                         [('run', '3.1', '3'), ('before', '3.1', '3')])
        # without them the two sides would be one measurement
        self.assertEqual(len(runs.merge(rows)), 1)


class MergeMicro(unittest.TestCase):
    def test_one_run_as_it_is(self):
        rows = [micro('1', 'a', '2.0', ('1.9', '2.1'))]
        self.assertEqual(runs.merge_micro(rows),
                         [Row(rows[0], processes='1')])

    def test_times_and_rates(self):
        rows = [micro('1', 'a', '2.0', ('1.99', '2.01')),
                micro('1', 'p', tf='100', lo='90', hi='101'),
                micro('2', 'a', '2.4', ('2.39', '2.41')),
                micro('2', 'p', tf='98', lo='97', hi='99'),
                micro('3', 'a', '2.2', ('2.19', '2.21')),
                micro('3', 'p', tf='99', lo='95', hi='105')]
        a, p = runs.merge_micro(rows)
        self.assertEqual((a['name'], a['ms'], a['processes']),
                         ('a', '2.2', '3'))
        # between runs: half of 2.4 - 2.0 in % of 2.2
        self.assertAlmostEqual(
            50 * (float(a['ms_q3']) - float(a['ms_q1'])) / float(a['ms']),
            50 * 0.4 / 2.2, places=3)
        self.assertEqual((p['tflops'], p['tflops_min'], p['tflops_max']),
                         ('99', '90', '105'))


if __name__ == '__main__':
    unittest.main()


class Short(unittest.TestCase):
    """runs.short: the timed figures of a folder with too few runs."""

    def folder(self, files):
        import tempfile
        d = tempfile.mkdtemp()
        self.addCleanup(__import__('shutil').rmtree, d)
        for name, text in files.items():
            with open(os.path.join(d, name), 'w') as f:
                f.write(text)
        return d

    HEAD = 'chapter,kernel,m,n,k,alpha,beta,ms,run\n'

    def test_three_runs_pass_two_fail(self):
        rows = ''.join('9,k,8,8,8,1,0,1.0,%d\n' % r for r in (1, 2, 3))
        rows += ''.join('9,j,8,8,8,1,0,1.0,%d\n' % r for r in (1, 2))
        out = runs.short(self.folder({'ch9.csv': self.HEAD + rows}))
        self.assertEqual(out, ['ch9.csv: 9 j 8 8 8 1 0 (2 runs)'])

    def test_checks_and_counts_are_not_timed(self):
        d = self.folder({
            'answers-ch7.csv': 'answer,use,options,chapter,kernel,m,n,k,'
                               'alpha,beta,ms\nex2,check,"",7,p,1,1,1,1,0,0.01\n',
            'answers-micro-ch11.csv': 'answer,use,options,chapter,name,'
                                      'wrong\nex4,run,"",11,a,0\n'})
        self.assertEqual(runs.short(d), [])

    def test_timed_rows_without_runs(self):
        d = self.folder({'ch2.csv': 'chapter,kernel,m,n,k,ms\n2,c,8,8,8,1.0\n'})
        self.assertEqual(runs.short(d), ['ch2.csv: no column run'])
