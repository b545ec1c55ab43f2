"""bookdata.derived (the port of book/tools/more-keys) on small files.

Run from the repository's root:
    python3 -m unittest tests/test_bookdata_derived.py
"""
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, 'book')
from bookdata.derived import derived  # noqa: E402
from bookdata.keys import Keys  # noqa: E402

HEAD = 'chapter,kernel,m,n,k,ms,tflops,baseline,cublas_ms,cublas_tflops\n'
FILES = {
    'res/ch1.csv': HEAD + '1,naive,1024,1024,1024,2.0,1.25,cublas,0.25,10.0\n',
    'res/ch2.csv': HEAD
    + '2,tiled,1024,1024,1024,0.5,5.0,cublas,0.2,12.5\n'
    # cuBLAS timed as a kernel: its own time and its baseline's count
    + '2,cublas,1024,1024,1024,0.22,9.0,cublas,0.21,10.0\n'
    # not a cube: no cuBLAS statistics
    + '2,tiled,512,1024,64,0.0112,6.0,cublas,0.0096,7.0\n',
    # a units row (skipped whatever it holds), then a kernel's counters
    'res/ncu-ch2.csv':
    '"kernel","Kernel Name","smsp__sass_thread_inst_executed_op_ffma_pred_on'
    '.sum","smsp__inst_executed.sum","smsp__inst_executed_op_shared_ld.sum",'
    '"smsp__inst_executed_op_global_ld.sum","gpu__time_duration.sum",'
    '"launch__registers_per_thread"\n'
    '"units","","inst","inst","inst","inst","nsecond","register/thread"\n'
    '"tiled","sgemm_tiled","3,200","400","150","25","1,500,000","64"\n',
    'out/sass-ch1.csv': 'kernel,function,opcode,count\n'
    'naive,"sgemm_naive",LDS.U.128,3\n'
    'naive,"sgemm_naive",LDS.128,2\n'
    'naive,"sgemm_naive",ST.E.SYS.U.64,1\n'
    ',"",EXIT,9\n',
    # chapter 2's program was not compiled by this build: the results'
    'res/sass-ch2.csv': 'kernel,function,opcode,count\n'
    'tiled,"sgemm_tiled",FFMA,4096\n',
    # a microbenchmark's row with an error beside its time
    'res/micro-ch2.csv': 'chapter,name,what,tflops,ms,ms_q1,ms_q3,error,runs\n'
    '2,err_7,the scheme with 7 moduli,120.5,1.1,1.0,1.2,7.78e-07,1\n',
    'res/answers-ch2.csv':
    'answer,use,options,kernel,m,n,k,ms,tflops,error,check,ms_q1,ms_q3\n'
    # quoted lines: ".4" > 0 compares as text, false: no spread_pct
    'ex1,run,"--x",tiled,1024,1024,1024,.4,6.0,1e-06,ok,.39,.41\n'
    'ex1,before,"",tiled,1024,1024,1024,0.5,5.0,2e-06,ok,0.49,0.52\n'
    'ex1,check,"",tiled,64,64,64,,,,ok,,\n'
    'ex1,check,"",tiled,33,65,17,,,,FAIL,,\n'
    'ex1,check,"",tiled,33,65,17,,,,FAIL,,\n'
    'ex1,check,"",tiled,1,2,3,,,,,,\n',
}
MAN = {('1', 'programs'): 'ch1', ('1', 'headline'): 'naive',
       ('1', 'needs'): 'sm_80', ('2', 'programs'): 'ch2',
       ('2', 'headline'): 'tiled', ('2', 'needs'): 'sm_90a'}


class Derived(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        for name, text in FILES.items():
            path = os.path.join(cls.dir, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as f:
                f.write(text)
        cls.keys = Keys()
        cls.keys.put('ch1.naive.1024.tflops', '1.25')   # the first stage's
        derived(cls.keys, cls.dir + '/res', cls.dir + '/out', ['1', '2'], MAN)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def key(self, k, text, raw):
        self.assertEqual(self.keys.text.get(k), text, k)
        self.assertEqual(self.keys.raw.get(k), raw, k)

    def test_first_stage_kept(self):
        self.key('ch1.naive.1024.tflops', '1.25', '1.25')

    def test_x_cublas(self):
        self.key('ch1.naive.1024.x_cublas', '8.00', '8')
        self.key('ch2.tiled.1024.x_cublas', '2.50', '2.5')
        self.key('ch2.tiled.512x1024x64.x_cublas', '1.17', '1.16667')

    def test_cublas_runs(self):
        self.key('cublas.1024.runs', '4', '4')
        self.key('cublas.1024.ms_min', '0.200', '0.2')
        self.key('cublas.1024.ms_max', '0.250', '0.25')
        self.key('cublas.1024.tflops_min', '8.59', '8.58993')
        self.key('cublas.1024.tflops_max', '10.7', '10.7374')
        self.key('cublas.1024.range_pct', '25', '25')
        self.assertNotIn('cublas.512.runs', self.keys)
        self.key('cublas.runs_rows',
                 'FP32 & $1024^3$ & 4 & 8.59--10.7 & 25\\,\\% \\\\ ',
                 'FP32 & $1024^3$ & 4 & 8.59--10.7 & 25\\,\\% \\\\ ')

    def test_speedup(self):
        self.key('ch2.1024.speedup', '4.00', '4')
        self.assertNotIn('ch2.512x1024x64.speedup', self.keys)

    def test_ncu(self):
        p = 'ch2.tiled.ncu.'
        self.key(p + 'inst_per_ffma', '4.00', '4')
        self.key(p + 'lds_per_ffma', '1.50', '1.5')
        self.key(p + 'gld_per_ffma', '0.250', '0.25')
        self.key(p + 'time_ms', '1.50', '1.5')
        self.key(p + 'regs', '64', '64')
        # a counter the page lacks: awk's empty m_[...], in both files
        self.key(p + 'l1_hit_pct', '', '')
        self.assertNotIn(p + 'sts_per_ffma', self.keys)
        self.assertFalse([k for k in self.keys.text if '.units.' in k])

    def test_sass(self):
        self.key('ch1.naive.sass.lds128', '5', '5')
        self.key('ch1.naive.sass.ste64', '1', '1')
        self.key('ch2.tiled.sass.ffma', '4096', '4096')
        self.assertFalse(any(k.endswith('.exit') for k in self.keys.text))

    def test_answer(self):
        a = 'ch2.ex1.tiled'
        self.key(a + '.checks', '4', '4')
        self.key(a + '.failed', '3', '3')
        self.key(a + '.failed_shapes', '33x65x17, 1x2x3', '33x65x17, 1x2x3')
        self.key(a + '.1024.change_pct', '+20.0', '20')
        self.key(a + '.1024.error_ratio', '0.500', '0.5')
        self.key(a + '.1024.error', '$1.0\\times10^{-6}$', '1e-06')
        self.key('ch2.ex1.before.tiled.1024.spread_pct', '3.0', '3')
        self.assertNotIn(a + '.1024.spread_pct', self.keys)

    def test_micro_error(self):
        # an error column reads as the harness's errors do; the rest as numbers
        self.key('ch2.micro.err_7.error', '$7.8\\times10^{-7}$', '7.78e-07')
        self.key('ch2.micro.err_7.ms', '1.10', '1.1')

    def test_manifest_words(self):
        self.key('ch1.needs', '8.0 or newer', '8.0 or newer')
        self.key('ch2.needs', '9.0 only', '9.0 only')
        self.key('ch2.main', 'tiled', 'tiled')


if __name__ == '__main__':
    unittest.main()
