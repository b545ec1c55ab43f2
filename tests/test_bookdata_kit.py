"""bookdata.kit: what a student receives for a lab."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'book'))
from bookdata import kit  # noqa: E402


def make_n(makefile, *args):
    """make -n's commands for the Makefile text, with args."""
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'Makefile'), 'w') as f:
            f.write(makefile)
        os.makedirs(os.path.join(d, 'stub'))
        for name in ('ch5.cu', 'ch9.cu', 'ch10.cu', 'ch12.cu', 'harness.c', 'main.c',
                     'harness.h', 'splice.py', 'stub/ch10.cu', 'stub/ch12.cu'):
            open(os.path.join(d, name), 'w').close()
        # (a make of its own: not the ARCH nor the flags of a make test
        # that runs this)
        env = {k: v for k, v in os.environ.items()
               if k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEOVERRIDES', 'ARCH')}
        r = subprocess.run(['make', '-n', '-C', d] + list(args),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, env=env)
        return r.stdout


class Headers(unittest.TestCase):
    def test_transitive_and_only_tangled(self):
        with tempfile.TemporaryDirectory() as d:
            for name, text in (('a.h', '#include "b.h"\n'), ('b.h', '#include <stdio.h>\n'),
                               ('c.h', '')):
                with open(os.path.join(d, name), 'w') as f:
                    f.write(text)
            got = kit._headers(['#include "a.h"\n# include "missing.h"\n'], d)
            self.assertEqual(got, ['a.h', 'b.h'])


class Makefile(unittest.TestCase):
    def test_newer_gpus_build_for_arch(self):
        m = kit._makefile(10, ['ch9', 'ch5'], 'sm_80', '-lcublas')
        out = make_n(m, 'ARCH=sm_86')
        self.assertIn('-gencode=arch=compute_86,code=sm_86', out)
        self.assertIn('-DBOOK_CHAPTER=9 -c ch9.cu', out)
        self.assertIn('-o ch10 ch10.o ch9.o ch5.o harness.o main.o -lcublas', out)
        self.assertIn('compute_90,code=sm_90', make_n(m, 'ARCH=sm_90a'))

    def test_exact_target(self):
        m = kit._makefile(12, ['ch10'], 'sm_90a', '-lcublas')
        self.assertIn('-gencode=arch=compute_90a,code=sm_90a', make_n(m, 'ARCH=sm_90'))
        self.assertIn('[ -n "" ]', make_n(m, 'ARCH=sm_86'))
        self.assertIn('[ -n "sm_90a" ]', make_n(m))


class Needs(unittest.TestCase):
    def test_the_labs_gpu(self):
        M = lambda needs, lab: {'needs': needs, 'lab_needs': lab}
        self.assertEqual(kit._needs(M('sm_75', 'lab 8, cp.async, sm_80')), 'sm_80')
        self.assertEqual(kit._needs(M('sm_80', 'lab 9, sm_75')), 'sm_80')
        self.assertEqual(kit._needs(M('sm_90a', 'lab 6, sm_80')), 'sm_90a')
        self.assertEqual(kit._needs(M('', 'C')), 'sm_75')


class OwnHeaders(unittest.TestCase):
    def test_the_labs_defines_left_out(self):
        text = '#define KEEP 1\n#define AX(p) \\\n    ((p) ^ 8)\n#define BX(c) (c)\n#endif'
        got, cut = kit._without_defines(text, {'AX', 'BX'}, 7)
        self.assertEqual(got.split('\n'), ['#define KEEP 1', '/* AX: lab 7 writes it (ch7.cu) */',
                                            '/* BX: lab 7 writes it (ch7.cu) */', '#endif'])
        self.assertEqual(cut, {'AX': ['#define AX(p) \\', '    ((p) ^ 8)'],
                               'BX': ['#define BX(c) (c)']})


class Write(unittest.TestCase):
    def test_no_lab(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(kit.KitError):
                kit.write(0, os.path.join(d, 'k'))


if __name__ == '__main__':
    unittest.main()
