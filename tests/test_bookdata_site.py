"""bookdata.site: the book as a website."""
import os
import re
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'book'))
from bookdata import site  # noqa: E402

BOOK = '''<html><head><title>A Book: Its Subtitle</title></head><body>
<header id="title-block-header"><h1 class="title">A Book</h1></header>
<section id="ch:1" class="level1"><h1 data-number="1"><span class="header-section-number">1</span> One</h1>
%s<section id="measured" class="level2" data-number="1.1"><h2>Measured</h2>
<div class="chunk" id="chunk-1"><div class="chunk-head"><span class="tag">1</span>
<span class="cn">The loop</span>=</div></div>
<p>See <a href="#ch:2">2</a> and <a href="#chunk-2">2</a>.</p></section></section>
<section id="ch:2" class="level1"><h1 data-number="2">Two</h1>
<section id="measured-1" class="level2" data-number="2.1"><h2>Measured</h2>
<div class="chunk" id="chunk-2"><div class="chunk-head"><span class="tag">2</span>
<span class="cn">The loop</span>+=</div></div>
<img src="fig-a.svg" /></section>
<section id="sec:more" class="level2"><h2>More</h2><p>words</p></section></section>
</body></html>
'''


class Site(unittest.TestCase):
    def build(self, before=''):
        d = tempfile.mkdtemp()
        with open(os.path.join(d, 'src.html'), 'w') as f:
            f.write(BOOK % before)
        os.makedirs(os.path.join(d, 'fig'))
        open(os.path.join(d, 'fig', 'fig-a.svg'), 'w').close()
        open(os.path.join(d, 'book.css'), 'w').close()
        pages = site.build(os.path.join(d, 'src.html'), os.path.join(d, 'out'),
                           os.path.join(d, 'fig'), os.path.join(d, 'book.css'))
        def read(p):
            with open(os.path.join(d, 'out', p)) as f:
                return f.read()
        self.addCleanup(__import__('shutil').rmtree, d)
        return pages, read

    def test_pages_links_and_anchors(self):
        pages, read = self.build()
        self.assertEqual(pages, ['index.html', 'search.html', 'ch1.html', 'ch2.html'])
        one, two = read('ch1.html'), read('ch2.html')
        self.assertIn('href="ch2.html#ch:2"', one)
        self.assertIn('href="ch2.html#chunk-the-loop"', one)   # a page's own count
        self.assertIn('id="chunk-the-loop"', one)
        self.assertIn('id="ch-2-measured"', two)     # named by what holds it
        self.assertIn('id="sec:more"', two)          # a label stays
        self.assertIn('<a class="permalink" href="#sec:more"', two)   # its heading links to it
        self.assertIn('src="fig/fig-a.svg"', two)
        self.assertIn('<a href="ch1.html">1 One</a> &rarr;', read('index.html'))
        self.assertIn('"p": "ch2.html", "a": "sec:more"', read('search-index.js'))

    def test_anchors_stay_when_an_earlier_chapter_grows(self):
        _, read = self.build()
        ids = set(re.findall(r'id="([^"]*)"', read('ch2.html')))
        _, read = self.build('<section id="measured-9" class="level2"><h2>Measured</h2></section>')
        self.assertEqual(set(re.findall(r'id="([^"]*)"', read('ch2.html'))), ids)

    def test_alt_text_without_tex(self):
        self.assertEqual(site.alt_text(r'A 64\times 8 tile of C_{ij}, \mathit{ldc}'),
                         'A 64\u00d78 tile of C_ij, ldc')

    def test_names(self):
        self.assertEqual(site.page_name('ch:12'), 'ch12')
        self.assertEqual(site.page_name('app:ch10-host'), 'app-ch10-host')
        self.assertEqual(site.slug('The <code>cp.async</code> pipeline&#39;s'),
                         'the-cp-async-pipeline-s')


if __name__ == '__main__':
    unittest.main()
