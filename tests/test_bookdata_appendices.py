"""bookdata.manifest.appendices: the order the appendices are woven in."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'book'))
from bookdata import manifest  # noqa: E402


class Appendices(unittest.TestCase):
    def test_a_later_chapters_file_among_its_appendices(self):
        with tempfile.TemporaryDirectory() as root:
            os.mkdir(os.path.join(root, 'chapters'))
            for f in ('ch12.nw', 'ch12-host.nw', 'ch12-sweep.nw',
                      'ch12-at14-program-slices.nw', 'ch14.nw',
                      'ch14-program.nw', 'ch14-results.nw', 'notes.txt'):
                open(os.path.join(root, 'chapters', f), 'w').close()
            self.assertEqual(manifest.appendices(['12', '14'], root), [
                'chapters/ch12-host.nw', 'chapters/ch12-sweep.nw',
                'chapters/ch14-program.nw',
                'chapters/ch12-at14-program-slices.nw',
                'chapters/ch14-results.nw'])
            # woven with chapter 14, but tangled with chapter 12
            self.assertIn('chapters/ch12-at14-program-slices.nw',
                          manifest.nw_upto(12, root))
            # a build without chapter 14 weaves no file of it
            self.assertEqual(manifest.appendices(['12'], root), [
                'chapters/ch12-host.nw', 'chapters/ch12-sweep.nw'])


if __name__ == '__main__':
    unittest.main()
