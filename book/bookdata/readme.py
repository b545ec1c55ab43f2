"""The README's table of results, and a chapter's title as plain text."""
import os
import re

from . import csvio, manifest, runs
from .awk import fmt


def chapter_title(nw):
    """The balanced argument of the first \\chapter{...} of a .nw file,
    LaTeX markup dropped."""
    with open(nw, encoding='utf-8') as f:
        for line in f:
            m = re.search(r'\\chapter(\[[^]]*\])?\{', line)
            if not m:
                continue
            s, depth, i = line[m.end():].rstrip('\n'), 1, 0
            while i < len(s) and depth > 0:
                depth += (s[i] == '{') - (s[i] == '}')
                i += 1
            t = s[:i - 1] if depth == 0 else s[:i]
            t = re.sub(r'\\[a-zA-Z]*\{([^}]*)\}', r'\1', t)
            t = re.sub(r'[{}]', '', t).replace('~', ' ').replace('\\', '')
            return t
    return ''


# The cuBLAS a row is compared with, by the CSV's column baseline.
BASELINES = {'cublas': 'cuBLAS FP32', 'cublas_tf32': 'cuBLAS TF32',
             'cublas_bf16': 'cuBLAS BF16'}


def table(res, nws, root=manifest.ROOT):
    """Markdown: one row per chapter: its title, headline kernel, its
    TFLOP/s at 1024 and 4096 (m=n=k), % of its cuBLAS at 4096 and which
    cuBLAS that is, GPU."""
    out = ['| Ch. | Title | Kernel | TFLOP/s @1024 | TFLOP/s @4096 '
           '| % of cuBLAS @4096 | baseline | GPU |',
           '|---:|---|---|---:|---:|---:|---|---|']
    for nw in nws:
        n = os.path.basename(nw)[2:-3]
        title = chapter_title(os.path.join(root, nw))
        head = manifest.load(n, root)['headline']
        csv = os.path.join(root, res, 'ch%s.csv' % n) if res else ''
        if not csv or not os.path.isfile(csv) or not head:
            out.append('| %s | %s | %s | -- | -- | -- | -- | -- |'
                       % (n, title, '`%s`' % head if head else '--'))
            continue
        tf, pc, base, gpu = {}, {}, {}, ''
        for r in runs.merge(csvio.read(csv).rows):
            if r['kernel'] != head:
                continue
            gpu = r['gpu']
            if r['m'] == r['n'] == r['k']:
                tf[r['m']], pc[r['m']] = r['tflops'], r['pct_cublas']
                base[r['m']] = BASELINES.get(r['baseline'], r['baseline'])

        def cell(v, how=''):
            return '--' if v == '' else fmt(v, how)
        out.append('| %s | %s | `%s` | %s | %s | %s | %s | %s |' % (
            n, title, head, cell(tf.get('1024', '')), cell(tf.get('4096', '')),
            cell(pc.get('4096', ''), 'pct'), base.get('4096', '--'),
            gpu or '--'))
    return '\n'.join(out) + '\n'


def splice(readme_text, tab):
    """README.md's text with the table between its markers replaced."""
    out, skip = [], False
    for line in readme_text.split('\n'):
        if '<!-- results-table:begin -->' in line:
            out.append(line)
            out += tab.rstrip('\n').split('\n')
            skip = True
            continue
        if '<!-- results-table:end -->' in line:
            skip = False
        if not skip:
            out.append(line)
    return '\n'.join(out)
