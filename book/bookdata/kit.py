"""A lab's kit: what a student receives for lab N, and nothing of its answer.

write(n, out) fills folder out with lab n's stub (chN.cu, as make labN
writes it: book/tools/labstub), the harness (harness.h, harness.c,
main.c), the headers the stub and the linked code include, the code of
the earlier chapters the chapter's program links (its manifest's field
links: their answers are out by the time lab n is handed out, in the
release order the preface gives), a Makefile that builds ./chN from
them alone, and README.  Chapter n's own code (tangle/chN.cu) is not in
it, nor any later chapter's: the stub holds the chapter's program with
the lab's chunk left out.  Grading needs the chapter's own code, so it
stays with the book: the student hands in chN.cu, and the grader runs
make labN and ./labN on it.
"""
import os
import re
import shutil
import subprocess

from . import labcut, manifest

ROOT = manifest.ROOT
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


class KitError(Exception):
    pass


def _stub_defines(stub):
    """The names that the stub's marked lines #define (the names the
    grader's splice lets the lab's lines define): the lab writes them."""
    with open(stub) as f:
        lines = f.read().split('\n')
    return {name for _, body in labcut.regions(lines, stub).values()
            for _, d, name in labcut.directives(body) if d == 'define'}


def _without_defines(text, names, n):
    """(TEXT without its #define of each of NAMES, continued lines too:
    the lab writes them; {name: the #define's lines cut}).  TEXT is a
    header of the lab's own chapter."""
    out, cut, skip = [], {}, None
    for line in text.split('\n'):
        m = re.match(r'\s*#\s*define\s+([A-Za-z_]\w*)', line)
        if skip is None and m and m.group(1) in names:
            skip = m.group(1)
            out.append('/* %s: lab %d writes it (ch%d.cu) */' % (skip, n, n))
        if skip is not None:
            cut.setdefault(skip, []).append(line)
            if not line.rstrip().endswith('\\'):
                skip = None
            continue
        out.append(line)
    return '\n'.join(out), cut


def lab_headers(n, tangle):
    """Chapter N's own headers as a lab is compiled against them (the
    kit's), so that the grader compiles no answer of the lab's from a
    header (tangle/ch7.h's swizzles, for lab 7): ({name: text}, {name of
    a macro: its #define's lines, cut})."""
    names = _stub_defines(os.path.join(tangle, 'ch%d-lab.cu' % n))
    texts, cut = {}, {}
    for h in manifest.load(n).words('roots'):
        if h.endswith('.h'):
            with open(os.path.join(tangle, h)) as f:
                texts[h], mine = _without_defines(f.read(), names, n)
            cut.update(mine)
    return texts, cut


def answer_defines(n, answer_lines, tangle):
    """ANSWER_LINES (the stub filled with the chapter's own code, as
    labcut.answer writes it) with, after each region's first mark, the
    #defines that lab_headers cuts from the chapter's headers and the
    region does not say itself: the chapter's answer, complete, as a lab
    compiled without them must be."""
    _, cut = lab_headers(n, tangle)
    said = {name for _, body in labcut.regions(answer_lines, 'answer').values()
            for _, d, name in labcut.directives(body) if d == 'define'}
    extra = [l for name in sorted(cut) if name not in said for l in cut[name]]
    if not extra:
        return answer_lines
    out = []
    for l in answer_lines:
        out.append(l)
        if labcut._tag(l, labcut.BEGIN) is not None:
            out += extra
    return out


def _headers(texts, tangle):
    """The headers of tangle/ that texts include, and theirs in turn."""
    seen, todo = [], list(texts)
    while todo:
        for h in _INCLUDE.findall(todo.pop()):
            p = os.path.join(tangle, h)
            if h not in seen and os.path.exists(p):
                seen.append(h)
                with open(p) as f:
                    todo.append(f.read())
    return sorted(seen)


_DETECT = r"""# the GPU here (nvidia-smi), or sm_90
GPU_ARCH := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader \
              2>/dev/null | sed -n '1s/^\([0-9]*\)\.\([0-9]\)$$/sm_\1\2/p')
ARCH ?= $(or $(GPU_ARCH),sm_90)
"""

_MAKEFILE = r"""# Lab @N@'s kit: chapter @N@'s program with your code in ch@N@.cu.
#   make          builds ./ch@N@ (needs nvcc and cuBLAS)
#   make clean    removes what make built
NVCC ?= nvcc
CC ?= gcc
@ARCH@CUDA_INC := $(abspath $(dir $(shell command -v $(NVCC)))../include)
GENCODE = @GENCODE@
NVCCFLAGS = $(GENCODE) -O3 -std=c++17 \
  -Xcompiler -Wall,-Wextra,-Wno-missing-field-initializers \
  -DBOOK_TARGET='"$(TARGET)"'
CFLAGS = -std=c11 -O2 -Wall -Wextra -I$(CUDA_INC)
HEADERS = $(wildcard *.h)
OBJS = @OBJS@

ch@N@: $(OBJS)
	$(NVCC) $(GENCODE) -o $@ $(OBJS) @LIBS@
	@echo "make: built ./ch@N@: ./ch@N@ --list names its kernels"

@RULES@harness.o: harness.c harness.h
	$(CC) $(CFLAGS) -c harness.c -o $@
main.o: main.c harness.h
	$(CC) $(CFLAGS) -DPROGRAM=ch@N@ -DBOOK_CHAPTER=@N@ -DBOOK_TARGET='"$(TARGET)"' \
	  -c main.c -o $@

# (a GPU the chapter's instructions do not run on: say so, build nothing)
$(OBJS): | arch-ok
arch-ok:
	@@OK@ || { \
	  echo "make: lab @N@ needs a GPU of @WANT@; ARCH is $(ARCH)" >&2; exit 2; }
clean:
	rm -f $(OBJS) ch@N@ lab-ch@N@.cu
.PHONY: arch-ok clean
"""


def _makefile(n, links, needs, libs):
    """The kit's Makefile.  A chapter that needs sm_XY builds for ARCH
    (the GPU here) if it is XY or newer; one that needs sm_XYa (the
    instructions of that GPU alone) for exactly sm_XYa, where ARCH is
    sm_XY or sm_XYa, as the book's own Makefile does."""
    num = needs[3:].rstrip('a')
    if needs.endswith('a'):
        arch = ('# chapter %d uses instructions of %s alone\n'
                'ARCH ?= %s\nTARGET := $(if $(filter sm_%s %s,$(ARCH)),%s)\n'
                % (n, needs, needs, num, needs, needs))
        ok = '[ -n "$(TARGET)" ]'
        gencode = '-gencode=arch=compute_%s,code=%s' % (needs[3:], needs)
        want = '%s (ARCH sm_%s or %s)' % (needs, num, needs)
    else:
        arch = _DETECT + '# (sm_90a: sm_90, which runs there)\nTARGET := $(ARCH:a=)\n'
        ok = ("v=$$(echo $(TARGET) | sed -n 's/^sm_\\([0-9]*\\)$$/\\1/p'); \\\n"
              '\t  [ -n "$$v" ] && [ "$$v" -ge %s ]' % num)
        gencode = ('-gencode=arch=compute_$(subst sm_,,$(TARGET)),code=$(TARGET) \\\n'
                   '  -gencode=arch=compute_$(subst sm_,,$(TARGET)),'
                   'code=compute_$(subst sm_,,$(TARGET))')
        want = '%s or newer' % needs
    rules = ('ch%d.o: ch%d.cu stub/ch%d.cu splice.py $(HEADERS)\n'
             '\tpython3 splice.py ch%d.cu stub/ch%d.cu lab-ch%d.cu\n'
             '\t$(NVCC) $(NVCCFLAGS) -DBOOK_CHAPTER=%d -c lab-ch%d.cu -o $@\n'
             % ((n,) * 8))
    for o in links:
        rules += ('%s.o: %s.cu $(HEADERS)\n'
                  '\t$(NVCC) $(NVCCFLAGS) -DBOOK_CHAPTER=%s -c %s.cu -o $@\n'
                  % (o, o, o[2:], o))
    objs = ' '.join(['ch%d.o' % n] + ['%s.o' % l for l in links]
                    + ['harness.o', 'main.o'])
    out = _MAKEFILE
    for k, v in (('@ARCH@', arch), ('@GENCODE@', gencode), ('@OBJS@', objs),
                 ('@LIBS@', libs), ('@RULES@', rules), ('@OK@', ok),
                 ('@WANT@', want), ('@N@', str(n))):
        out = out.replace(k, v)
    return out


def _needs(m):
    """The GPU the lab needs: the chapter's (field needs), or a newer
    one that its field lab_needs names (lab 9's cp.async: sm_80, where
    the chapter itself runs from sm_75 on, without the lab's kernel)."""
    best = m['needs'] or 'sm_75'
    if best.endswith('a'):
        return best
    for s in re.findall(r'sm_[0-9]+a?', m['lab_needs']):
        if s.endswith('a'):
            return s
        if int(s[3:]) > int(best[3:]):
            best = s
    return best


def _readme(n, m, links):
    """The kit's README: what is in it, how to build and check, how it
    is graded (the lab's speed from its manifest's field lab_speed)."""
    import textwrap
    bare = lambda t: t.replace('[[', '').replace(']]', '').replace('$', '')
    plain, needs = bare(m['lab']), bare(m['lab_needs'])
    hours = m['lab_hours']
    unit = 'hour' if hours == '1' else 'hours'
    earlier = (', and the code of chapters %s, which it calls'
               % ', '.join(l[2:] for l in links)) if links else ''
    speed = m['lab_speed']
    bar = ('; it passes at a speed of at least %d %% of the chapter\'s own '
           'kernel, timed in the same grading' % round(100 * float(speed))) \
        if speed else ''
    target = _needs(m)
    also = ('' if not m['lab_also'] else
            ' The stub also leaves out "%s", which would give the lab away and '
            'which the lab does not ask for: the kernels that use it stay '
            'WRONG here, and the grader checks %s alone.'
            % (bare(m['lab_also']), m['lab_kernel']))
    arch = ('make builds for %s: the chapter uses instructions that only '
            'that GPU has.' % target if target.endswith('a') else
            'make finds your GPU with nvidia-smi (sm_90 where it cannot); make '
            'ARCH=sm_86 builds for another (%s or newer).' % target)
    para = lambda t: textwrap.fill(' '.join(t.split()), 72)
    return '\n\n'.join([
        'Lab %d: %s' % (n, plain),
        para('This folder is chapter %d\'s program with the lab\'s chunk left '
             'for you to write, in %s (ch%d.cu: search for "Lab, chapter %d"; '
             'write between the two marks), the book\'s harness%s. About %s %s; '
             'needs: %s.' % (n, m['lab_kernel'], n, n, earlier, hours, unit,
                             needs)),
        '    make && ./ch%d --size 256,1111,4096' % n,
        para('builds ./ch%d and runs every kernel of the chapter\'s table, yours '
             'among them, at those sizes: each is checked against a float64 '
             'product (a wrong one says WRONG and the program exits 1) and timed '
             'beside cuBLAS. ./ch%d --list names the kernels; --kernel NAME runs '
             'one; -m M -n N -k K any shape (try odd ones: -m 33 -n 31 -k 65); '
             './ch%d --help says the rest. %s' % (n, n, n, arch)),
        para('make compiles what the grader will: the lines between the two '
             'marks of ch%d.cu, and only those, put into the chapter\'s program '
             'as the book has it (stub/ch%d.cu, by splice.py, the grader\'s own '
             'rules), in every place the chunk appears. Edits outside the marks '
             'count for nothing.%s' % (n, n, also)),
        para('Your grade comes from the book\'s grader, which checks those lines '
             'at every test shape the book uses (small, prime, thin and padded '
             'ones), under compute-sanitizer%s. Hand in ch%d.cu as it is.'
             % (bar, n)),
    ]) + '\n'


def _splice_py(root):
    """splice.py for the kit: the grader's own splice (labcut.splice and
    what it calls, copied from book/bookdata/labcut.py as it is), so
    that the kit compiles what the grader will: the lines between the
    marks, put into the chapter's stub, every place of the chunk."""
    with open(os.path.join(root, 'book', 'bookdata', 'labcut.py')) as f:
        src = f.read()
    body = src[src.index("BEGIN = ': your code begins here"):src.index('\ndef answer(')]
    return ('#!/usr/bin/env python3\n'
            '"""splice.py STUDENT STUB OUT: the lines between the marks of\n'
            'STUDENT put into STUB, every place of the chunk, as the book\'s\n'
            'grader does (the book\'s book/bookdata/labcut.py); one line and\n'
            'exit 2 where the lines break its rules."""\n'
            'import re\nimport sys\n\n' + body.rstrip() + '\n\n\n'
            'def main(argv):\n'
            '    if len(argv) != 4:\n'
            '        sys.stderr.write("usage: splice.py STUDENT STUB OUT\\n")\n'
            '        return 2\n'
            '    files = []\n'
            '    for f in argv[1:3]:\n'
            '        with open(f, encoding="utf-8", errors="replace") as fh:\n'
            '            files.append(fh.read().split("\\n"))\n'
            '    try:\n'
            '        out = splice(files[0], files[1], argv[1], argv[2])\n'
            '    except SpliceError as e:\n'
            '        sys.stderr.write("splice.py: %s\\n" % e)\n'
            '        return 2\n'
            '    with open(argv[3], "w", encoding="utf-8") as fh:\n'
            '        fh.write("\\n".join(out))\n'
            '    return 0\n\n\n'
            'if __name__ == "__main__":\n'
            '    sys.exit(main(sys.argv))\n')


def write(n, out, root=ROOT):
    """Lab n's kit into folder out (made; emptied first)."""
    try:
        m = manifest.load(n, root)
    except manifest.ManifestError as e:
        raise KitError(str(e))
    if not m['lab']:
        raise KitError('chapter %d has no lab (its manifest names no lab chunk)' % n)
    tangle = os.path.join(root, 'tangle')
    links = m.words('links')
    env = dict(os.environ, LABSTUB_KIT='1')
    r = subprocess.run([os.path.join(root, 'book', 'tools', 'labstub'), str(n)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env)
    if r.returncode != 0:
        raise KitError(r.stderr.strip() or 'labstub %d failed' % n)
    stub = r.stdout
    if os.path.isdir(out):
        shutil.rmtree(out)
    elif os.path.exists(out):
        raise KitError('%s is a file, not a folder' % out)
    os.makedirs(out)
    texts = [stub]
    for f in ['%s.cu' % l for l in links] + ['harness.c', 'main.c']:
        p = os.path.join(tangle, f)
        if not os.path.exists(p):
            raise KitError('%s is missing (make tangle writes it)' % p)
        shutil.copyfile(p, os.path.join(out, f))
        with open(p) as fh:
            texts.append(fh.read())
    own = set(m.words('roots'))
    lab_defines = _stub_defines(os.path.join(tangle, 'ch%d-lab.cu' % n))
    for h in _headers(texts, tangle):
        with open(os.path.join(tangle, h)) as f:
            text = f.read()
        if h in own:
            text = _without_defines(text, lab_defines, n)[0]
        with open(os.path.join(out, h), 'w') as f:
            f.write(text)
    with open(os.path.join(out, 'ch%d.cu' % n), 'w') as f:
        f.write(stub)
    os.makedirs(os.path.join(out, 'stub'))
    shutil.copyfile(os.path.join(tangle, 'ch%d-lab.cu' % n),
                    os.path.join(out, 'stub', 'ch%d.cu' % n))
    with open(os.path.join(out, 'splice.py'), 'w') as f:
        f.write(_splice_py(root))
    with open(os.path.join(out, 'Makefile'), 'w') as f:
        f.write(_makefile(n, links, _needs(m), m['libs']))
    with open(os.path.join(out, 'README'), 'w') as f:
        f.write(_readme(n, m, links))
    return sorted(os.listdir(out))
