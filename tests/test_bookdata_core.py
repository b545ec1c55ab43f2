"""bookdata's core modules on a tiny fake book tree.  From the repository's
root: python3 -m unittest tests/test_bookdata_core.py"""
import contextlib
import hashlib
import io
import os
import shutil
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, 'book'))
from bookdata import (answers, awk, cli, code, csvio, keys,  # noqa: E402
                      machine, makevars, manifest, readme)

CH1_MK = ('# chapter 1\nprograms := ch1\nneeds   :=   sm_90a\nlinks := ch0\n'
          'headline := naive\nflags := -DMARK=a#b\\\n-DPRICE=$5\t  -O3\n'
          'model.ch1_x := 2 * ceil.sms | %.1f\nverdict.ch1_v := a ; 1 ; 2\n')
TREE = {
    'chapters/ch0.nw': '\\chapter{The problem and the harness}\\label{ch:0}\n',
    'chapters/ch1.nw': 'Text.\n\\chapter[Naive]{The \\texttt{naive}~kernel, '
                       '{one} thread}\\label{ch:1}\n\\chapter{Not this}\n',
    'chapters/ch1-extra.nw': '\\chapter{Chapter~1\'s extra}\n',
    'chapters/notes.txt': 'not a chapter\n',
    'tangle/ch0.mk': 'programs := ch0\nneeds := sm_75\nroots := ch0.h\n'
                     'budget := 1500\n',
    'tangle/ch0.h': 'void harness(void);\n',
    'tangle/ch0.cu': 'int main(void) { return 0; }\n',
    'tangle/ch1.mk': CH1_MK,
    'tangle/ch1.cu': '__global__ void sgemm_naive() {}\n',
    'answers/ch1-ex1.diff': 'Chapter 1, exercise 1: two a thread.\nnote:prose'
    '\n\nrun: --size 4096\nprofile: --kernel naive\n--- tangle/ch1.cu\n+++ b\n'
    '@@ -1 +1,2 @@\n void k() {}\n+int main(int argc, char **argv) {}\n',
    'answers/ch1-ex2.run': 'Exercise 2.\n\nsanitize: --size 64\nrun: -s 1\n',
    'answers/ch1.tex': 'the answers as prose\n',
}
HEAD = 'chapter,kernel,m,n,k,tflops,pct_cublas,gpu,baseline,code_hash\n'
CH1_ROWS = ['1,naive,1024,1024,1024,1.234,3.21,GPU A,cublas',
            '1,naive,4096,4096,4096,12.345,5.67,GPU A,cublas',
            '1,naive,4096,33,4096,99,99,GPU A,cublas_tf32',
            '1,other,4096,4096,4096,5,5,X,cublas']
ANS = ['answers-ch1.csv', 'answers-ncu-ch1.csv', 'answers-san-ch1.csv']
TITLE1 = 'The naive kernel, one thread'


class Case(unittest.TestCase):
    def check(self, pairs):
        for (f, *args), want in pairs:
            self.assertEqual(f(*args), want, args)


class Tree(Case):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.root = self._tmp.name
        for p, t in TREE.items():
            self.w(p, t)
        self.w('results/gpu-a/ch0.csv', HEAD + '0,k,1,1,1,1,1,A,cublas,%s\n'
               % code.hash(0, root=self.root))
        h1 = code.hash(1, root=self.root)
        self.w('results/gpu-a/ch1.csv', HEAD + ''.join(
            '%s,%s\n' % (r, h1) for r in CH1_ROWS))

    def tearDown(self):
        manifest._cache.clear()
        self._tmp.cleanup()

    def p(self, path):
        return os.path.join(self.root, path)

    def w(self, path, text):
        manifest._cache.clear()         # a manifest may have changed
        os.makedirs(os.path.dirname(self.p(path)), exist_ok=True)
        with open(self.p(path), 'w', encoding='utf-8') as f:
            f.write(text)


class Awk(Case):
    def test_fmt(self):
        fmt = awk.fmt
        self.check([((fmt, v, h), s) for h in ('', 'sig3') for v, s in [
            (0.4971, '0.497'), (51.23, '51.2'), (137.4, '137'), (8392, '8390'),
            (-8392, '-8390'), (999.5, '1000'), (99.95, '100'),
            (9.9951, '10.0'), (3, '3.00'), ('6.314', '6.31'),
            (0.001, '0.00100'), (0, '0'), ('1e-06', '0.00000100')]])
        self.check([
            ((fmt, 45.67, 'pct'), '46'), ((fmt, 10, 'pct'), '10'),
            ((fmt, '9.87', 'pct'), '9.9'), ((fmt, -12.3, 'pct'), '-12'),
            ((fmt, 2.1e-6, 'err'), '$2.1\\times10^{-6}$'),
            ((fmt, '0', 'err'), '$0$'), ((fmt, '1234.6', 'int'), '1235'),
            ((fmt, '3.14159', '%.2f'), '3.14'), ((fmt, 3.7, '%d'), '3'),
            ((fmt, 2.5, 'raw'), '2.5')])
        self.check([((fmt, v, h), v) for h in ('', 'pct', 'err')
                    for v in ('n/a', '', '12.5x', ' 5', 'FAIL')])

    def test_numstr_num_isnum(self):
        n, s = awk.num, awk.numstr
        self.check([((s, 3.0), '3'), ((s, -12), '-12'),
                    ((s, 0.1 + 0.2), '0.3'),
                    ((s, 1 / 3), '0.333333'), ((s, 'text'), 'text'),
                    ((n, '12.5x'), 12.5), ((n, ''), 0), ((n, ' -3e2a'), -300),
                    ((n, '.5'), 0.5), ((n, 'abc'), 0)])
        self.check([((awk.isnum, v), ok) for v, ok in [
            ('1e-06', True), (3, True), ('-.5', True), ('12.5x', False),
            ('', False), ('1,5', False)]])


class CsvKeys(Case):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)

    def test_split(self):
        self.check([((csvio.split, 'a,"b,c",'), ['a', 'b,c', '']),
                    ((csvio.split, '"1,500","64"'), ['1,500', '64']),
                    ((csvio.split, '"a",,b'), ['a', '', 'b']),
                    ((csvio.split, 'x,y,'), ['x', 'y', ''])])

    def test_read(self):
        f = os.path.join(self.d, 't.csv')
        with open(f, 'w') as fh:
            fh.write('m,name,m2\n1,"a, b",3\n4\n')
        t = csvio.read(f)
        self.assertEqual((t.columns, t.rows[0]), (['m', 'name', 'm2'], {
            'm': '1', 'name': 'a, b', 'm2': '3'}))
        self.assertEqual((t.rows[1]['name'], t.rows[1]['m2'],
                          t.rows[0]['nope'], t.rows[0].get('nope')),
                         ('', '', '', ''))
        open(f, 'w').close()
        self.assertEqual((csvio.read(f).columns, csvio.read(f).rows), ([], []))

    def test_keys(self):
        k = keys.Keys()
        k.put('a', 0.1 + 0.2), k.put('b', '51.23'), k.puttext('gpu', 'A_B & C')
        k.plain('note', 'x\ty', raw=False)
        k.put('a', 8392)            # keeps its place, takes the last value
        self.assertEqual(list(k.text), ['a', 'b', 'gpu', 'note'])
        self.assertEqual(k.text, {'a': '8390', 'b': '51.2',
                                  'gpu': 'A\\_B \\& C', 'note': 'x\ty'})
        self.assertEqual(k.raw, {'a': '8392', 'b': '51.23', 'gpu': 'A_B & C'})
        self.assertEqual(keys.Keys.load(self.d).text, {})
        k.write(self.d)
        back = keys.Keys.load(self.d)
        self.assertEqual((back.text, back.raw), (k.text, k.raw))


class Manifests(Tree):
    def test_parse_and_fields(self):
        self.assertEqual(manifest.parse(self.p('tangle/ch1.mk')), [
            ('programs', 'ch1'), ('needs', 'sm_90a'), ('links', 'ch0'),
            ('headline', 'naive'), ('flags', '-DMARK=a#b -DPRICE=$5 -O3'),
            ('model.ch1_x', '2 * ceil.sms | %.1f'),
            ('verdict.ch1_v', 'a ; 1 ; 2')])
        m = manifest.load(1, self.root)
        self.assertEqual((m.formulas, sorted(m.fields)), ([
            ('model.ch1_x', '2 * ceil.sms | %.1f'),
            ('verdict.ch1_v', 'a ; 1 ; 2')], [
            'flags', 'headline', 'links', 'needs', 'programs']))
        self.assertEqual((m['lab'], m.words('flags')[1], m.path, m.errors()),
                         ('', '-DPRICE=$5', 'tangle/ch1.mk', []))
        self.assertEqual(manifest.chapters(self.root), [0, 1])

    def test_errors(self):
        m = manifest.Manifest(3, [
            ('colour', 'red'), ('needs', 'sm75'), ('lab_hours', 'two'),
            ('headline', 'a b'), ('sass', 'naive:FFMA FFMA'),
            ('model.ok', '1'), ('modelx.y', '1')], 'ch3.mk')
        unknown = 'ch3.mk: unknown field %s (book/DATA.md lists the fields)'
        self.assertEqual(m.errors(), [
            unknown % 'colour', 'ch3.mk: needs := sm75: want sm_XY or sm_XYa',
            'ch3.mk: lab_hours := two: want a number',
            'ch3.mk: headline := a b: want one word',
            'ch3.mk: sass: FFMA: want kernel:OPCODE', unknown % 'modelx.y',
            'ch3.mk: no programs'])
        self.assertEqual(manifest.Manifest(3, [
            ('programs', 'p'), ('needs', 'sm_80'), ('lab_hours', '1.5')])
            .errors(), [])

    def test_nw_upto(self):
        self.w('chapters/ch10.nw', '')
        self.w('chapters/ch2-orphan.nw', '')     # an appendix, no chapter
        one = ['chapters/ch0.nw', 'chapters/ch1.nw', 'chapters/ch1-extra.nw']
        self.check([((manifest.nw_upto, 0, self.root), one[:1]),
                    ((manifest.nw_upto, '1', self.root), one),
                    ((manifest.nw_upto, 10, self.root),
                     one + ['chapters/ch10.nw']),
                    ((manifest.nw_upto, 2, self.root), [])])

    def test_tsv(self):
        tsv = makevars.manifest_tsv('sm_90', self.root)
        self.assertEqual(tsv.split('\n')[:2] + tsv.split('\n')[-3:],
                         ['0\tprograms\tch0', '0\tneeds\tsm_75',
                          'ARCH\tsm_90', 'BUILDABLE\t0 1', ''])
        self.w('build/manifest.tsv', tsv + '1\tneeds\tsm_80\n')  # last wins
        man = manifest.read_tsv(self.p('build/manifest.tsv'))
        self.assertEqual([man[k] for k in [('1', 'needs'), ('0', 'roots'),
                                           ('', 'ARCH'), ('', 'BUILDABLE')]],
                         ['sm_80', 'ch0.h', 'sm_90', '0 1'])
        self.assertEqual(list(manifest.tsv_rows(self.root))[-1],
                         ('1', 'verdict.ch1_v', 'a ; 1 ; 2'))


class Answers(Tree):
    def test_preamble(self):
        a, b = answers.load(answers.paths(self.root), self.root)
        self.assertEqual((a.name, a.chapter, a.source, a.program, a.own_main),
                         ('ch1-ex1', '1', 'ch1', 'ch1', True))
        self.assertEqual(a.lines(), [
            'run: --size 4096', 'profile: --kernel naive', 'source: ch1',
            'program: ch1', 'main: own'])
        self.assertEqual((b.name, b.source, b.program, b.own_main,
                          b.directives), ('ch1-ex2', '', 'ch1', False, [
                              'sanitize: --size 64', 'run: -s 1']))

    def test_program(self):
        self.w('answers/ch1-ex3.diff', 'program: ch1peak\n--- tangle/ch1.cu\n'
               '+int main(void)\n')
        self.w('answers/ch1-ex10.diff', 'Prose.\n--- tangle/ch1peak.cu\n')
        self.assertEqual(answers.paths(self.root, 1, ('diff',)), [
            'answers/ch1-ex1.diff', 'answers/ch1-ex3.diff',
            'answers/ch1-ex10.diff'])
        c, d = answers.load(['answers/ch1-ex3.diff', 'answers/ch1-ex10.diff'],
                            self.root)
        self.assertEqual((c.program, c.source, c.own_main, c.directives),
                         ('ch1peak', 'ch1', False, []))
        self.assertEqual((d.program, d.source), ('ch1peak', 'ch1peak'))
        self.assertEqual(answers.paths(self.root, 0), [])

    def test_files(self):
        self.assertEqual(answers.files(self.root), [('1', f) for f in ANS])
        os.remove(self.p('answers/ch1-ex2.run'))
        for pre, want in [('profile: x\n--- tangle/ch1.cu\n', ['ncu-']),
                          ('check: 64\ntable: micro\n', ['micro-'])]:
            self.w('answers/ch1-ex1.diff', pre)
            self.assertEqual(answers.files(self.root),
                             [('1', 'answers-%sch1.csv' % w) for w in want])
        self.w('tangle/ch1.mk', CH1_MK + 'micro := ch1peak\n')
        self.w('answers/ch1-ex1.diff', 'repeat: 3\nprogram: ch1peak\n')
        self.w('answers/ch1-ex2.run', 'before: x\n')
        self.assertEqual(answers.files(self.root), [
            ('1', 'answers-ch1.csv'), ('1', 'answers-micro-ch1.csv')])


    def test_keep(self):
        self.w('old.csv', 'answer,use,options,ms\nex1,check,"-m 1,2",1\n'
               'ex1,run,"",2\nex2,repeat,"",3\n')
        self.w('new.csv', 'answer,use,options,ms,run\nex1,run,"",4,1\n')
        self.assertEqual(answers.keep(self.p('old.csv'), self.p('new.csv')), [
            'answer,use,options,ms,run', 'ex1,run,"",4,1',
            'ex1,check,"-m 1,2",1,', 'ex2,repeat,"",3,'])
        self.assertEqual(len(answers.keep(self.p('none.csv'),
                                          self.p('new.csv'))), 2)
        self.w('old.csv', 'answer,use,ms_other\n')
        with self.assertRaises(ValueError):
            answers.keep(self.p('old.csv'), self.p('new.csv'))


class Code(Tree):
    def sha(self, files):
        h = hashlib.sha256()
        for f in files:
            with open(self.p(f), 'rb') as fh:
                h.update(fh.read())
        return h.hexdigest()[:16]

    def test_hash(self):
        fs = ['tangle/ch1.cu', 'tangle/ch0.h', 'tangle/ch0.cu']
        self.assertEqual(code.files(1, self.root), fs)
        h, ha = code.hash(1, root=self.root), code.hash(1, True, self.root)
        self.assertEqual(h, self.sha(fs))
        self.assertEqual(ha, self.sha(fs + ['answers/ch1-ex1.diff',
                                            'answers/ch1-ex2.run']))
        self.assertIsNone(code.hash(0, True, self.root))
        self.w('chapters/ch0.nw', 'prose is not code\n')
        self.assertEqual(code.hash(1, root=self.root), h)
        self.w('tangle/ch0.cu', 'int main(void) { return 1; }\n')  # linked
        h2 = code.hash(1, root=self.root)
        self.assertNotEqual(h2, h)
        self.w('answers/ch1-ex2.run', 'run: --size 256\n')
        self.assertEqual(code.hash(1, root=self.root), h2)
        self.assertNotEqual(code.hash(1, True, self.root), ha)

    def test_wanted_and_stale(self):
        want, ha = code.wanted(self.root), code.hash(1, True, self.root)
        self.assertEqual(want, dict([('ch0.csv', code.hash(0, root=self.root)),
                                     ('ch1.csv', code.hash(1, root=self.root))]
                                    + [(f, ha) for f in ANS]))
        gpu_a = self.p('results/gpu-a')
        self.assertEqual(code.stale_files(gpu_a, want),
                         [f + ' (missing)' for f in ANS])
        self.w('results/gpu-a/ch0.csv', HEAD)            # no rows: stale
        self.w('results/gpu-a/answers-ch1.csv', 'code_hash\n%s\nx\n' % ha)
        self.assertEqual(code.stale_files(gpu_a, want), [
            'ch0.csv', 'answers-ch1.csv'] + [
                f + ' (missing)' for f in ANS[1:]])

    def test_fresh_results(self):
        def fill(d):
            for f, h in code.wanted(self.root).items():
                self.w('results/%s/%s' % (d, f),
                       'kernel,code_hash\nk,%s\n' % h)
        self.assertEqual(code.fresh_results(self.root), 'results/gpu-a')
        fill('gpu-b')
        self.w('results/a-file', '')
        self.assertEqual(code.fresh_results(self.root), 'results/gpu-b')
        fill('gpu-a')
        self.assertEqual(code.fresh_results(self.root), 'results/gpu-a')
        self.w('results/gpu-a/ch1.csv', 'kernel,code_hash\n')
        self.assertEqual(code.fresh_results(self.root), 'results/gpu-b')
        self.w('tangle/ch1.cu', '// changed\n')          # both stale now
        self.assertEqual(code.fresh_results(self.root), 'results/gpu-a')
        for d in ('results/gpu-a', 'results/gpu-b', 'results'):
            shutil.rmtree(self.p(d))
            if d != 'results/gpu-a':        # no folder, then no results/
                self.assertEqual(code.fresh_results(self.root), '')

    def test_budgets(self):
        self.w('tangle/ch0.cu', 'x;\n' * 1201)
        self.w('tangle/ch1.mk', CH1_MK + 'roots := ch1.h\n')
        self.w('tangle/ch1.h', 'y;\n' * 1300)           # a header: no limit
        self.assertEqual(code.budgets(self.root), [
            (0, 1202, 1500, ['tangle/ch0.cu']), (1, 1301, 1200, [])])


class Readme(Tree):
    def test_chapter_title(self):
        self.check([((readme.chapter_title, self.p('chapters/' + f)), t)
                    for f, t in [('ch1.nw', TITLE1), ('notes.txt', ''),
                                 ('ch1-extra.nw', "Chapter 1's extra")]])

    def test_table(self):
        nws = ['chapters/ch0.nw', 'chapters/ch1.nw']
        head = readme.table('', []).split('\n')[:2]
        self.assertEqual(readme.table('results/gpu-a', nws, self.root),
                         '\n'.join(head + [
                             '| 0 | The problem and the harness | -- | -- '
                             '| -- | -- | -- | -- |',
                             '| 1 | %s | `naive` | 1.23 | 12.3 | 5.7 '
                             '| cuBLAS FP32 | GPU A |'
                             % TITLE1]) + '\n')
        self.assertEqual(readme.table('results/none', nws[1:], self.root)
                         .split('\n')[2],
                         '| 1 | %s | `naive` | -- | -- | -- | -- | -- |'
                         % TITLE1)

    def test_splice(self):
        text = ('# Book\n<!-- results-table:begin -->\nold\nold 2\n'
                '<!-- results-table:end -->\nafter\n')
        self.assertEqual(readme.splice(text, 'new\nrow\n'),
                         '# Book\n<!-- results-table:begin -->\nnew\nrow\n'
                         '<!-- results-table:end -->\nafter\n')
        self.assertEqual(readme.splice('no markers\n', 'x'), 'no markers\n')


class MakeVars(Tree):
    def test_buildable(self):
        for need, arch, ok, tgt in [
                ('sm_75', 'sm_86', 1, 'sm_86'), ('sm_75', 'sm_90', 1, 'sm_90'),
                ('sm_75', 'sm_70', 0, 'sm_70'), ('', 'sm_86', 1, 'sm_86'),
                ('sm_90a', 'sm_86', 0, 'sm_90a'), ('sm_90a', 'sm_90', 1,
                                                   'sm_90a'),
                ('sm_90a', 'sm_100', 0, 'sm_90a')]:
            m = manifest.Manifest(1, [('needs', need)] if need else [])
            self.assertEqual((makevars.buildable(m, arch),
                              makevars.target(m, arch)), (bool(ok), tgt))
        # best_target: that GPU's own instructions where ARCH is its GPU
        for arch, tgt in [('sm_86', 'sm_86'), ('sm_90', 'sm_90a'),
                          ('sm_90a', 'sm_90a'), ('sm_100', 'sm_100')]:
            m = manifest.Manifest(1, [('needs', 'sm_80'),
                                      ('best_target', 'sm_90a')])
            self.assertEqual((makevars.buildable(m, arch),
                              makevars.target(m, arch)), (True, tgt))

    def test_linked_only(self):
        # a chapter ARCH builds that links one it cannot: that one's
        # objects are compiled (LINKED_ONLY), its programs are not
        self.w('tangle/ch1.mk', 'programs := ch1\nneeds := sm_90a\n')
        self.w('tangle/ch2.mk', 'programs := ch2\nneeds := sm_80\n'
               'best_target := sm_90a\nlinks := ch1\n')
        self.w('chapters/ch2.nw', '')
        lines = makevars.make_vars('sm_86', self.root).split('\n')
        for want in ['BUILDABLE := 0 2', 'SKIPPED := 1', 'LINKED_ONLY := 1',
                     'ch2.target := sm_86', 'ch1.target := sm_90a']:
            self.assertIn(want, lines)
        lines = makevars.make_vars('sm_90', self.root).split('\n')
        for want in ['BUILDABLE := 0 1 2', 'LINKED_ONLY := ',
                     'ch2.target := sm_90a']:
            self.assertIn(want, lines)
        # a microbenchmark's links count too (micro_links)
        self.w('tangle/ch3.mk', 'programs := ch3\nneeds := sm_90a\n')
        self.w('tangle/ch4.mk', 'programs := ch4\nneeds := sm_75\n'
               'micro := ch4peak\nmicro_links := ch4 ch3\n')
        self.w('chapters/ch3.nw', '')
        self.w('chapters/ch4.nw', '')
        lines = makevars.make_vars('sm_86', self.root).split('\n')
        for want in ['BUILDABLE := 0 2 4', 'LINKED_ONLY := 1 3']:
            self.assertIn(want, lines)

    def test_make_vars(self):
        self.w('chapters/ch2.nw', '')            # no manifest yet: skipped
        lines = makevars.make_vars('sm_86', self.root).split('\n')
        for want in ['CHAPTERS := 0 1 2', 'ch0.target := sm_86',
                     'ch1.target := sm_90a', 'ch1.prev_programs := ch0',
                     'ch0.prev_programs := ',
                     'ch1.flags := -DMARK=a\\#b -DPRICE=$$5 -O3',
                     'NW_UPTO_1 := chapters/ch0.nw chapters/ch1.nw '
                     'chapters/ch1-extra.nw', 'BUILDABLE := 0',
                     'SKIPPED := 1 2', 'ANSWER_PROGRAM_ch1-ex1 := ch1',
                     'ANSWER_SOURCE_ch1-ex1 := ch1',
                     'ANSWER_MAIN_ch1-ex1 := y']:
            self.assertIn(want, lines)
        self.assertEqual([x for x in lines if 'ch1-ex2' in x], [])
        self.assertEqual([x for x in lines if 'RESULTS' in x], [])
        self.assertTrue(lines[0].startswith('# generated'))
        self.assertIn('BUILDABLE := 0 1\n', makevars.make_vars('sm_90',
                                                               self.root))
        self.w('tangle/ch1.mk', 'programs := ch1\nneeds := 90\n')
        with self.assertRaisesRegex(manifest.ManifestError,
                                    'needs := 90: want sm_XY'):
            makevars.make_vars('sm_90', self.root)


def _function(mangled, insts):
    return ('\t\tFunction : %s\n\t.headerflags\t@"EF_CUDA_SM90"\n' % mangled
            + ''.join('        /*%04x*/                   %s ;              '
                      '/* 0x000fe20000000a00 */\n%s/* 0x000fc40000000f00 */\n'
                      % (16 * i, x, ' ' * 77)
                      for i, x in enumerate(insts.split('|')))
            + '\t\t..........\n\n')


SASS = '\n\tcode for sm_90\n' + _function('_Z5k_onev', (
    'MOV R1, c[0x0][0x28]|S2R R0, SR_TID.X|BAR.SYNC.DEFER_BLOCKING 0x0|'
    'LDS R2, [R0]|FFMA R3, R2, R2, R3|IADD3 R0, R0, 0x1, RZ|'
    'ISETP.NE.AND P0, PT, R0, 0x10, PT|@P0 BRA 0x30|EXIT')) + _function(
    '_Z5k_twov', 'BAR.SYNC.DEFER_BLOCKING 0x0|FADD R1, R1, R1|EXIT') + \
    _function('_Z10sgemm_warpILi128ELi64EEviPf', (
        'MOV R1, c[0x0][0x28]|S2R R0, SR_TID.X|IMAD R2, R0, 4, RZ|'
        'LDG.E R3, [R2]|LDG.E R4, [R2+4]|MOV R5, RZ|FFMA R5, R3, R4, R5|'
        'FFMA R5, R3, R3, R5|STG.E [R2], R5|EXIT|BRA 0x90'))


class Machine(Case):
    def test_strip_params(self):
        self.check([((machine.strip_params, a), b) for a, b in [
            ('void sgemm_warp<128, 64>(int, float*)', 'sgemm_warp<128, 64>'),
            ('k_one()', 'k_one'), ('void f<(char)40>(int)', 'f<(char)40>')]])

    def test_excerpts(self):
        with tempfile.TemporaryDirectory() as d:
            f = os.path.join(d, 'sass.txt')
            with open(f, 'w') as fh:
                fh.write(SASS)
            ex = machine.excerpts([f], ['k_one', 'k_two', 'sgemm_warp<128,64>',
                                      'absent'])
        self.assertEqual(ex['k_one'], '\\begin{verbatim}\n'
                         '  /*0020*/ BAR.SYNC.DEFER_BLOCKING 0x0;\n'
                         '  /*0030*/ LDS R2, [R0];\n'
                         '  /*0040*/ FFMA R3, R2, R2, R3;\n'
                         '  /*0050*/ IADD3 R0, R0, 0x1, RZ;\n'
                         '  /*0060*/ ISETP.NE.AND P0, PT, R0, 0x10, PT;\n'
                         '  /*0070*/ @P0 BRA 0x30;\n\\end{verbatim}\n')
        self.assertEqual((ex['k_two'], ex['absent']), (None, None))
        # no barrier: from four lines before the first FFMA
        body = ex['sgemm_warp<128,64>'].split('\n')[1:-2]
        self.assertEqual((body[0], body[-1], len(body)),
                         ('  /*0020*/ IMAD R2, R0, 4, RZ;',
                          '  /*0090*/ EXIT;', 8))

    def test_excerpts_of_two_objects(self):
        # a program links two objects: a function found in both is read
        # in the link order, the first object's instructions first
        first = ('\t\tFunction : _Z5k_onev\n'
                 '        /*0000*/                   MOV R1, c[0x0][0x28] ;\n'
                 '        /*0010*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n')
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, 'a.txt'), os.path.join(d, 'b.txt')
            with open(a, 'w') as fh:
                fh.write(first)
            with open(b, 'w') as fh:
                fh.write(SASS)
            ex = machine.excerpts([a, b], ['k_one', 'k_two'])
            self.assertEqual(ex, machine.excerpts([a, b], ['k_one', 'k_two']))
        self.assertEqual(ex['k_one'].split('\n')[1],
                         '  /*0010*/ BAR.SYNC.DEFER_BLOCKING 0x0;')
        self.assertIsNone(ex['k_two'])


def run_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(argv)
    return rc, out.getvalue(), err.getvalue()


class Cli(Tree):
    def test_bad_usage(self):
        none = self.p('none.nw')
        for argv, msg in [
                (['manifest'], 'want manifest N FIELD | --tsv | chapters | '
                 'buildable | check'),
                (['manifest', '1'], 'want manifest N FIELD'),
                (['manifest', 'x', 'programs'], 'manifest: not a chapter: x'),
                (['frob'], 'no such command: frob (bookdata --help lists '
                 'them)'),
                (['answers', 'files'], 'want answers files N | --all'),
                (['title', none], none + ': No such file or directory')]:
            self.assertEqual(run_cli(argv), (2, '', 'bookdata: %s\n' % msg))
        self.assertEqual((run_cli([])[0], run_cli(['--help'])[0]), (2, 0))

    def test_title_without_file(self):
        self.assertEqual(run_cli(['title'])[0], 2)
        self.assertEqual(run_cli(['nw-upto', 'x'])[0], 2)
        self.assertEqual(run_cli(['gpu-dir'])[0], 2)

    def test_fake_tree(self):
        ex1 = self.p('answers/ch1-ex1.diff')
        self.check([
            ((run_cli, ['title', self.p('chapters/ch1.nw')]),
             (0, TITLE1 + '\n', '')),
            ((run_cli, ['manifest', '--file', self.p('tangle/ch1.mk'),
                        'flags']), (0, '-DMARK=a#b -DPRICE=$5 -O3\n', '')),
            ((run_cli, ['answers', 'target', ex1]), (0, 'ch1\n', '')),
            ((run_cli, ['answers', 'preamble', ex1]), (0, ''.join(
                'ch1-ex1\t%s\n' % x for x in [
                    'run: --size 4096', 'profile: --kernel naive',
                    'source: ch1', 'program: ch1', 'main: own']), ''))])

    @unittest.skipUnless(os.path.exists(os.path.join(REPO, 'tangle/ch0.mk')),
                         'the book is not tangled (run make)')
    def test_budget_real_tree(self):
        rc, out, err = run_cli(['budget'])
        self.assertEqual((rc, err, out[:4]), (0, '', 'ch0 '))


class DataGuideTest(unittest.TestCase):
    """book/DATA.md, the contributor's guide, lists every field of the
    manifests' schema."""

    def test_every_field_documented(self):
        from bookdata.manifest import FIELDS
        with open(os.path.join(REPO, 'book', 'DATA.md'),
                  encoding='utf-8') as f:
            guide = f.read()
        self.assertEqual([k for k in FIELDS
                          if '| `%s` |' % k not in guide], [])


class KeyNames(unittest.TestCase):
    def test_families(self):
        self.assertEqual(keys.measured(9, 'tuned', '4096', '4096', '4096',
                                       'tflops'), 'ch9.tuned.4096.tflops')
        self.assertEqual(keys.measured('14', 'bf16', '4096', '33', '1111',
                                       'ms'), 'ch14.bf16.4096x33x1111.ms')
        # a cube as awk compares fields: 4096 and 4096.0 are one number
        self.assertEqual(keys.size('4096', '4096.0', '4096'), '4096')
        self.assertEqual(keys.chapter(13, 'micro', 'h2d_pinned', 'gbs'),
                         'ch13.micro.h2d_pinned.gbs')
        self.assertEqual(keys.family('ceil', 'ridge'), 'ceil.ridge')
        self.assertEqual(keys.name('ch9.ex1', 'tuned'), 'ch9.ex1.tuned')

    def test_a_part_that_cannot_name(self):
        for bad in ('', 'two words'):
            with self.assertRaises(ValueError):
                keys.chapter(9, bad, 'tflops')


if __name__ == '__main__':
    unittest.main()
