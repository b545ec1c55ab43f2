"""The book as a website: build/html/, a page per chapter and appendix.

build(src, out, figs, css) reads pandoc's HTML of the whole book (made
with --section-divs and without --self-contained, so that its figures
stay files) and writes into folder out:

  index.html      the title page and the contents
  P.html          a page for each chapter, appendix and index of the back
                  matter (chapter 3: ch3.html, appendix app:harness:
                  app-harness.html), each with the sidebar of contents,
                  previous and next, and a search box
  search.html     the search, which runs in the browser from
  search-index.js the text of every section (no server, file:// too)
  fig/            the figures (figs/*.svg), as files
  book.css        the book's style (css), then site.css's: the sidebar,
                  dark mode, the phone layout

Anchors are named by content, so that a link stays good when text is
added elsewhere: a section with a label keeps it (ch:3, sec:timing), any
other is its title's slug, made unique within its page alone; a chunk is
its name's slug, with -2, -3 for the definitions that continue it
(chunk-43 would move whenever a chunk is added before it).  Every link is
rewritten to the page that holds its target.  Returns the pages written.
"""
import html
import html.parser
import json
import os
import re
import shutil

from . import awk

_SECTION = re.compile(r'<section\b[^>]*>|</section>')
_ID = re.compile(r'\bid="([^"]*)"')


class SiteError(Exception):
    pass


def slug(text):
    """An anchor's name from HTML text, as awk.slug names a folder."""
    return awk.slug(_text(text)) or 'section'


def page_name(sid):
    """ch:3 -> ch3, app:harness -> app-harness, preface -> preface."""
    if sid.startswith('ch:'):
        return 'ch' + sid[3:]
    return slug(sid.replace(':', '-'))


def _top_sections(body):
    """[(id, start, end)] of the level-1 sections of BODY, in order."""
    out, depth, start, sid = [], 0, 0, None
    for m in _SECTION.finditer(body):
        if m.group(0).startswith('</'):
            depth -= 1
            if depth == 0:
                out.append((sid, start, m.end()))
        else:
            if depth == 0:
                start = m.start()
                sid = _ID.search(m.group(0)).group(1)
            depth += 1
    return out


def _heading(text, tag):
    m = re.search(r'<%s\b[^>]*>(.*?)</%s>' % (tag, tag), text, re.S)
    if not m:
        return ''
    return re.sub(r'<span class="header-section-number">.*?</span>', '',
                  m.group(1), flags=re.S).strip()


_BLOCK = re.compile(r'</?(p|div|li|ul|ol|h[1-6]|tr|td|th|br|section|figure|'
                    r'figcaption|caption|table|blockquote|dd|dt)\b[^>]*>')


def _text(fragment, tex=False):
    """The text of an HTML fragment: math as MathML shows it (or, with
    tex, as its TeX annotation, which a search can find: B_K), inline
    tags dropped without a space, block tags a space; curly apostrophes
    straight."""
    if tex:
        t = re.sub(r'<math\b.*?<annotation[^>]*>(.*?)</annotation>.*?</math>',
                   r' \1 ', fragment, flags=re.S)
    else:
        t = re.sub(r'<annotation\b.*?</annotation>', '', fragment, flags=re.S)
    t = _BLOCK.sub(' ', t)
    t = html.unescape(re.sub(r'<[^>]*>', '', t)).replace('\u2019', "'")
    return re.sub(r'\s+', ' ', t).strip()


def _plain(text):
    t = re.sub(r'<(pre|nav)\b.*?</\1>', ' ', text, flags=re.S)
    t = re.sub(r'<div class="chunk-foot">.*?</div>\s*</div>', ' ', t, flags=re.S)
    return _text(t, tex=True)


_TEX = {'times': '\u00d7', 'oplus': '\u2295', 'cdot': '\u00b7', 'le': '\u2264',
        'ge': '\u2265', 'approx': '\u2248', 'lfloor': '\u230a', 'rfloor': '\u230b',
        'bmod': ' mod ', 'alpha': '\u03b1', 'beta': '\u03b2', 'ldots': '...'}


def alt_text(alt):
    """A figure's alt text without the TeX of its caption's math:
    64\\times 8 reads 64\u00d78, C_{ij} reads C_ij, \\mathit{ldc} ldc."""
    t = re.sub(r'\\\\|\\,|\\ ', ' ', alt)
    t = re.sub(r'\\([A-Za-z]+)\s*', lambda m: _TEX.get(m.group(1), ''), t)
    return re.sub(r'[{}$]', '', t)


class _IndexReader(html.parser.HTMLParser):
    """{idx-N: [term, subterm]} of the subject index's list."""
    def __init__(self):
        super().__init__()
        self.path, self.text, self.out, self.depth = [], [], {}, 0

    def handle_starttag(self, tag, attrs):
        if tag == 'li':
            self.path.append('')
            self.text.append(True)
        elif tag in ('a', 'ul') and self.text:
            self.text[-1] = False
            href = dict(attrs).get('href') or ''
            if tag == 'a' and href.startswith('#idx-'):
                self.out[href[1:]] = [p.strip().rstrip(',').strip() for p in self.path]

    def handle_endtag(self, tag):
        if tag == 'li' and self.path:
            self.path.pop()
            self.text.pop()

    def handle_data(self, data):
        if self.text and self.text[-1]:
            self.path[-1] += data


def _index_terms(body):
    m = re.search(r'<section id="subject-index".*?</section>', body, re.S)
    if not m:
        return {}
    r = _IndexReader()
    r.feed(m.group(0))
    return r.out


# a heading's link to its own section (kept to its last word; left out
# of the search index)
_PERMALINK = '&#160;<a class="permalink" href="#%s" aria-label="a link to this section">&#182;</a>'


def _spans(text):
    """[(start, end, id)] of each <section> of a page's text."""
    out, stack = [], []
    for m in re.finditer(r'<section id="([^"]*)"|</section>', text):
        if m.group(1) is not None:
            stack.append((m.start(), m.group(1)))
        elif stack:
            s, i = stack.pop()
            out.append((s, m.end(), i))
    return out


def _within(spans, pos):
    """The id of the innermost section that holds position pos."""
    best = None
    for s, e, i in spans:
        if s <= pos < e and (best is None or s > best[0]):
            best = (s, i)
    return best[1] if best else None


def _new_ids(pages):
    """{old id: new id} for the sections without a label, the run-in
    paragraphs and the chunks: each named by its own title and the
    section that holds it, so that no name is a count through the book
    or the page (text added elsewhere leaves it as it is)."""
    new = {}
    # chunks: their name's slug, and a count within the page where the
    # page continues a chunk (a page is a file: its ids need only be its own)
    for _, _, text in pages:
        seen = {}
        for m in re.finditer(r'<div class="chunk" id="(chunk-[0-9]+)">\s*'
                             r'<div class="chunk-head">.*?<span class="cn">(.*?)</span>',
                             text, re.S):
            s = 'chunk-' + slug(m.group(2))
            seen[s] = seen.get(s, 0) + 1
            new[m.group(1)] = s if seen[s] == 1 else '%s-%d' % (s, seen[s])
    # sections and run-in paragraphs: a label stays; any other takes its
    # title's slug after the id of the section that holds it (a count
    # within that section where two titles there are the same)
    for _, _, text in pages:
        taken = set(_ID.findall(text))
        spans = _spans(text)
        heads = []
        for m in re.finditer(r'<section id="([^"]*)"\s+class="level([2-6])[^"]*"[^>]*>\s*'
                             r'(<h[2-6][^>]*>.*?</h[2-6]>)', text, re.S):
            heads.append((m.start(), m.group(1), _heading(m.group(3), 'h' + m.group(2))))
        for m in re.finditer(r'<span id="([^"]*)"\s+class="paragraph"><strong>(.*?)</strong>',
                             text, re.S):
            heads.append((m.start(), m.group(1), m.group(2)))
        used = {}
        for pos, old, title in sorted(heads):
            if ':' in old:
                continue
            # (a section's own span starts at pos, so look just before it)
            holder = _within(spans, pos - 1)
            where = new.get(holder, holder) if holder else ''
            base = (where.replace(':', '-') + '-' if where else '') + slug(title)
            used[base] = used.get(base, 0) + 1
            s = base if used[base] == 1 else '%s-%d' % (base, used[base])
            while s in taken and s != old:
                s += '-'
            new[old] = s
    return new


_CSS = '''
/* The site's layout (build/html/), after the book's style. */
:root { --bg: #fff; --fg: #222; --muted: #666; --code: #f7f7f4; --rule: #ccc;
        --link: #1a4f8b; --side: #f4f4f1; color-scheme: light dark; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #1b1c1e; --fg: #ddd; --muted: #aaa; --code: #26282b; --rule: #444;
          --link: #8ab4f0; --side: #222427; }
  .kw { color: #8fb0ff; } .cuda { color: #e09be0; } .co { color: #9ac47a; }
  .pp { color: #f08a7a; } .st { color: #d6b38a; }
  figure img { background: #fff; }
}
body { max-width: none; margin: 0; padding: 0; background: var(--bg); color: var(--fg); }
a { color: var(--link); }
.chunk-code { background: var(--code); border-left-color: var(--rule); }
.chunk-foot, .chunk-head .tag { color: var(--muted); }
h1 { border-bottom-color: var(--rule); }
#sidebar { position: fixed; top: 0; left: 0; bottom: 0; width: 17em; overflow-y: auto;
           background: var(--side); border-right: 1px solid var(--rule);
           padding: 1em; font: 14px/1.4 Helvetica, Arial, sans-serif; box-sizing: border-box; }
ol.contents, ol.contents ol { list-style: none; padding-left: 0; margin: 0.5em 0; }
main ol.contents ol { padding-left: 1.2em; }
#sidebar ol ol { padding-left: 1em; font-size: 0.95em; }
#sidebar li { margin: 0.15em 0; }
#sidebar .here > a { font-weight: bold; }
#sidebar summary { cursor: pointer; margin-top: 0.5em; color: var(--muted); }
#sidebar form input { width: 100%; box-sizing: border-box; font-size: 14px; padding: 0.2em; }
main { max-width: 46em; margin: 0 auto 0 19em; padding: 1em 1.5em 3em; }
nav.pages { display: flex; justify-content: space-between; gap: 1em;
            font: 14px/1.4 Helvetica, Arial, sans-serif; margin: 1em 0; }
pre { overflow-x: auto; max-width: 100%; }
pre code { white-space: pre; }
pre, pre code { font-size: 0.93rem; }
.table-box { overflow-x: auto; max-width: 100%; margin: 0 0 1em; }
.permalink { color: var(--muted); text-decoration: none; font-weight: normal; opacity: 0.25;
              user-select: none; }
h2:hover .permalink, h3:hover .permalink, h4:hover .permalink, .permalink:focus { opacity: 1; }
@media (hover: none) { .permalink { opacity: 0.5; } }
.table-box table { margin: 0.3em auto; }
.table-caption { font-size: 0.9em; text-align: center; margin: 1.2em 0 0; }
td:first-child { white-space: nowrap; }
thead tr, tbody tr:last-child { border-color: var(--fg); }
:target { background: rgba(255, 214, 0, 0.22); }
section:target { background: none; }
section:target > :is(h1, h2, h3, h4) { background: rgba(255, 214, 0, 0.22); }
figure img { height: auto; }
a.fig { display: block; overflow-x: auto; }
math[display="block"] { display: block; max-width: 100%; overflow-x: auto; }
p code, li code, td code, figcaption code, caption code { overflow-wrap: anywhere; }
main p, main li, figcaption { overflow-wrap: break-word; }
#results li { margin: 0.8em 0; }
#results .where { color: var(--muted); font-size: 0.9em; }
@media (max-width: 60em) {
  #sidebar { position: static; width: auto; border-right: none;
             border-bottom: 1px solid var(--rule); max-height: 60vh; }
  main { margin: 0 auto; padding: 0.5em 0.8em 2em; }
  main h1 { margin-top: 0.8em; }
  ul.subject-index, ul.ident-index { columns: 1; }
  #sidebar li { margin: 0.45em 0; }
}
ul.subject-index li, ul.ident-index li { padding-left: 1.2em; text-indent: -1.2em; }
'''

_SEARCH_JS = r'''// The book's search: SEARCH_INDEX (search-index.js) holds the text of
// every section; a query's words must all appear, in its title or text.
(function () {
  var q = new URLSearchParams(location.search).get('q') || '';
  var box = document.getElementById('q');
  if (box) box.value = q;
  var out = document.getElementById('results');
  var words = q.toLowerCase().replace(/\u2019/g, "'").split(/\s+/)
    .filter(function (w) { return w; });
  if (!out || !words.length) return;
  var hits = [];
  // a section scores by how often it names each word (a title's match
  // counts as ten), the whole query as a phrase doubling it
  var phrase = words.join(' ');
  SEARCH_INDEX.forEach(function (e) {
    var t = e.t.toLowerCase(), x = e.x.toLowerCase(), score = 0;
    for (var i = 0; i < words.length; i++) {
      var n = x.split(words[i]).length - 1, inT = t.indexOf(words[i]) >= 0;
      if (!inT && !n) return;
      score += (inT ? 10 : 0) + Math.min(n, 20);
    }
    if (words.length > 1 && (x.indexOf(phrase) >= 0 || t.indexOf(phrase) >= 0)) score *= 2;
    hits.push([score, e]);
  });
  hits.sort(function (a, b) { return b[0] - a[0]; });
  document.getElementById('count').textContent =
    hits.length + (hits.length === 1 ? ' section holds' : ' sections hold') + ' "' + q + '"';
  hits.slice(0, 50).forEach(function (h) {
    var e = h[1], li = document.createElement('li'), a = document.createElement('a');
    a.href = e.p + '#' + e.a;
    a.textContent = e.t;
    li.appendChild(a);
    var at = e.x.toLowerCase().indexOf(words[0]);
    var s = document.createElement('div');
    s.className = 'where';
    s.textContent = e.c + (at >= 0 ? ': ...' + e.x.slice(Math.max(0, at - 60), at + 100) + '...' : '');
    li.appendChild(s);
    out.appendChild(li);
  });
})();
'''

_PAGE = '''<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1.0" />
<title>%(title)s</title>
<link rel="stylesheet" href="book.css" />
</head>
<body>
<nav id="sidebar">
<a href="index.html">%(book)s</a>
<form action="search.html"><input id="%(boxid)s" name="q" placeholder="Search the book" /></form>
<details id="toc" open><summary>Contents</summary>
%(toc)s
</details>
<script>if (matchMedia("(max-width: 60em)").matches) document.getElementById("toc").open = false;
else { var here = document.querySelector("#sidebar .here"); if (here) here.scrollIntoView({block: "center"}); }</script>
</nav>
<main>
%(pages)s
%(content)s
%(pages)s
</main>
%(scripts)s</body>
</html>
'''


def build(src, out, figs, css):
    with open(src, encoding='utf-8') as f:
        text = f.read()
    i, j = text.find('<body>'), text.rfind('</body>')
    if i < 0 or j < 0:
        raise SiteError('%s: no <body>' % src)
    body = text[i + len('<body>'):j]
    title_m = re.search(r'<title>(.*?)</title>', text, re.S)
    book = re.sub(r'\s+', ' ', title_m.group(1)).split(':')[0].strip() if title_m else 'The book'
    header = re.search(r'<header id="title-block-header">.*?</header>', body, re.S)
    math_head = ''
    top = _top_sections(body)
    if not top:
        raise SiteError('%s: no sections (pandoc --section-divs?)' % src)
    pages = []                                  # (name, title, text)
    for sid, a, b in top:
        sec = body[a:b]
        # (a title as text: an appendix's holds a link to its chapter)
        num = re.search(r'<h1 data-number="([^"]*)"', sec)
        pages.append((page_name(sid), ((num.group(1) + ' ') if num else '')
                      + _text(_heading(sec, 'h1')), sec))
    names = [p[0] for p in pages]
    if len(set(names)) != len(names):
        raise SiteError('two sections make one page: %s' % names)
    new = _new_ids(pages)
    where = {}
    for name, _, sec in pages:
        for old in _ID.findall(sec):
            where.setdefault(old, name)
    # the subject index's anchors (idx-N, counted through the whole book)
    # named by their term, unique within their page
    terms = _index_terms(body)
    used = {}
    for old in sorted(terms, key=lambda i: int(i[4:])):
        base = 'idx-' + slug('-'.join(terms[old]))
        k = (where.get(old), base)
        used[k] = used.get(k, 0) + 1
        new[old] = base if used[k] == 1 else '%s-%d' % (base, used[k])
    # the contents: every page, and each page's sections of level 2
    toc_pages = []
    for name, title, sec in pages:
        subs = []
        for m in re.finditer(r'<section id="([^"]*)"\s+class="level2[^"]*"[^>]*>\s*(<h2[^>]*>.*?</h2>)',
                             sec, re.S):
            num = re.search(r'<h2 data-number="([^"]*)"', m.group(2))
            subs.append((new.get(m.group(1), m.group(1)),
                         ((num.group(1) + ' ') if num else '')
                         + _text(_heading(m.group(2), 'h2'))))
        toc_pages.append((name, title, subs))

    def toc(here):
        li = []
        for name, title, subs in toc_pages:
            inner = ''
            if name == here and subs:
                inner = '<ol>%s</ol>' % ''.join(
                    '<li><a href="#%s">%s</a></li>' % (a, html.escape(t)) for a, t in subs)
            li.append('<li%s><a href="%s.html">%s</a>%s</li>'
                      % (' class="here"' if name == here else '', name,
                         html.escape(title), inner))
        return '<ol class="contents">%s</ol>' % '\n'.join(li)

    def relink(sec, here):
        def href(m):
            old = m.group(1)
            tgt = new.get(old, old)
            page = where.get(old)
            if page is None or page == here:
                return 'href="#%s"' % tgt
            return 'href="%s.html#%s"' % (page, tgt)
        sec = re.sub(r'href="#([^"]*)"', href, sec)
        # (an index anchor that no entry links to goes: its name would be
        # a count through the book)
        sec = re.sub(r'<span\s+id="(idx-[0-9]+)"></span>',
                     lambda m: m.group(0) if m.group(1) in new else '', sec)
        sec = _ID.sub(lambda m: 'id="%s"' % new.get(m.group(1), m.group(1)), sec)
        sec = re.sub(r'(<img [^>]*\balt=")([^"]*)"',
                     lambda m: m.group(1) + alt_text(m.group(2)) + '"', sec)
        sec = re.sub(r'<table([^>]*)>\s*<caption>(.*?)</caption>',
                     r'<p class="table-caption">\2</p>\n<table\1>', sec, flags=re.S)
        sec = re.sub(r'(<table\b.*?</table>)', r'<div class="table-box">\1</div>',
                     sec, flags=re.S)
        # (a section's heading links to itself: a reader copies its link)
        sec = re.sub(r'(<section id="([^"]*)"\s+class="level[2-6][^"]*"[^>]*>\s*<h[2-6][^>]*>.*?)(</h[2-6]>)',
                     lambda m: m.group(1) + _PERMALINK % m.group(2) + m.group(3), sec, flags=re.S)
        # (a figure links to itself: full size, on a phone too)
        return re.sub(r'(<img src=")([^"/]*)("[^>]*>)', r'<a class="fig" href="fig/\2">\1fig/\2\3</a>',
                      sec)

    if os.path.isdir(out):
        # (the pages of an earlier build, not its source)
        for f in os.listdir(out):
            p = os.path.join(out, f)
            if (f.endswith('.html') and os.path.abspath(p) != os.path.abspath(src)) \
                    or f in ('search-index.js', 'search.js', 'fig'):
                shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    os.makedirs(os.path.join(out, 'fig'), exist_ok=True)
    for m in re.finditer(r'<img src="([^"/]*)"', body):
        f = os.path.join(figs, m.group(1))
        if not os.path.exists(f):
            raise SiteError('figure %s is missing' % f)
        shutil.copyfile(f, os.path.join(out, 'fig', m.group(1)))
    with open(css, encoding='utf-8') as f:
        style = f.read()
    with open(os.path.join(out, 'book.css'), 'w', encoding='utf-8') as f:
        f.write(style + _CSS)

    def write(name, title, content, prev=None, nxt=None, scripts='', boxid='q-side'):
        nav = '<nav class="pages"><span>%s</span><span>%s</span></nav>' % (
            '&larr; <a href="%s.html">%s</a>' % (prev[0], html.escape(prev[1])) if prev else '',
            '<a href="%s.html">%s</a> &rarr;' % (nxt[0], html.escape(nxt[1])) if nxt else '')
        page = _PAGE % {'title': html.escape(book if title == book else
                                             '%s: %s' % (title, book)),
                        'book': book, 'toc': toc(name), 'pages': nav,
                        'content': content, 'scripts': scripts, 'boxid': boxid}
        with open(os.path.join(out, name + '.html'), 'w', encoding='utf-8') as f:
            f.write(page)

    index = []
    for k, (name, title, sec) in enumerate(pages):
        prev = (pages[k - 1][0], pages[k - 1][1]) if k else None
        nxt = (pages[k + 1][0], pages[k + 1][1]) if k + 1 < len(pages) else None
        content = relink(sec, name)
        write(name, title, content, prev, nxt)
        # the search index: the page's opening, then each of its sections
        parts = re.split(r'(?=<section id="[^"]*"\s+class="level[23])', content)
        for part in parts:
            part = re.sub(re.escape(_PERMALINK).replace(re.escape('%s'), '[^"]*'), '', part)
            m = re.match(r'<section id="([^"]*)"\s+class="level([23])[^"]*"[^>]*>\s*(<h[23][^>]*>.*?</h[23]>)',
                         part, re.S)
            anchor = m.group(1) if m else re.match(r'<section id="([^"]*)"', content).group(1)
            head = _heading(m.group(3), 'h' + m.group(2)) if m else title
            index.append({'p': name + '.html', 'a': anchor,
                          't': _text(head), 'c': title,
                          'x': _plain(part)})
    cover = (header.group(0) if header else '<h1>%s</h1>' % book) + \
        '<h2>Contents</h2>' + toc(None)
    write('index', book, cover, None, (pages[0][0], pages[0][1]))
    with open(os.path.join(out, 'search-index.js'), 'w', encoding='utf-8') as f:
        f.write('var SEARCH_INDEX = ' + json.dumps(index, ensure_ascii=False) + ';\n')
    with open(os.path.join(out, 'search.js'), 'w', encoding='utf-8') as f:
        f.write(_SEARCH_JS)
    search = ('<h1>Search</h1><form action="search.html"><input id="q" name="q" '
              'size="40" /> <button>Search</button></form><p id="count"></p>'
              '<ol id="results"></ol>')
    write('search', 'Search', search, None, None,
          '<script src="search-index.js"></script>\n<script src="search.js"></script>\n')
    return ['index.html', 'search.html'] + [n + '.html' for n in names]
