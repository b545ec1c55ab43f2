"""bookdata.clock: the clock experiment's log made one row a run."""
import os
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(__file__), '..')
sys.path.insert(0, os.path.join(ROOT, 'book'))
from bookdata import clock  # noqa: E402

CH14 = """     M      N      K  kernel     prec          ms  TFLOP/s
  4096   4096   4096  3xtf32     3xtf32     %s   108.47
"""


def folder(d, log, ms=('1.30', '1.20', '1.1500')):
    with open(os.path.join(d, 'clock.csv'), 'w') as f:
        f.write('timestamp, clocks.current.sm [MHz], power.draw [W]\n')
        for t, c, w in log:
            f.write('2026/11/30 10:00:%06.3f, %d MHz, %.2f W\n' % (t, c, w))
    with open(os.path.join(d, 'marks.txt'), 'w') as f:
        for name, t in (('default', 0), ('reps17', 10), ('libspeed', 20),
                        ('end', 30)):
            f.write('mark %s 10:00:%02d.000000000\n' % (name, t))
    for name, m in zip(('default', 'reps17'), ms):
        with open(os.path.join(d, name + '.txt'), 'w') as f:
            f.write(CH14 % m)
    with open(os.path.join(d, 'libspeed.txt'), 'w') as f:
        f.write('hopper_3xtf32_4096          %s ms    118.82 TFLOP/s\n' % ms[2])
    with open(os.path.join(d, 'about.txt'), 'w') as f:
        f.write('gpu=NVIDIA H200\ncommit=abc\n')


class Summary(unittest.TestCase):
    def test_each_run_its_stretch(self):
        # idle samples (below 3/4 of the top) are not the GPU at work
        log = [(1, 400, 80), (2, 1980, 300), (3, 1800, 450), (4, 1900, 400),
               (11, 900, 90), (12, 1980, 170),
               (21, 1980, 500), (22, 1600, 550), (23, 1980, 300)]
        with tempfile.TemporaryDirectory() as d:
            folder(d, log)
            r = clock.summary(d)
        self.assertEqual([x['name'] for x in r], ['default', 'reps17', 'libspeed'])
        self.assertEqual([x['ms'] for x in r], ['1.30', '1.20', '1.1500'])
        self.assertEqual([x['clock_min_mhz'] for x in r], ['1800', '1980', '1600'])
        self.assertEqual([x['samples'] for x in r], ['3', '1', '3'])
        self.assertEqual(r[0]['below_top_pct'], '66.7')
        self.assertEqual(r[0]['power_max_w'], '450')
        # readings at or under 95 % of the top, times the log's step (1 s)
        self.assertEqual([x['low_ms'] for x in r], ['1000', '0', '1000'])
        self.assertEqual((r[0]['gpu'], r[0]['commit'], r[0]['date']),
                         ('NVIDIA H200', 'abc', ''))
        text = clock.csv_text(r)
        self.assertTrue(text.startswith(','.join(clock.COLUMNS) + '\n'))
        self.assertIn(',"NVIDIA H200",', text)

    def test_libspeed_before_hopper(self):
        # where libspeed has no Hopper rows, Ampere's kernels' time
        log = [(2, 1980, 300), (12, 1980, 300), (22, 1980, 300)]
        with tempfile.TemporaryDirectory() as d:
            folder(d, log)
            with open(os.path.join(d, 'libspeed.txt'), 'w') as f:
                f.write('ampere_fp32_4096  2.9 ms\nampere_3xtf32_4096  2.95 ms\n')
            self.assertEqual(clock.summary(d)[2]['ms'], '2.95')

    def test_a_run_without_its_time_is_an_error(self):
        log = [(2, 1980, 300), (12, 1980, 300), (22, 1980, 300)]
        with tempfile.TemporaryDirectory() as d:
            folder(d, log)
            with open(os.path.join(d, 'reps17.txt'), 'w') as f:
                f.write('GPU: none\n')
            with self.assertRaisesRegex(clock.ClockError, 'reps17.txt'):
                clock.summary(d)

    def test_a_run_that_never_worked_is_an_error(self):
        log = [(2, 1980, 300), (12, 500, 80), (22, 1980, 300)]
        with tempfile.TemporaryDirectory() as d:
            folder(d, log)
            with self.assertRaisesRegex(clock.ClockError, 'reps17'):
                clock.summary(d)

    def test_no_end_mark_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            folder(d, [(2, 1980, 300)])
            with open(os.path.join(d, 'marks.txt'), 'w') as f:
                f.write('mark default 10:00:00.0\n')
            with self.assertRaisesRegex(clock.ClockError, 'mark end'):
                clock.summary(d)

    def test_the_books_file_is_its_log_summarized(self):
        # results/<gpu>/clock-ch14.csv is what its folder's log gives
        base = os.path.join(ROOT, 'results')
        found = 0
        for g in sorted(os.listdir(base)):
            d = os.path.join(base, g, 'clock-ch14')
            if os.path.isdir(d):
                found += 1
                with open(os.path.join(base, g, 'clock-ch14.csv')) as f:
                    self.assertEqual(f.read(), clock.csv_text(clock.summary(d)))
        self.assertGreater(found, 0, 'no results/<gpu>/clock-ch14/ to check')


if __name__ == '__main__':
    unittest.main()
