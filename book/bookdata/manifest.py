"""The chapters' manifests: their schema, their one reader.

Each chapter states how it is built in a code chunk <<chN.mk>>, tangled
to tangle/chN.mk: lines NAME := VALUE in Make's syntax, a backslash at
the end of a line continuing it.  FIELDS below is the schema: every
field a manifest may set, its kind and what it means (book/DATA.md,
the contributor's guide, prints the same table).  Formulas are the
lines model.NAME, verdict.NAME and compare.NAME (bookdata.models).
"""
import os
import re

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))

# kind: "words" a list separated by blanks, "text" free text (LaTeX),
# "sm" a GPU target sm_XY or sm_XYa, "number", "ops" KERNEL:OPCODE words,
# "runs" a program and its arguments, "sizes" SIZE:KERNEL words.
FIELDS = {
    'programs': ('words', 'the programs the chapter builds; its code '
                 '<<chN.cu>> holds a table of kernels P_program for each '
                 'program P, which main.c runs'),
    'roots': ('words', 'other files it tangles: its header chN.h, which '
              'declares what later chapters use of its code (chapter 0: '
              'the harness and main.c)'),
    'library': ('words', 'the files it tangles for the library (make '
                'lib): its public header and their sources; not part of '
                'the code its measurements name'),
    'links': ('words', 'the earlier chapters whose compiled code its '
              'programs link (ch5 for build/ch5.o)'),
    'common': ('words', 'C files, without .c, compiled once and linked '
               'into every program'),
    'needs': ('sm', 'the GPU it needs: sm_75 means that GPU or newer, '
              'compiled for ARCH; sm_90a means exactly that GPU'),
    'best_target': ('sm', 'where ARCH is this GPU (sm_90a: ARCH sm_90), '
                    'the target the chapter is compiled for instead of '
                    'ARCH, for that GPU\'s own instructions'),
    'flags': ('text', 'extra compiler flags'),
    'libs': ('text', 'the libraries to link (-lcublas)'),
    'headline': ('word', 'the kernel that represents the chapter in the '
                 'charts, the README and the next chapter\'s comparison'),
    'sass': ('ops', 'instructions its machine code must contain, as '
             'kernel:OPCODE or kernel:OPCODE|OTHER; the tests check them'),
    'lab': ('text', 'the chunk a student writes in lab mode (make labN)'),
    'lab_kernel': ('word', 'the __global__ function that holds the lab\'s '
                   'chunk'),
    'lab_entries': ('words', 'the kernel entries that run the lab\'s '
                    'kernel, where not every entry of lab_kernel'),
    'lab_reach': ('word', 'which shapes reach the lab\'s kernel: "aligned" '
                  '(rows a multiple of 16 bytes), or "aligned-bf16" (a '
                  'BF16 entry\'s rows a multiple of 16 bytes, every shape '
                  'for the other entries)'),
    'lab_race_at': ('words', 'the shapes MxNxK where the lab\'s grader runs '
                    'racecheck and synccheck: shapes that reach the lab\'s '
                    'kernel and use every stage of its pipeline at least '
                    'twice (default: the smallest sanitizer shape that '
                    'reaches it)'),
    'lab_race_args': ('text', 'arguments the lab\'s grader adds to its '
                      'racecheck and synccheck runs at lab_race_at, where '
                      'the plan needs them to reach the lab\'s kernel '
                      '(--sms 1: fewer slices of K)'),
    'sanitize_at': ('words', 'more shapes MxNxK (MxNxK:0 unpadded) where '
                    'the tests run the chapter\'s programs under every '
                    'sanitizer: shapes at which each stage of its '
                    'pipelines is used at least twice, which the common '
                    'sanitizer shapes do not reach'),
    'lab_speed': ('number', 'for a lab whose idea is speed: the least rate '
                  'of the student\'s kernel, as a fraction of the '
                  'chapter\'s own kernel timed in the same grading; '
                  '1 - lab_speed must hold 3 times that kernel\'s spread '
                  'between runs at 4096^3 (the tests check it against '
                  'the results)'),
    'lab_also': ('words', 'other chunks the lab\'s file leaves to write'),
    'lab_hours': ('number', 'the hours a lab takes in class'),
    'lab_needs': ('text', 'what a lab needs first (labs, C++, a GPU)'),
    'lab_none': ('text', 'why the chapter has no lab'),
    'extra_runs': ('text', 'arguments of another run of each program, '
                   'whose rows join the chapter\'s results'),
    'ceilings': ('text', 'chapter 0 alone: the arguments of the run that '
                 'measures the GPU\'s ceilings (ceilings.csv)'),
    'emulated': ('words', 'kernels of its first program that choose '
                 'their tiles by the GPU: make bench also runs them as '
                 'on smaller GPUs (emulated-chN.csv)'),
    'may_spill': ('words', 'kernel entries that may spill when built for '
                  'a GPU other than the book\'s'),
    'spills': ('words', 'kernel entries that spill on purpose, or functions '
               'as ptxas names them without spaces; no other may spill'),
    'sweep': ('runs', 'a program that tries many configurations and its '
              'arguments (sweep-chN.csv)'),
    'micro': ('words', 'a program outside the harness that measures an '
              'instruction\'s rate or a link (micro-chN.csv)'),
    'micro_links': ('words', 'the chapters whose code micro links'),
    'events': ('runs', 'a program and its arguments that print a trace '
               'of timed steps (events-chN.csv, drawn as a timeline)'),
    'profile_at': ('sizes', 'more profiles, SIZE:ENTRY[:FUNCTION] (SIZE '
                   'a cube or MxNxK; FUNCTION the __global__ function, or '
                   'cublas): make profile reads that entry\'s counters at '
                   'that size too'),
    'suite': ('word', 'the shape suite (a CSV of family,m,n,k,origin) '
              'whose shapes make bench measures (suite-chN.csv)'),
    'validation': ('number', 'how many shapes make bench draws fresh for '
                   'the validation set (validation-chN.csv), on which the '
                   'rules tuned on the suite are graded'),
    'slide_figure': ('word', 'the figure of the chapter\'s slides'),
    'slide_chunk': ('text', 'the chunk its slides show'),
    'slide_idea': ('text', 'what the measurement said: the points of the '
                   'slide after the lab, separated by |, with {{key}} for a '
                   'measured number'),
    'slide_intro': ('text', 'the idea, before anything is measured: the '
                    'points of the lecture\'s first slide, separated by |'),
    'slide_bound': ('text', 'the derivation: the bound or the arithmetic '
                    'intensity that predicts the speed, points separated '
                    'by |, with {{key}} for a measured ceiling'),
    'slide_question': ('text', 'the prediction put to the class before the '
                       'measurement, with {{key}} where it needs a number'),
    'slide_notes': ('text', 'the lecturer\'s notes for the derivation and '
                    'the question (in build/slides/chN-notes.pdf)'),
    'budget': ('number', 'how many lines of tangled code the chapter may '
               'have (its own files in tangle/); the tests hold it to '
               'that'),
}
FORMULA = re.compile(r'^(model|verdict|compare)\.[A-Za-z0-9_]+$')
_LINE = re.compile(r'^([A-Za-z_][A-Za-z0-9_.]*)[ \t]*:=')
SM = re.compile(r'^sm_[0-9]+a?$')


class ManifestError(Exception):
    pass


def parse(path):
    """[(name, value)] of a manifest file, in order, values with their
    runs of blanks made one blank (as make reads them)."""
    out = []
    line = ''
    with open(path, encoding='utf-8') as f:
        for raw in f.read().split('\n'):
            line += raw
            if line.endswith('\\'):
                line = line[:-1] + ' '
                continue
            m = _LINE.match(line)
            if m:
                name = m.group(1).rstrip(' \t')
                v = re.sub(r'[ \t]+', ' ', line[m.end():]).strip(' ')
                out.append((name, v))
            line = ''
    return out


def chapters(root=ROOT):
    """The chapters that have a manifest, in order."""
    t = os.path.join(root, 'tangle')
    ns = [int(m.group(1)) for m in
          (re.match(r'^ch([0-9]+)\.mk$', f) for f in os.listdir(t)) if m]
    return sorted(ns)


class Manifest:
    """One chapter's manifest: m['programs'] (text, "" if unset),
    m.words('programs'), m.formulas [(name, text)] in order."""

    def __init__(self, chapter, pairs, path=''):
        self.chapter, self.path = chapter, path
        self.fields, self.formulas = {}, []
        for name, v in pairs:
            if FORMULA.match(name):
                self.formulas.append((name, v))
            else:
                self.fields[name] = v

    def __getitem__(self, name):
        return self.fields.get(name, '')

    def words(self, name):
        return self[name].split()

    def errors(self):
        """What is wrong with it, one line each."""
        errs = []
        for name, v in self.fields.items():
            if name not in FIELDS:
                errs.append('%s: unknown field %s (book/DATA.md lists the '
                            'fields)' % (self.path, name))
                continue
            kind = FIELDS[name][0]
            if kind == 'sm' and not SM.match(v):
                errs.append('%s: needs := %s: want sm_XY or sm_XYa'
                            % (self.path, v))
            if kind == 'number' and not re.match(r'^[0-9]+(\.[0-9]+)?$', v):
                errs.append('%s: %s := %s: want a number'
                            % (self.path, name, v))
            if kind == 'word' and len(v.split()) > 1:
                errs.append('%s: %s := %s: want one word'
                            % (self.path, name, v))
            if kind == 'ops':
                for w in v.split():
                    if ':' not in w:
                        errs.append('%s: sass: %s: want kernel:OPCODE'
                                    % (self.path, w))
        for name in ('programs', 'needs'):
            if not self[name]:
                errs.append('%s: no %s' % (self.path, name))
        return errs


_cache = {}


def load(chapter, root=ROOT):
    key = (root, int(chapter))
    if key not in _cache:
        path = os.path.join(root, 'tangle', 'ch%d.mk' % int(chapter))
        if not os.path.exists(path):
            raise ManifestError('chapter %s has no manifest' % chapter)
        _cache[key] = Manifest(int(chapter), parse(path),
                               os.path.relpath(path, root))
    return _cache[key]


def load_all(root=ROOT):
    return [load(n, root) for n in chapters(root)]


def tsv_rows(root=ROOT):
    """N, NAME, VALUE for every line of every manifest, in order (the
    table build/manifest.tsv holds)."""
    for n in chapters(root):
        path = os.path.join(root, 'tangle', 'ch%d.mk' % n)
        for name, v in parse(path):
            yield str(n), name, v


def read_tsv(path):
    """build/manifest.tsv as MAN[(n, field)] (the last line wins), the
    way the tools read it, with ARCH and BUILDABLE under chapter ""."""
    man = {}
    with open(path, encoding='utf-8') as f:
        for line in f.read().split('\n'):
            if not line:
                continue
            p = line.split('\t')
            while len(p) < 3:
                p.append('')
            if len(p) == 2 or p[0] in ('ARCH', 'BUILDABLE'):
                man[('', p[0])] = p[1]
            else:
                man[(p[0], p[1])] = p[2]
    return man


def tsv_lines(path):
    """(N, NAME, VALUE) of every chapter's line of build/manifest.tsv, in
    order."""
    with open(path, encoding='utf-8') as f:
        for line in f.read().split('\n'):
            p = line.split('\t')
            if len(p) >= 3:
                yield p[0], p[1], '\t'.join(p[2:])


def appendices(chapters, root=ROOT):
    """The appendix files of the chapters, in the order they are woven:
    for each chapter M, its chapters/chM-NAME.nw and the files
    chapters/chN-atM-NAME.nw (code of an earlier chapter N that M
    explains), in the order of NAME."""
    files = sorted(os.listdir(os.path.join(root, 'chapters')))
    out = []
    for c in chapters:
        mine = []
        for f in files:
            m = re.match(r'^ch([0-9]+)-(at([0-9]+)-)?(.+)\.nw$', f)
            if not m:
                continue
            at = int(m.group(3)) if m.group(2) else int(m.group(1))
            if at == int(c):
                mine.append((m.group(4), f))
        out += ['chapters/' + f for _, f in sorted(mine)]
    return out


def nw_upto(n, root=ROOT):
    """The noweb files chapter n is tangled from: chapters/chC.nw and its
    appendices chapters/chC-NAME.nw for every chapter C up to n."""
    files = sorted(os.listdir(os.path.join(root, 'chapters')))
    main, apps = {}, {}
    for f in files:
        m = re.match(r'^ch([0-9]+)(-.*)?\.nw$', f)
        if not m:
            continue
        c = int(m.group(1))
        if m.group(2):
            apps.setdefault(c, []).append('chapters/' + f)
        else:
            main[c] = 'chapters/' + f
    out = []
    for c in sorted(set(main) | set(apps)):
        if c not in main:
            continue
        out += [main[c]] + apps.get(c, [])
        if c == int(n):
            return out
    return []
