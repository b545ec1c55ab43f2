"""bookdata.schema: the results files' columns, read from their writers."""
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(__file__), '..')
sys.path.insert(0, os.path.join(ROOT, 'book'))
from bookdata import schema  # noqa: E402

SOURCE = r'''
static int x;
#define DEMO_COLUMNS(X)                                                 \
    X(chapter, "%d", ch->number)          /* the chapter */             \
    X(ms, "%.4f", r->ms)                  /* median time, ms */         \
    X(run, "%s", env_or("BOOK_RUN", "1")) /* which of the runs */
#define OTHER_COLUMNS(X) \
    X(gpu, "%s", g->name) \
    X(sms, "%d", g->sms)
'''


class Parse(unittest.TestCase):
    def test_names_formats_notes(self):
        ls = schema.parse(SOURCE, 'demo.c')
        self.assertEqual(sorted(ls), ['DEMO', 'OTHER'])
        d = ls['DEMO']
        self.assertEqual([c.name for c in d], ['chapter', 'ms', 'run'])
        self.assertEqual([c.fmt for c in d], ['%d', '%.4f', '%s'])
        self.assertEqual(d[1].note, 'median time, ms')
        self.assertEqual(ls['OTHER'][1].note, '')
        self.assertEqual(d[0].where, 'demo.c')

    def test_a_stray_line_is_an_error(self):
        bad = SOURCE.replace('X(ms, "%.4f", r->ms)', 'ms, r->ms')
        with self.assertRaises(ValueError):
            schema.parse(bad)


class Header(unittest.TestCase):
    ls = schema.parse(SOURCE)

    def test_the_list_and_its_prefixes(self):
        self.assertIsNone(schema.check_header(
            ['chapter', 'ms', 'run'], 'ch9.csv', self.ls))
        # measured before the column run existed
        self.assertIsNone(schema.check_header(
            ['chapter', 'ms'], 'ch9.csv', self.ls))

    def test_a_column_out_of_place_is_named(self):
        why = schema.check_header(['chapter', 'run', 'ms'], 'ch9.csv',
                                  self.ls)
        self.assertIn('column 2 is run, not ms', why)
        why = schema.check_header(['chapter', 'ms', 'run', 'extra'],
                                  'ch9.csv', self.ls)
        self.assertIn('column 4 is extra', why)

    def test_answers_carry_their_three_columns(self):
        self.assertIsNone(schema.check_header(
            ['answer', 'use', 'options', 'chapter', 'ms'],
            'answers-ch9.csv', self.ls))
        self.assertIn('starts with answer,use,options', schema.check_header(
            ['chapter', 'ms'], 'answers-ch9.csv', self.ls))


class TheBook(unittest.TestCase):
    def test_the_writers_lists(self):
        ls = schema.lists(ROOT)
        rep = [c.name for c in ls['REPORT']]
        self.assertEqual(rep[:3], ['chapter', 'kernel', 'precision'])
        self.assertEqual(rep[-1], 'run')
        self.assertTrue(all(c.note for c in ls['REPORT']))
        self.assertIn('CEILING', ls)

    def test_every_committed_folder_holds_its_writers_columns(self):
        base = os.path.join(ROOT, 'results')
        dirs = [os.path.join(base, d) for d in sorted(os.listdir(base))]
        self.assertTrue(dirs)
        for d in dirs:
            self.assertEqual(schema.check_folder(d, ROOT), [], d)

    def test_a_planted_header_fails(self):
        src = os.path.join(ROOT, 'results', 'nvidia-h200', 'ch9.csv')
        tmp = tempfile.mkdtemp()
        try:
            with open(src, encoding='utf-8') as f:
                lines = f.read().split('\n')
            lines[0] = lines[0].replace('ms_q1,ms_q3', 'ms_q3,ms_q1')
            with open(os.path.join(tmp, 'ch9.csv'), 'w',
                      encoding='utf-8') as f:
                f.write('\n'.join(lines))
            bad = schema.check_folder(tmp, ROOT)
            self.assertEqual(len(bad), 1)
            self.assertIn('REPORT_COLUMNS', bad[0])
            self.assertIn('is ms_q3, not ms_q1', bad[0])
        finally:
            shutil.rmtree(tmp)


if __name__ == '__main__':
    unittest.main()


class Ragged(unittest.TestCase):
    def test_an_unquoted_comma_is_found(self):
        tmp = tempfile.mkdtemp()
        try:
            path = os.path.join(tmp, 'micro-ch16.csv')
            with open(path, 'w', encoding='utf-8') as f:
                f.write('chapter,name,what,ms\n16,a,"one, two",1.0\n')
            self.assertIsNone(schema.ragged(path))
            with open(path, 'a', encoding='utf-8') as f:
                f.write('16,b,one, two,1.0\n')
            self.assertEqual(schema.ragged(path),
                             'row 3 has 5 fields, the header 4')
        finally:
            shutil.rmtree(tmp)
