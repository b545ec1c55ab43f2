"""The worked answers' preambles: the one reader.

An answer that changes a chapter's code is a diff, answers/chN-exE.diff;
its lines before the first "--- " are its preamble.  An answer that only
runs the chapter's programs is answers/chN-exE.run, all preamble.  A
preamble's lines "key: value" are directives (run:, before:, check:,
repeat:, profile...:, sanitize:, table:, program:); other lines are
prose.  From the file follow:
  source   the tangled file a diff changes (--- tangle/F.cu -> F)
  program  the program the answer runs as changed: the preamble's
           program: line, else F for a diff, else chN
  main     "own" for a diff that gives its program a main of its own
"""
import os
import re

from . import manifest

ROOT = manifest.ROOT
_DIRECTIVE = re.compile(r'^[a-z-]+:( |$)')


class Answer:
    def __init__(self, path):
        self.path = path
        base = os.path.basename(path)
        self.name = re.sub(r'\.(diff|run)$', '', base)
        self.chapter = re.sub(r'-.*', '', self.name[2:])
        self.directives, self.source, self.own_main = [], '', False
        prog = ''
        pre = True
        with open(path, encoding='utf-8') as f:
            for line in f.read().split('\n'):
                if pre and line.startswith('--- '):
                    pre = False
                    src = line.split()[1] if len(line.split()) > 1 else ''
                    self.source = re.sub(r'\.cu$', '', re.sub(r'^tangle/', '',
                                                              src))
                elif pre and line.startswith('program: '):
                    prog = line.split()[1]
                elif pre and _DIRECTIVE.match(line):
                    self.directives.append(line)
                elif not pre and re.match(r'^\+int main\(int argc', line):
                    self.own_main = True
        self.program = prog or self.source or 'ch' + self.chapter

    def lines(self):
        """The preamble's directives and what follows from the file, as
        answer-preamble printed them."""
        out = list(self.directives)
        if self.source:
            out.append('source: ' + self.source)
        out.append('program: ' + self.program)
        if self.own_main:
            out.append('main: own')
        return out


def _ver(name):
    return [int(t) if t.isdigit() else t for t in re.split(r'([0-9]+)', name)]


def paths(root=ROOT, chapter=None, kinds=('diff', 'run')):
    d = os.path.join(root, 'answers')
    out = []
    for f in os.listdir(d):
        m = re.match(r'^ch([0-9]+)-ex.*\.(diff|run)$', f)
        if m and m.group(2) in kinds and (chapter is None
                                          or int(m.group(1)) == int(chapter)):
            out.append('answers/' + f)
    return sorted(out, key=_ver)


def load(paths_, root=ROOT):
    return [Answer(os.path.join(root, p)) for p in paths_]


def files(root=ROOT):
    """[(chapter, results file)] that the answers are measured into, as
    book/tools/answers-bench writes them, sorted and unique."""
    micro = {str(m.chapter): m['micro'] for m in manifest.load_all(root)}
    out = set()
    for a in load(paths(root), root):
        n = a.chapter
        runs = False
        own = 'table: micro' in a.directives
        for l in a.directives:
            if re.match(r'^(run|before|check|repeat):', l):
                runs = True
            if re.match(r'^(profile|profile-before|profile-function|'
                        r'profile-function-before):', l):
                out.add((n, 'answers-ncu-ch%s.csv' % n))
            if l.startswith('sanitize:'):
                out.add((n, 'answers-san-ch%s.csv' % n))
        if runs:
            m = micro.get(n, '')
            out.add((n, 'answers-micro-ch%s.csv' % n
                     if own or (m and a.program == m)
                     else 'answers-ch%s.csv' % n))
    return sorted(out, key=lambda t: ('%s %s' % t))


def keep(old, new):
    """The lines of NEW (a results file of answers-bench), then the rows
    of OLD whose use (check, repeat, ...) NEW has no row of: a run of
    the timed lines alone keeps what the last full run found.  OLD may
    lack columns at NEW's end (columns are only ever added there); its
    rows get them empty.  A missing OLD gives NEW alone."""
    from . import csvio
    with open(new, encoding='utf-8') as f:
        lines = f.read().splitlines()
    if not lines:
        raise ValueError('%s: empty' % new)
    out = list(lines)
    if not os.path.exists(old):
        return out
    with open(old, encoding='utf-8') as f:
        olines = f.read().splitlines()
    if not olines:
        return out
    cols, ocols = csvio.split(lines[0]), csvio.split(olines[0])
    if cols[:len(ocols)] != ocols or 'use' not in cols:
        raise ValueError('%s: its columns are not a start of those of %s'
                         % (old, new))
    use = cols.index('use')
    had = {csvio.split(line)[use] for line in lines[1:]}
    pad = ',' * (len(cols) - len(ocols))
    for line in olines[1:]:
        if csvio.split(line)[use] not in had:
            out.append(line + pad)
    return out
