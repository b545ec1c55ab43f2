"""The validation set: shapes drawn fresh (bookdata/draw.py) and the keys
of their measurements (tables.validation)."""
import math
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'book'))
from bookdata import draw, tables  # noqa: E402

SUITE = [{'m': '4096', 'n': '4096', 'k': '4096'}, {'m': '1', 'n': '4096', 'k': '14336'},
         {'m': '16', 'n': '16', 'k': '16'}]
COLS = ('chapter,kernel,precision,m,n,k,ms,tflops,baseline,cublas_ms,'
        'cublas_tflops,pct_cublas,error,max_error,check,gpu,code_hash,'
        'ms_q1,ms_q3,cublas_ms_q1,cublas_ms_q3,run')


class Draw(unittest.TestCase):
    def test_same_seed_same_shapes(self):
        self.assertEqual(draw.draw(7, 40, SUITE), draw.draw(7, 40, SUITE))
        self.assertNotEqual(draw.draw(7, 40, SUITE), draw.draw(8, 40, SUITE))

    def test_within_the_range_and_the_budget_and_fresh(self):
        cap = draw.budget(SUITE)
        self.assertEqual(cap, 2 * 4096 ** 3)
        shapes = draw.draw(3, 200, SUITE)
        self.assertEqual(len(shapes), 200)
        self.assertEqual(len(set(shapes)), 200)
        for m, n, k in shapes:
            for d in (m, n, k):
                self.assertTrue(1 <= d <= draw.DIM_MAX)
            self.assertLessEqual(2 * m * n * k, cap)
            self.assertNotIn((m, n, k), {(4096, 4096, 4096), (1, 4096, 14336), (16, 16, 16)})

    def test_log_uniform(self):
        # half of the dimensions below sqrt(32768) = 181, as log-uniform
        # draws put them (the budget drops a few large ones)
        dims = [d for s in draw.draw(11, 2000, SUITE) for d in s]
        below = sum(d < math.sqrt(draw.DIM_MAX) for d in dims) / len(dims)
        self.assertTrue(0.45 < below < 0.62, below)

    def test_csv_names_the_seed(self):
        t = draw.csv_text(5, [(1, 2, 3)])
        self.assertEqual(t.split('\n')[0], 'family,m,n,k,origin')
        self.assertIn('drawn,1,2,3,"seed 5,', t)


def row(kernel, precision, m, n, k, pct, check='ok', cub='0.01', run='1',
        error='1e-7', max_error='1e-7'):
    d = dict(chapter='14', kernel=kernel, precision=precision, m=m, n=n, k=k,
             ms='0.01', tflops='1', baseline='cublas', cublas_ms=cub,
             cublas_tflops='1', pct_cublas=pct, error=error,
             max_error=max_error, check=check, gpu='GPU_X', code_hash='aa',
             ms_q1='0.01', ms_q3='0.01', cublas_ms_q1=cub, cublas_ms_q3=cub,
             run=run)
    return ','.join(d[c] for c in COLS.split(','))


class Validation(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def write(self, name, text):
        with open(os.path.join(self.dir, name), 'w') as f:
            f.write(text)

    def test_keys(self):
        self.write('validation-shapes-ch14.csv', draw.csv_text(
            42, [(2, 1, 81), (1000, 1000, 1000)]))
        rows = []
        for r in ('1', '2'):
            rows += [row('fp32', 'fp32', '2', '1', '81', '50', run=r),
                     row('bf16', 'bf16', '2', '1', '81', '90', check='FAIL', run=r,
                         error='1.8e-02', max_error='4.6e-03'),
                     row('fp32', 'fp32', '1000', '1000', '1000', '200', cub='1.0', run=r),
                     row('bf16', 'bf16', '1000', '1000', '1000', '100', cub='1.0', run=r)]
        self.write('validation-ch14.csv', COLS + '\n' + '\n'.join(rows) + '\n')
        kv = dict(tables.validation('14', self.dir))
        k = 'ch14.validation.'
        self.assertEqual(kv[k + 'seed'], '42')
        self.assertEqual(kv[k + 'shapes'], '2')
        self.assertEqual(kv[k + 'fp32.geomean_pct'], '100')      # sqrt(50 * 200)
        self.assertEqual(kv[k + 'fp32.below80'], '1')
        self.assertEqual(kv[k + 'long_shapes'], '1')             # 1.0 ms > 3 x 0.01
        self.assertEqual(kv[k + 'fp32.long_geomean_pct'], '200')
        self.assertEqual(kv[k + 'failed'], '1')
        self.assertEqual(kv[k + 'failed_list'], '$2\\times1\\times81$')
        self.assertEqual(kv[k + 'failed_max_within'], 'inside')
        self.assertNotIn(k + 'triton.fp32.geomean_pct', kv)     # no Triton in this run
        # Triton at the same shapes: its share of PyTorch's cuBLAS
        tri = 'precision,m,n,k,ms,tflops,pct_torch,torch_tflops,triton\n'
        tri += 'fp32,2,1,81,0.01,0.01,50,0.02,3.6.0\nfp32,1000,1000,1000,1.0,2.0,200,1.0,3.6.0\n'
        self.write('triton-validation-ch14.csv', tri)
        kv = dict(tables.validation('14', self.dir))
        self.assertEqual(kv[k + 'triton.fp32.geomean_pct'], '100')   # sqrt(50 * 200)
        self.assertEqual(kv[k + 'triton.fp32.measured'], '2')
        self.assertEqual(kv[k + 'triton.version'], '3.6.0')
        self.assertEqual(kv[k + 'failed_tol'], '$1.6\\times10^{-2}$')
        self.assertEqual(kv[k + 'bf16.max_shape'], '$1000\\times1000\\times1000$')

    def test_a_missing_file_is_an_error(self):
        self.write('validation-shapes-ch14.csv', draw.csv_text(1, [(1, 1, 1)]))
        with self.assertRaises(tables.TableError):
            tables.validation('14', self.dir)


class Bound(unittest.TestCase):
    """tables.bound: the products bound by memory, beside the copy."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        self.addCleanup(shutil.rmtree, self.out)

    def write(self, name, text):
        with open(os.path.join(self.dir, name), 'w') as f:
            f.write(text)

    def rows(self, m, n, k, ms, cub, kernels=('fp32', 'tf32', '3xtf32', 'bf16')):
        out = []
        for kn in kernels:
            r = row(kn, kn, m, n, k, '100', cub=cub).split(',')
            r[COLS.split(',').index('ms')] = ms
            out.append(','.join(r))
        return out

    def test_which_products_and_their_share_of_the_copy(self):
        self.write('ceilings.csv', 'gpu,copy_tbs,ffma_tflops\nGPU_X,1.0,1.0\n')
        # 1x2000x2000 in FP32: 16 016 000 bytes, 16 us at 1 TB/s, and
        # 8 us of multiply-adds at 1 TFLOP/s; bound by memory (M = 1).
        # 1000^3: not.  2x1x81: too short to count.  32x2000x2000:
        # 16.5 us of bytes (17 printed), 256 us of multiply-adds: its
        # FP32 roof is below the copy's.
        suite = (self.rows('1', '2000', '2000', '0.02', '0.032')
                 + self.rows('1000', '1000', '1000', '1', '1'))
        self.write('suite-ch14.csv', COLS + '\n' + '\n'.join(suite) + '\n')
        fresh = (self.rows('2', '1', '81', '0.01', '0.01')
                 + self.rows('1', '3000', '3000', '1', '1')
                 + self.rows('32', '2000', '2000', '0.3', '0.3'))
        self.write('validation-ch14.csv', COLS + '\n' + '\n'.join(fresh) + '\n')
        kv = dict(tables.bound('14', self.dir, self.out))
        k = 'ch14.bound.'
        self.assertEqual(kv[k + 'shapes'], '3')
        self.assertEqual(kv[k + 'suite_shapes'], '1')
        self.assertEqual(kv[k + 'fp32.roof_below100'], '1')
        self.assertEqual(kv[k + 'fp32.roof_over_said'],
                         'at $32\\times2000\\times2000$ (256 against 17~$\\mu$s) they pass it')
        self.assertEqual(kv[k + 'thin'], '16')             # tangle/plan14.h's THIN
        self.assertEqual(kv[k + 'fp32.met'], '1')          # 80.08 %, and 3.6 %
        self.assertEqual(kv[k + 'fp32.cublas_met'], '0')   # 50 %
        self.assertEqual(kv[k + 'fp32.min_pct'], '4')
        self.assertEqual(kv[k + 'bf16.min_pct'], '2')      # half the bytes
        with open(os.path.join(self.out, 'res', 'bound-ch14.tex')) as f:
            t = f.read()
        self.assertIn('$1\\times2000\\times2000$ & 16 & 8 & 80 & 50', t)
        self.assertIn('$32\\times2000\\times2000$$^\\dagger$ & 17 & 256 &', t)
        self.assertIn('$1\\times3000\\times3000$$^\\dagger$', t)   # fresh
        self.assertNotIn('1000\\times1000', t)
        self.assertNotIn('2\\times1\\times81', t)

    def test_a_missing_file_is_an_error(self):
        self.write('ceilings.csv', 'gpu,copy_tbs,ffma_tflops\nGPU_X,1.0,1.0\n')
        self.write('suite-ch14.csv', COLS + '\n')
        with self.assertRaises(tables.TableError):
            tables.bound('14', self.dir, self.out)

    def test_ceilings_without_an_ffma_rate_are_an_error(self):
        self.write('ceilings.csv', 'gpu,copy_tbs\nGPU_X,1.0\n')
        self.write('suite-ch14.csv', COLS + '\n')
        self.write('validation-ch14.csv', COLS + '\n')
        with self.assertRaises(tables.TableError):
            tables.bound('14', self.dir, self.out)


if __name__ == '__main__':
    unittest.main()
