"""bookdata.labcut: the course edition's chapters."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'book'))
from bookdata import labcut  # noqa: E402

MARKUP = '''@begin code 0
@defn kernel.cu
@nl
@use The lab
@nl
@use Shared
@end code 0
@begin code 1
@defn The lab
@nl
@text answer line one;
@nl
@use A piece
@nl
@use Shared
@end code 1
@begin code 2
@defn A piece
@nl
@text piece of the answer;
@end code 2
@begin code 3
@defn Shared
@nl
@text shared by all;
@end code 3
@begin code 4
@defn The lab
@nl
@text more of the answer;
@end code 4
@begin code 5
@defn Lab: The lab
@nl
@text /* Lab: write it */
@end code 5'''.split('\n')


class Cut(unittest.TestCase):
    lab = {'The lab': 'Lab: The lab'}

    def test_the_stub_in_place_of_the_lab(self):
        out = '\n'.join(labcut.cut(MARKUP, self.lab))
        self.assertNotIn('answer line one', out)
        self.assertNotIn('more of the answer', out)
        self.assertNotIn('piece of the answer', out)
        self.assertIn('shared by all', out)
        # the stub once, where the lab's first definition was, and itself
        self.assertEqual(out.count('/* Lab: write it */'), 2)
        self.assertIn('part of the lab: written by the student', out)

    def test_pieces(self):
        self.assertEqual(labcut.pieces(MARKUP, self.lab), {'A piece'})

    def test_a_lab_without_its_stub(self):
        with self.assertRaises(ValueError):
            labcut.cut(MARKUP[:-4], self.lab)


B = '/* ---- lab 3, K: your code begins here ---- */'
E = '/* ---- lab 3, K: your code ends here ---- */'
STUB = ['int launcher(void) { return 0; }', 'void k1(void) {', '    ' + B,
        '    /* write it */', '    ' + E, '}', 'void k2(void) {', '  ' + B,
        '  /* write it */', '  ' + E, '}']
FULL = ['int launcher(void) { return 0; }', 'void k1(void) {',
        '    int x = 1;', '    x++;', '}', 'void k2(void) {',
        '  int x = 1;', '  x++;', '}']


class Splice(unittest.TestCase):
    def test_only_the_marked_lines_are_the_students(self):
        student = list(STUB)
        student[0] = 'int launcher(void) { return cublas(); }'
        student[3] = '    int y = 2;'
        out = labcut.splice(student, STUB, 'lab/ch3.cu', 'stub.cu')
        self.assertIn('int launcher(void) { return 0; }', out)
        self.assertNotIn('cublas', '\n'.join(out))
        # the first region's lines in every region, after a #line
        self.assertEqual(out.count('    int y = 2;'), 2)
        self.assertEqual(out[3], '#line 4 "lab/ch3.cu"')

    def test_refused(self):
        for bad, why in (([l for l in STUB if 'your code' not in l],
                          'no region'),
                         (STUB[:2] + STUB[3:], 'without its begin'),
                         (STUB[:3] + ['#  include "x.cu"'] + STUB[4:],
                          'may not use #include'),
                         (STUB[:3] + ['%:include <ch3.cu>'] + STUB[4:],
                          'may not use #include'),
                         (STUB[:3] + ['#\\', 'include <ch3.cu>'] + STUB[4:],
                          'may not use #include'),
                         (STUB[:3] + ['#/**/include <ch3.cu>'] + STUB[4:],
                          'may not use #include'),
                         (STUB[:3] + ['const char *o = "/*";',
                                      '#include <ch3.cu>',
                                      'const char *c = "*/";'] + STUB[4:],
                          'may not use #include'),
                         (STUB[:3] + ['#define launcher cublas'] + STUB[4:],
                          'may not use #define launcher'),
                         (STUB[:4] + STUB[5:], 'begin mark inside')):
            with self.assertRaises(labcut.SpliceError) as c:
                labcut.splice(bad, STUB, 'lab/ch3.cu', 'stub.cu')
            self.assertIn(why, str(c.exception))

    def test_the_code_stays_in_its_braces(self):
        for lines, why in ((['}', 'void evil(void) {'], 'closes a brace'),
                           (['%>', 'void evil(void) <%'], 'closes a brace'),
                           (['%\\', '>', 'void evil(void) <%'],
                            'closes a brace'),
                           (['// \\', '{', '}', 'void evil(void) {'],
                            'closes a brace'),
                           (['if (1) {'], 'leaves 1 brace open')):
            with self.assertRaises(labcut.SpliceError) as c:
                labcut.splice(STUB[:3] + lines + STUB[4:], STUB,
                              'lab/ch3.cu', 'stub.cu')
            self.assertIn(why, str(c.exception))
        # braces in comments, strings and characters are not braces
        fine = ['/* } */ const char *s = "}"; char c = \'}\'; // }',
                'if (1) { s = "{"; }']
        labcut.splice(STUB[:3] + fine + STUB[4:], STUB, 'a.cu', 'stub.cu')
        self.assertEqual(labcut.braces('s = R"x(})x";'), [])
        self.assertEqual(labcut.braces('{\n/* { */ }\n<% %>'),
                         [(1, 1), (2, -1), (3, 1), (3, -1)])

    def test_the_stubs_own_macros_and_pragmas(self):
        stub = STUB[:3] + ['#define AT(p, r) 0'] + STUB[4:]
        student = stub[:3] + ['#pragma unroll', '#define AT(p, r) \\',
                              '    ast[p][r]', '#undef AT'] + stub[4:]
        out = labcut.splice(student, stub, 'lab/ch7.cu', 'stub.cu')
        self.assertIn('    ast[p][r]', out)

    def test_the_answer_is_the_programs_code(self):
        a = labcut.answer(STUB, FULL)
        self.assertEqual(a[3:5], ['    int x = 1;', '    x++;'])
        out = labcut.splice(a, STUB, 'a.cu', 'stub.cu')
        self.assertEqual([l.strip() for l in out
                          if not l.startswith('#line') and 'your code' not in l],
                         [l.strip() for l in FULL])
        with self.assertRaises(labcut.SpliceError):
            labcut.answer(STUB, FULL[1:])


class Lexer(unittest.TestCase):
    def test_a_digit_separator_opens_no_character_literal(self):
        lines = ['static const int z = 1\'2 + "\'/*"[0];',
                 '#include <ch2.cu>', '} {', '// */']
        self.assertEqual(labcut.directives(lines), [(2, 'include', '')])
        self.assertEqual([d for _, d in labcut.braces('\n'.join(lines))],
                         [-1, 1])

    def test_blanks_between_backslash_and_newline_still_splice(self):
        lines = ['/* x *\\ ', '/', '#include <ch3.cu>', '// */']
        self.assertEqual(labcut.directives(lines), [(3, 'include', '')])

    def test_an_r_that_ends_a_name_starts_no_raw_string(self):
        lines = ['#pragma note XR"("', '#include <ch3.cu>', '#pragma note ")"']
        self.assertEqual([d for _, d, _ in labcut.directives(lines)],
                         ['pragma', 'include', 'pragma'])
        lines = ['const char *s = u8R"(#include <x> })";', 'int x = LR"(%:)"[0];']
        self.assertEqual([d for _, d, _ in labcut.directives(lines)], [])

    def test_numbers_and_literals_hide_what_they_hold(self):
        lines = ["int a = 0x1'F'00, b = u8'{', c = L'}';",
                 'const char *s = "#define X {";']
        self.assertEqual(labcut.directives(lines), [])
        self.assertEqual(labcut.braces('\n'.join(lines)), [])


class Refused(unittest.TestCase):
    STUB = ['x', '/* ---- lab 1, k: your code begins here ---- */',
            '/* ---- lab 1, k: your code ends here ---- */', 'y']

    def spliced(self, *lines):
        return labcut.splice([self.STUB[0], self.STUB[1]] + list(lines)
                             + self.STUB[2:], self.STUB, 'a.cu', 's.cu')

    def test_asm_pragma_and_control_characters(self):
        for lines in (['asm("nop");'], ['int x __asm__("y");'],
                      ['_Pragma("weak f")'], ['#pragma redefine_extname a b'],
                      ['\0#include <x>'], ['int a;\x01']):
            with self.assertRaises(labcut.SpliceError, msg=lines):
                self.spliced(*lines)
        out = self.spliced('#pragma unroll 2', 'int basm = 1; // asm', 'const char *s = "_Pragma";')
        self.assertIn('#pragma unroll 2', out)

    def test_no_token_pasting(self):
        # a #define of a name the stub defines expands in the book's
        # lines, where no check reads what ## builds: asm, _Pragma, <%
        for lines in (['#define TROW(i) ((i) + [&]() { a ## sm volatile("nop"); return 0; }())'],
                      ['#define TROW(i) _Pra %:%: gma("weak f") (i)'],
                      ['#define TROW(i) (i) %: %: x']):
            with self.assertRaises(labcut.SpliceError, msg=lines) as e:
                self.spliced(*lines)
            self.assertIn('paste tokens', str(e.exception))
        out = self.spliced('int x; /* ## in a comment */', 'const char *s = "##";')
        self.assertIn('const char *s = "##";', out)

    def test_no_explicit_specialization(self):
        # a specialization of the book's kernel template for the
        # launcher's arguments would run in place of the whole kernel
        for lines in (['template <> __global__ void k<1>(int m) { }'],
                      ['template<>', 'void run<2>(int m) { }'],
                      ['template', '<', '>', 'void run<2>(int m) { }']):
            with self.assertRaises(labcut.SpliceError, msg=lines) as e:
                self.spliced(*lines)
            self.assertIn('specialize', str(e.exception))
        out = self.spliced('template <int N> __device__ int f() { return N; }',
                           '// template <> in a comment')
        self.assertIn('// template <> in a comment', out)

    def test_raw_strings_whose_splices_the_compiler_undoes(self):
        # The compiler undoes line splices inside a raw string, so a
        # checker that joins them first would read this #include as part
        # of a string; no raw string passes, in any of its spellings.
        attack = ['const char *s = R"x(a)x\\', '", *t = R"y( )x";',
                  '#include "/any/file.h"', ')y"/*"*/;']
        for lines in (attack, ['const char *s = R"(x)";'],
                      ['auto s = u8R"d(x)d";'], ['auto s = LR"(x)";'],
                      ['const char *s = R\\', '"(x)";'],
                      ['const char *s = R"x(', 'unclosed']):
            with self.assertRaises(labcut.SpliceError, msg=lines) as e:
                self.spliced(*lines)
            self.assertIn('raw string', str(e.exception))
        out = self.spliced('int BR = 1; const char *s = "R";', "char c = 'R';",
                           '// a comment may name R"(x)"', 'int n = 1\'0;')
        self.assertIn('int BR = 1; const char *s = "R";', out)


class Lexing(unittest.TestCase):
    STUB = Refused.STUB

    def spliced(self, *lines):
        return labcut.splice([self.STUB[0], self.STUB[1]] + list(lines)
                             + self.STUB[2:], self.STUB, 'a.cu', 's.cu')

    def test_what_gcc_reads_into_names_and_numbers(self):
        # GCC reads $1'x' as a name and a character; a reader of the
        # standard, as a number with a digit separator that hides the rest
        for lines in (["(void)(__STRING($1'x')); asm volatile(\"trap;\"); ('y');"],
                      ['int \u00e9 = 1;'],            # a letter not ASCII
                      [r'int \u00e9 = 1;'],           # a universal character name
                      ['// a comment in fran\u00e7ais'],
                      ['int a$b = 1;']):
            with self.assertRaises(labcut.SpliceError, msg=lines) as e:
                self.spliced(*lines)
            self.assertIn('only ASCII', str(e.exception))


    def test_a_pragma_holds_a_count_and_nothing_else(self):
        # the compiler ignores a brace in a pragma; a reader of braces
        # would count it
        for lines in (['#pragma unroll {', '}', 'int f() {', '#pragma unroll }'],
                      ['#pragma unroll 4 x']):
            with self.assertRaises(labcut.SpliceError, msg=lines) as e:
                self.spliced(*lines)
            self.assertIn('takes a count', str(e.exception))
        out = self.spliced('#pragma unroll 4', '#pragma unroll N', '#pragma nounroll',
                           '#pragma unroll // all of it')
        self.assertIn('#pragma unroll 4', out)

    def test_a_file_name_the_compiler_reads_as_written(self):
        # GCC reads escapes in a #line's name: b\q would name bq
        with self.assertRaises(labcut.SpliceError) as e:
            labcut.splice(self.STUB, self.STUB, 'lab\\b\\q.cu', 's.cu')
        self.assertIn('file name', str(e.exception))


class Preprocessed(unittest.TestCase):
    def lines(self, *mine):
        return (['# 1 "s.cu"', 'int x;', '#pragma GCC diagnostic push',
                 '# 4 "a.cu"'] + list(mine) + ['# 9 "s.cu"', '}'])

    def test_a_macro_may_not_make_what_the_source_may_not_hold(self):
        for mine, why in ((['asm volatile("trap;");'], 'uses asm'),
                          (['#pragma message("hi")'], 'a directive'),
                          (['int q = 0; { q++;'], 'braces'),
                          (['} extern "C" {'], 'braces')):
            with self.assertRaises(labcut.SpliceError, msg=mine) as e:
                labcut.preprocessed(self.lines(*mine), 'a.cu')
            self.assertIn(why, str(e.exception))

    def test_a_macro_may_not_make_a_specialization(self):
        # glibc's __P(args) args, or a stub's macro defined as <, gives
        # template <> only after the preprocessor
        for line in ('template < >', 'template <>', 'template', ):
            out = ['# 1 "s.cu"', 'x', '# 40 "lab/ch8.cu"'] + (
                [line] if line != 'template' else ['template', '<', '>']) + [
                '__global__ void k<1>(int m) { }', '# 50 "s.cu"', 'y']
            with self.assertRaises(labcut.SpliceError, msg=line) as e:
                labcut.preprocessed(out, 'lab/ch8.cu')
            self.assertIn('template <>', str(e.exception))

    def test_no_line_of_the_student_is_no_pass(self):
        with self.assertRaises(labcut.SpliceError) as e:
            labcut.preprocessed(['# 1 "s.cu"', 'int x;', '# 4 "lab/bq.cu"', 'asm("");'],
                                'lab/b\\q.cu')
        self.assertIn('nothing to check', str(e.exception))

    def test_the_stubs_lines_and_an_honest_region_pass(self):
        labcut.preprocessed(self.lines('#pragma unroll', 'for (;;) { s += "}"[0]; }',
                                       '# 7 "a.cu"', 'x++;'), 'a.cu')


class Screen(unittest.TestCase):
    def test_a_call_and_its_checked_form_are_one(self):
        ours = {'fprintf': 'U', '__printf_chk': 'U', 'cudaMalloc': 'U'}
        for name in ('fprintf', '__fprintf_chk', 'printf', '__printf_chk',
                     'cudaMalloc'):
            self.assertTrue(labcut._called(name, ours), name)
        for name in ('cublas_sgemm', '__cublas_sgemm_chk', 'puts',
                     '__chk', 'exit'):
            self.assertFalse(labcut._called(name, ours), name)


class HostCode(unittest.TestCase):
    """Two objects whose host function has the same name and size but
    calls another function: the screen reads the call, not the size."""
    SRC = ('static int __attribute__((noinline)) one(int x) { return x + 1; }\n'
           'static int __attribute__((noinline)) two(int x) { return x + 2; }\n'
           'int (*volatile keep[2])(int) = { one, two };\n'
           'int f(int x) { return %s(x) * 3; }\n')

    def test_a_function_that_calls_another_is_changed(self):
        import shutil
        import subprocess
        import tempfile
        if not shutil.which('gcc'):
            self.skipTest('no gcc')
        with tempfile.TemporaryDirectory() as d:
            objs = []
            for callee in ('one', 'two', 'one'):
                src = os.path.join(d, '%s%d.c' % (callee, len(objs)))
                with open(src, 'w') as f:
                    f.write(self.SRC % callee)
                objs.append(src[:-2] + '.o')
                subprocess.run(['gcc', '-O2', '-c', src, '-o', objs[-1]], check=True)
            same, other = labcut._host_code(objs[0]), labcut._host_code(objs[1])
            self.assertEqual(len(same['f'][0]), len(other['f'][0]))
            self.assertNotEqual(same['f'], other['f'])
            self.assertEqual(same, labcut._host_code(objs[2]))
            why = labcut.screen(objs[1], objs[0])
            self.assertTrue(any('changes the book\'s host function f (its '
                                'instructions or what they call' in w
                                for w in why), why)
            self.assertEqual(labcut.screen(objs[2], objs[0]), [])


class Redefined(unittest.TestCase):
    def test_a_name_the_stub_overrides_is_the_answer(self):
        lines = """@file a.nw
@begin code 0
@defn Swizzles
@text #define SW(p) ((p) / 4)
@end code 0
@begin code 1
@defn Layout
@text #define AT(p) x[SW(p)]
@end code 1
@begin code 2
@defn Lab: Layout
@text #undef SW
@nl
@text #define SW(p) 0
@nl
@text #define AT(p) x[0]
@end code 2
@file b.nw
@begin code 3
@defn Other swizzles
@text #define SW(p) 1
@end code 3
""".split('\n')
        self.assertEqual(labcut.redefined(lines, {'Layout': 'Lab: Layout'}),
                         {'Swizzles'})
        out = labcut.cut(lines, {'Layout': 'Lab: Layout'})
        self.assertNotIn('@text #define SW(p) ((p) / 4)', out)
        self.assertIn('@text #define SW(p) 1', out)


if __name__ == '__main__':
    unittest.main()
