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


if __name__ == '__main__':
    unittest.main()
