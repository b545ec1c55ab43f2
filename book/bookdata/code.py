"""What ties a measurement to the code it measured.

hash(n): the hash of chapter n's code: its tangled files (its other
roots, its code chN.cu, its microbenchmark's source and, with a
microbenchmark, the library's files it tangles) and those of the
earlier chapters its programs link (fields links, then micro_links, each
chapter's files in turn, a file met twice read twice), in that order;
no build is needed.  hash(n, answers=True): the same files followed by
its worked answers (answers/chN-exE.diff and .run), the hash their rows
carry.  fresh_results(): the results folder the book shows when none is
named.  gpu_dir(): the folder named after this machine's GPU.
"""
import hashlib
import os
import subprocess

from . import answers, csvio, manifest
from .awk import slug

ROOT = manifest.ROOT


def _own_files(m):
    return (['tangle/' + r for r in m.words('roots')]
            + ['tangle/ch%d.cu' % m.chapter])


def files(n, root=ROOT):
    m = manifest.load(n, root)
    out = _own_files(m) + ['tangle/%s.cu' % p for p in m.words('micro')]
    # a microbenchmark may time the library, which the chapter tangles
    if m.words('micro'):
        out += ['tangle/' + f for f in m.words('library')]
    for o in m.words('links') + m.words('micro_links'):
        out += _own_files(manifest.load(int(o[2:]) if o.startswith('ch')
                                        else int(o), root))
    return out




def hash(n, with_answers=False, root=ROOT):
    """The code hash (16 hex digits); with_answers: None when the
    chapter has no answers."""
    fs = files(n, root)
    if with_answers:
        a = answers.paths(root, n)
        if not a:
            return None
        fs = fs + a
    h = hashlib.sha256()
    for f in fs:
        with open(os.path.join(root, f), 'rb') as fh:
            h.update(fh.read())
    return h.hexdigest()[:16]


def wanted(root=ROOT):
    """{file name: hash} that a fresh results folder must hold: chN.csv
    (and micro-chN.csv for a chapter with a microbenchmark) with the
    code's hash, the answers' files with the answers' hash."""
    want = {}
    af = {}
    for n, f in answers.files(root):
        af.setdefault(int(n), []).append(f)
    for m in manifest.load_all(root):
        n = m.chapter
        h = hash(n, root=root)
        want['ch%d.csv' % n] = h
        if m['micro']:
            want['micro-ch%d.csv' % n] = h
        if n in af:
            ha = hash(n, True, root)
            for f in af[n]:
                want[f] = ha
    return want


def stale_files(d, want):
    """The files of folder d that are missing or hold rows of other code
    (a file without rows is stale)."""
    bad = []
    for f, h in want.items():
        p = os.path.join(d, f)
        if not os.path.isfile(p):
            bad.append(f + ' (missing)')
            continue
        rows = csvio.read(p).rows
        if not rows or any(r['code_hash'] != h for r in rows):
            bad.append(f)
    return bad


def fresh_results(root=ROOT):
    """The first results/<gpu> (in name order) whose measurements all
    belong to the code in tangle/; if none is, the first; "" if there
    is no folder."""
    base = os.path.join(root, 'results')
    dirs = sorted(d for d in os.listdir(base)
                  if os.path.isdir(os.path.join(base, d))) \
        if os.path.isdir(base) else []
    if not dirs:
        return ''
    want = wanted(root)
    for d in dirs:
        if not stale_files(os.path.join(base, d), want):
            return 'results/' + d
    return 'results/' + dirs[0]


def gpu_dir(chapters, root=ROOT):
    """results/<gpu> for this machine's GPU, as the first program of the
    chapters that runs here reports it; None if none runs."""
    for n in chapters:
        for p in manifest.load(n, root).words('programs'):
            exe = os.path.join(root, p)
            if not os.access(exe, os.X_OK):
                continue
            r = subprocess.run([exe, '-m', '1', '-n', '1', '-k', '1',
                                '--reps', '1', '--no-check', '--csv'],
                               capture_output=True, text=True, cwd=root)
            if r.returncode == 0:
                lines = r.stdout.splitlines()
                if len(lines) > 1:
                    row = dict(zip(csvio.split(lines[0]),
                                   csvio.split(lines[1])))
                    return 'results/' + slug(row.get('gpu', ''))
    return None


DEFAULT_BUDGET = 1200     # lines of tangled code a chapter may have
FILE_LIMIT = 1200         # lines one tangled .cu file may have


def budgets(root=ROOT):
    """[(chapter, lines of its own tangled code, its budget, [files over
    FILE_LIMIT])]: a chapter's own files are its roots, its code and its
    microbenchmark's source (not the manifest, which is data, nor the
    lab's stub, which is its code again)."""
    out = []
    for m in manifest.load_all(root):
        fs = _own_files(m) + ['tangle/%s.cu' % p for p in m.words('micro')]
        lines = {}
        for f in fs:
            with open(os.path.join(root, f), encoding='utf-8') as fh:
                lines[f] = fh.read().count('\n')
        budget = int(m['budget'] or DEFAULT_BUDGET)
        out.append((m.chapter, sum(lines.values()), budget,
                    [f for f, n in lines.items()
                     if f.endswith('.cu') and n > FILE_LIMIT]))
    return out
