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

from . import manifest

ROOT = manifest.ROOT
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


class KitError(Exception):
    pass


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
	rm -f $(OBJS) ch@N@
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
    rules = ''
    for o in ['ch%d' % n] + links:
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


def _readme(n, chunk, kernel, hours, needs, links):
    plain = chunk.replace('[[', '').replace(']]', '')
    earlier = (', and the code of chapters %s, which it calls'
               % ', '.join(l[2:] for l in links)) if links else ''
    return '''Lab {n}: {plain}

This folder is chapter {n}'s program with the lab's chunk left for you to
write, in {kernel} (ch{n}.cu: search for "Lab, chapter {n}"), the book's
harness{earlier}.  About {hours} hours; needs: {needs}.

    make && ./ch{n} --size 256,1111,4096

builds ./ch{n} from these files alone and runs every kernel of the
chapter's table, yours among them, at those sizes: each is checked
against a float64 product (a wrong one says WRONG and the program exits
1) and timed beside cuBLAS.  ./ch{n} --list names the kernels;
--kernel NAME runs one; -m M -n N -k K any shape (try the odd ones:
-m 33 -n 31 -k 65).  ./ch{n} --help says the rest.

Your grade comes from the book's grader, which compiles the lines
between the two marks of your ch{n}.cu, and only those, into the
chapter's program and checks them at every test shape, under
compute-sanitizer, and against the chapter's own kernel's speed: hand
in ch{n}.cu as it is.
'''.format(n=n, plain=plain, kernel=kernel, earlier=earlier,
           hours=hours, needs=needs)


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
    os.makedirs(out)
    texts = [stub]
    for f in ['%s.cu' % l for l in links] + ['harness.c', 'main.c']:
        p = os.path.join(tangle, f)
        if not os.path.exists(p):
            raise KitError('%s is missing (make tangle writes it)' % p)
        shutil.copyfile(p, os.path.join(out, f))
        with open(p) as fh:
            texts.append(fh.read())
    for h in _headers(texts, tangle):
        shutil.copyfile(os.path.join(tangle, h), os.path.join(out, h))
    with open(os.path.join(out, 'ch%d.cu' % n), 'w') as f:
        f.write(stub)
    with open(os.path.join(out, 'Makefile'), 'w') as f:
        f.write(_makefile(n, links, m['needs'] or 'sm_75', m['libs']))
    with open(os.path.join(out, 'README'), 'w') as f:
        f.write(_readme(n, m['lab'], m['lab_kernel'], m['lab_hours'],
                        m['lab_needs'], links))
    return sorted(os.listdir(out))
