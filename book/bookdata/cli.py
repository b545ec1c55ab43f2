"""The command line of book/tools/bookdata.  Bad usage or a missing
input: one line on stderr, exit 2."""
import os
import re
import shlex
import struct
import sys

from . import answers, code, manifest, makevars, readme

ROOT = manifest.ROOT
USAGE = '''bookdata: the one program that owns the book's data (book/DATA.md)

  bookdata manifest N FIELD        a field of chapter N's manifest
  bookdata manifest N --sh FIELD...   fields as FIELD='value' lines
  bookdata manifest --tsv          every field: N<TAB>FIELD<TAB>VALUE
  bookdata manifest chapters       the chapters, in order
  bookdata manifest buildable      the chapters this build compiles
  bookdata manifest check          validate every manifest
  bookdata keys OUT RESULTS N...   the result keys, tables and charts
  bookdata stage models DIR | derived RESULTS DIR N...   one stage, alone
  bookdata readme [--check] RESULTS NW...   README.md's results table
  bookdata title NW                a chapter's title, as plain text
  bookdata codehash N [answers] | --all
  bookdata built-from TOOL N...    exit 1, and a line each, where a built
                                   program of chapters N was linked from
                                   other code than tangle/ holds
  bookdata budget                  each chapter's tangled lines, its budget
  bookdata fmt VALUE [HOW]         a value as the book prints it
  bookdata index-terms TERMS < MARKUP   noweb markup with \\index{KEY}
                                   after each term's first place in each
                                   section's prose (book/index-terms.txt)
  bookdata labcut < MARKUP         noweb markup with each lab's chunk
                                   replaced by its stub (the course edition)
  bookdata lab-splice STUDENT STUB OUT   the stub with its marked regions
                                   filled from the student's file
  bookdata lab-cpp PREPROCESSED STUDENT   exit 2 where the preprocessor's
                                   output gives the student's lines what
                                   lab-splice refuses in them
  bookdata lab-headers N DIR       chapter N's own headers as a lab is
                                   compiled against them (the kit's: no
                                   #define of a name the lab writes)
  bookdata fatbin OBJECT            the GPU code an object or library
                                   holds: a line per kind (sass, ptx)
                                   and architecture, e.g. "sass sm_86"
  bookdata lab-answer STUB PROGRAM   the stub with the program's own code
                                   between its marks (the lab that passes)
  bookdata lab-screen LAB_O CHAPTER_O   what keeps a lab's object from
                                   being graded (exit 1): compared with the
                                   chapter's own object
  bookdata kit N DIR               lab N's kit for a student in DIR: its
                                   stub, the harness, the earlier
                                   chapters' code it links, a Makefile
  bookdata site SRC OUT FIGS CSS    the book as a website in OUT (a page
                                   per chapter) from pandoc's HTML SRC
  bookdata columns [RESULTS...]    the results files' columns, from the
                                   programs that write them; with folders,
                                   check their files' headers against them
  bookdata fresh-results           the results folder the book shows
  bookdata gpu-dir N...            results/<this machine's GPU>
  bookdata runs-short RESULTS [N]  the timed figures measured in fewer
                                   than N runs (3) (exit 1 if any)
  bookdata appendices N...        the appendices' files in the order
                                   they are woven (manifest.appendices)
  bookdata clocklog FOLDER         clock-ch14.csv from the log of
                                   book/tools/clock-experiment (clock.py)
  bookdata nw-upto N | --all       the noweb files chapter N tangles
  bookdata draw-shapes N SEED      chapter N's validation set: its field
                                   validation's count of shapes, drawn
                                   from SEED (bookdata/draw.py)
  bookdata answers preamble FILE... | files N|--all | target [--source] FILE
  bookdata answers keep OLD NEW     NEW's rows, then OLD's of every use
                                   (check, repeat) that NEW has none of
  bookdata make-vars ARCH          the Makefile's generated variables
Exit status: 0 done, 1 a check failed, 2 bad usage or a missing input,
3 no GPU to run on (gpu-dir).
'''


class Usage(Exception):
    pass


def _need(args, n, what):
    if len(args) < n:
        raise Usage('want ' + what)


def cmd_manifest(args):
    _need(args, 1, 'manifest N FIELD | --tsv | chapters | buildable | check')
    a = args[0]
    if a == 'chapters':
        print(' '.join(str(n) for n in manifest.chapters()))
    elif a == 'buildable':
        f = os.path.join(ROOT, 'build', 'manifest.tsv')
        if not os.path.exists(f):
            raise Usage('build/manifest.tsv is missing; run make')
        print(manifest.read_tsv(f).get(('', 'BUILDABLE'), ''))
    elif a == '--tsv':
        arch = args[1] if len(args) > 1 else None
        if arch:
            sys.stdout.write(makevars.manifest_tsv(arch))
        else:
            for r in manifest.tsv_rows():
                print('\t'.join(r))
    elif a == '--file':
        _need(args, 3, 'manifest --file FILE FIELD')
        m = manifest.Manifest(0, manifest.parse(args[1]), args[1])
        print(m[args[2]])
    elif a == 'check':
        errs = [e for m in manifest.load_all() for e in m.errors()]
        for e in errs:
            print(e, file=sys.stderr)
        return 1 if errs else 0
    else:
        _need(args, 2, 'manifest N FIELD')
        if not a.isdigit():
            raise Usage('manifest: not a chapter: ' + a)
        try:
            m = manifest.load(int(a))
            if args[1] == '--sh':   # FIELD='value' lines, for a shell's eval
                for f in args[2:]:
                    print('%s=%s' % (f, shlex.quote(m[f])))
            else:
                print(m[args[1]])
        except manifest.ManifestError as e:
            raise Usage('manifest: %s' % e)
    return 0


def cmd_codehash(args):
    _need(args, 1, 'codehash N [answers] | --all')
    if args[0] == '--all':
        for n in manifest.chapters():
            print(n, code.hash(n), code.hash(n, True) or '-')
        return 0
    if not args[0].isdigit() or not os.path.exists(
            os.path.join(ROOT, 'tangle', 'ch%s.mk' % args[0])):
        raise Usage('codehash: chapter %s has no manifest' % args[0])
    h = code.hash(int(args[0]), len(args) > 1 and args[1] == 'answers')
    print(h or '')
    return 0


def cmd_built_from(args):
    """Each built program (and microbenchmark) of chapters N... linked
    from other code than tangle/ holds: build/P.codehash, which the link
    writes, against the code's hash; a line for each, exit 1 if any."""
    _need(args, 1, 'built-from TOOL N...')
    tool, bad = args[0], 0
    for a in args[1:]:
        n = int(a)
        want = code.hash(n)
        m = manifest.load(n)
        for p in m.words('programs') + m.words('micro'):
            if not os.access(os.path.join(ROOT, p), os.X_OK):
                continue
            try:
                with open(os.path.join(ROOT, 'build', p + '.codehash')) as f:
                    have = f.read().strip()
            except OSError:
                have = ''
            if have != want:
                print('%s: ./%s was linked from other code than tangle/ holds '
                      '(%s; tangle/: %s): make, then %s again'
                      % (tool, p, have or 'no build/%s.codehash' % p, want, tool),
                      file=sys.stderr)
                bad = 1
    return bad


def cmd_answers(args):
    _need(args, 1, 'answers preamble FILE... | files N|--all | target '
          '[--source] FILE | keep OLD NEW')
    what, rest = args[0], args[1:]
    if what == 'preamble':
        for a in answers.load(rest, os.getcwd()):
            for line in a.lines():
                print(a.name + '\t' + line)
    elif what == 'files':
        _need(rest, 1, 'answers files N | --all')
        for n, f in answers.files():
            if rest[0] == '--all':
                print(n, f)
            elif n == rest[0]:
                print(f)
    elif what == 'target':
        src = rest and rest[0] == '--source'
        rest = rest[1:] if src else rest
        _need(rest, 1, 'answers target [--source] FILE')
        a = answers.load(rest[:1], os.getcwd())[0]
        print(a.source if src else a.program)
    elif what == 'keep':
        _need(rest, 2, 'answers keep OLD NEW')
        for line in answers.keep(rest[0], rest[1]):
            print(line)
    else:
        raise Usage('answers: no such command: ' + what)
    return 0


def cmd_kit(args):
    from . import kit
    _need(args, 2, 'kit N DIR')
    if not args[0].isdigit():
        raise Usage('kit: not a chapter: ' + args[0])
    try:
        files = kit.write(int(args[0]), args[1])
    except kit.KitError as e:
        raise Usage('kit: %s' % e)
    print('bookdata: wrote %s: %s' % (args[1], ' '.join(files)))
    return 0


def cmd_site(args):
    from . import site
    _need(args, 4, 'site SRC OUT FIGS CSS')
    for f in (args[0], args[3]):
        if not os.path.exists(f):
            raise Usage('site: %s: no such file' % f)
    try:
        pages = site.build(*args[:4])
    except site.SiteError as e:
        raise Usage('site: %s' % e)
    print('bookdata: wrote %s: %d pages' % (args[1], len(pages)))
    return 0


def cmd_readme(args):
    check = bool(args) and args[0] == '--check'
    args = args[1:] if check else args
    _need(args, 1, 'readme [--check] RESULTS NW...')
    tab = readme.table(args[0], args[1:])
    path = os.path.join(ROOT, 'README.md')
    with open(path, encoding='utf-8') as f:
        old = f.read()
    new = readme.splice(old, tab)
    if new == old:
        os.utime(path)      # up to date: make sees it so
        return 0
    if check:
        print("README.md's results table is out of date: run make readme",
              file=sys.stderr)
        return 1
    with open(path, 'w', encoding='utf-8') as f:
        f.write(new)
    print('bookdata: updated README.md', file=sys.stderr)
    return 0


def cmd_keys(args):
    _need(args, 2, 'keys OUT RESULTS CHAPTER...')
    from . import pipeline
    return pipeline.run(args[0], args[1].rstrip('/'), args[2:])


def cmd_stage(args):
    """One stage over a folder's keys, for the tests: models DIR, or
    derived RESULTS DIR N..."""
    from . import derived, models
    from .keys import Keys
    _need(args, 2, 'stage models DIR | stage derived RESULTS DIR N...')
    if args[0] == 'models':
        d = args[1]
        keys = Keys.load(d)
        models.models(keys, models.formulas_of_tsv(d + '/manifest.tsv'))
    elif args[0] == 'derived':
        _need(args, 3, 'stage derived RESULTS DIR N...')
        d = args[2]
        keys = Keys.load(d)
        derived.derived(keys, args[1], d, args[3:],
                        manifest.read_tsv(d + '/manifest.tsv'))
    else:
        raise Usage('stage: models or derived')
    keys.write(d)
    return 0


def cmd_budget(args):
    """Each chapter's tangled lines against its budget; exit 1 if one is
    over, or one file is over its limit."""
    bad = 0
    for n, lines, budget, big in code.budgets():
        print('ch%d %d of %d lines' % (n, lines, budget))
        if lines > budget:
            print('ch%d: %d lines of tangled code, over its budget of %d '
                  '(its manifest may raise it: budget := N)'
                  % (n, lines, budget), file=sys.stderr)
            bad = 1
        for f in big:
            print('%s: over %d lines' % (f, code.FILE_LIMIT), file=sys.stderr)
            bad = 1
    return bad


def cmd_fmt(args):
    """A value as the book prints it (bookdata.awk.fmt)."""
    from .awk import fmt
    _need(args, 1, 'fmt VALUE [HOW]')
    print(fmt(args[0], args[1] if len(args) > 1 else ''))
    return 0


def cmd_columns(args):
    from . import schema
    if args:
        bad = []
        for d in args:
            bad += schema.check_folder(d)
        for b in bad:
            print(b)
        return 1 if bad else 0
    sys.stdout.write(schema.describe())
    return 0


def cmd_index_terms(args):
    from . import indexterms
    _need(args, 1, 'index-terms TERMS < MARKUP')
    if not os.path.exists(args[0]):
        raise Usage('index-terms: %s: no such file' % args[0])
    try:
        terms = indexterms.load(args[0])
    except indexterms.TermError as e:
        raise Usage('index-terms: %s' % e)
    lines = sys.stdin.read().split('\n')
    end = lines.pop() if lines and lines[-1] == '' else None
    out = indexterms.insert(lines, terms)
    sys.stdout.write('\n'.join(out) + ('\n' if end is not None else ''))
    return 0


def cmd_labcut(args):
    from . import labcut
    lines = sys.stdin.read().split('\n')
    end = lines.pop() if lines and lines[-1] == '' else None
    out = labcut.cut(lines, labcut.labs(ROOT))
    sys.stdout.write('\n'.join(out) + ('\n' if end is not None else ''))
    return 0


def _two_files(args, what):
    _need(args, 2, what)
    out = []
    for f in args[:2]:
        with open(f, encoding='utf-8', errors='replace') as fh:
            out.append(fh.read().split('\n'))
    return out


def cmd_lab_splice(args):
    from . import labcut
    _need(args, 3, 'lab-splice STUDENT STUB OUT')
    student, stub = _two_files(args, 'lab-splice STUDENT STUB OUT')
    try:
        out = labcut.splice(student, stub, args[0], args[1])
    except labcut.SpliceError as e:
        raise Usage(str(e))
    with open(args[2], 'w', encoding='utf-8') as fh:
        fh.write('\n'.join(out))
    return 0


def cmd_lab_cpp(args):
    from . import labcut
    _need(args, 2, 'lab-cpp PREPROCESSED STUDENT')
    if not os.path.exists(args[0]):
        raise Usage('lab-cpp: %s: no such file' % args[0])
    with open(args[0], encoding='utf-8', errors='replace') as fh:
        lines = fh.read().split('\n')
    try:
        labcut.preprocessed(lines, args[1])
    except labcut.SpliceError as e:
        raise Usage(str(e))
    return 0


def cmd_lab_screen(args):
    from . import labcut
    _need(args, 2, 'lab-screen LAB_OBJECT CHAPTER_OBJECT')
    for f in args[:2]:
        if not os.path.exists(f):
            raise Usage('lab-screen: %s: no such file' % f)
    try:
        why = labcut.screen(args[0], args[1])
    except (ValueError, struct.error, IndexError, UnicodeDecodeError) as e:
        # (what cannot be read cannot be graded: the lab's, a refusal)
        why = ['its object cannot be read as the chapter\'s is (%s)' % e]
    for w in why:
        print(w)
    return 1 if why else 0


def cmd_lab_answer(args):
    from . import labcut
    stub, full = _two_files(args, 'lab-answer STUB PROGRAM')
    try:
        out = labcut.answer(stub, full, args[0], args[1])
    except labcut.SpliceError as e:
        raise Usage(str(e))
    # (what the chapter's header says of the names the lab's lines write,
    # lab 7's swizzles, a lab is compiled without: the answer says it)
    m = re.match(r'(?:.*/)?ch(\d+)-lab\.cu$', args[0])
    if m:
        from . import kit
        out = kit.answer_defines(int(m.group(1)), out,
                                 os.path.dirname(os.path.abspath(args[0])))
    sys.stdout.write('\n'.join(out))
    return 0


def cmd_lab_headers(args):
    from . import kit
    _need(args, 2, 'lab-headers N DIR')
    if not args[0].isdigit():
        raise Usage('lab-headers: not a chapter: ' + args[0])
    texts, _ = kit.lab_headers(int(args[0]), os.path.join(ROOT, 'tangle'))
    os.makedirs(args[1], exist_ok=True)
    for h, text in texts.items():
        with open(os.path.join(args[1], h), 'w') as f:
            f.write(text)
    return 0


def cmd_fatbin(args):
    _need(args, 1, 'fatbin OBJECT')
    from . import elf
    try:
        kinds = elf.fatbin(args[0])
    except (OSError, ValueError) as e:
        raise Usage('fatbin: %s' % e)
    for kind, arch in sorted(set(kinds)):
        print(kind, 'sm_%d' % arch)
    return 0


def cmd_gpu_dir(args):
    _need(args, 1, 'gpu-dir N...')
    d = code.gpu_dir(args)
    if d is None:
        print('bookdata: gpu-dir: no program of chapters %s runs here'
              % ' '.join(args), file=sys.stderr)
        return 3
    print(d)
    return 0


def cmd_runs_short(args):
    _need(args, 1, 'runs-short RESULTS [N]')
    from . import runs
    if not os.path.isdir(args[0]):
        raise Usage('runs-short: no folder %s' % args[0])
    least = int(args[1]) if len(args) > 1 and args[1].isdigit() else 3
    bad = runs.short(args[0], least)
    for line in bad:
        print(line)
    return 1 if bad else 0


def cmd_appendices(args):
    _need(args, 1, 'appendices N...')
    print(' '.join(manifest.appendices(args)))
    return 0


def cmd_clocklog(args):
    _need(args, 1, 'clocklog FOLDER')
    from . import clock
    if not os.path.isdir(args[0]):
        raise Usage('clocklog: no folder %s' % args[0])
    try:
        sys.stdout.write(clock.csv_text(clock.summary(args[0])))
    except (OSError, clock.ClockError) as e:
        raise Usage('clocklog: %s' % e)
    return 0


def cmd_title(args):
    _need(args, 1, 'title NW')
    print(readme.chapter_title(args[0]))
    return 0


def cmd_nw_upto(args):
    _need(args, 1, 'nw-upto N | --all')
    if args[0] != '--all' and not args[0].isdigit():
        raise Usage('nw-upto: not a chapter: ' + args[0])
    if args[0] == '--all':
        for n in manifest.chapters():
            print(n, ' '.join(manifest.nw_upto(n)))
    else:
        print(' '.join(manifest.nw_upto(args[0])))
    return 0


def cmd_draw_shapes(args):
    _need(args, 2, 'draw-shapes N SEED')
    from . import csvio, draw
    if not args[0].isdigit() or not args[1].isdigit():
        raise Usage('draw-shapes: N and SEED are numbers: ' + ' '.join(args))
    try:
        m = manifest.load(int(args[0]))
        count, suite = m['validation'], m['suite']
    except manifest.ManifestError as e:
        raise Usage('draw-shapes: %s' % e)
    if not (count and suite):
        raise Usage('draw-shapes: chapter %s has no fields validation and suite' % args[0])
    rows = csvio.read(os.path.join(ROOT, suite)).rows
    seed = int(args[1])
    sys.stdout.write(draw.csv_text(seed, draw.draw(seed, int(count), rows)))
    return 0


def cmd_make_vars(args):
    _need(args, 1, 'make-vars ARCH')
    try:
        sys.stdout.write(makevars.make_vars(args[0]))
    except manifest.ManifestError as e:
        print(e, file=sys.stderr)
        return 2
    return 0


COMMANDS = {
    'manifest': cmd_manifest,
    'codehash': cmd_codehash,
    'built-from': cmd_built_from,
    'kit': cmd_kit,
    'index-terms': cmd_index_terms,
    'site': cmd_site,
    'fresh-results': lambda a: print(code.fresh_results()) or 0,
    'answers': cmd_answers,
    'readme': cmd_readme,
    'title': cmd_title,
    'keys': cmd_keys,
    'stage': cmd_stage,
    'budget': cmd_budget,
    'fmt': cmd_fmt,
    'columns': cmd_columns,
    'labcut': cmd_labcut,
    'lab-splice': cmd_lab_splice,
    'lab-answer': cmd_lab_answer,
    'lab-headers': cmd_lab_headers,
    'lab-screen': cmd_lab_screen,
    'lab-cpp': cmd_lab_cpp,
    'gpu-dir': cmd_gpu_dir,
    'fatbin': cmd_fatbin,
    'runs-short': cmd_runs_short,
    'clocklog': cmd_clocklog,
    'appendices': cmd_appendices,
    'nw-upto': cmd_nw_upto,
    'make-vars': cmd_make_vars,
    'draw-shapes': cmd_draw_shapes,
}


def main(argv):
    try:
        return _main(argv)
    except BrokenPipeError:      # a reader that stopped early (| head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _main(argv):
    if not argv or argv[0] in ('-h', '--help'):
        print(USAGE.strip())
        return 0 if argv else 2
    cmd = COMMANDS.get(argv[0])
    try:
        if cmd is None:
            raise Usage('no such command: %s (bookdata --help lists them)'
                        % argv[0])
        return cmd(argv[1:])
    except Usage as e:
        print('bookdata: %s' % e, file=sys.stderr)
        return 2
    except FileNotFoundError as e:
        print('bookdata: %s: %s' % (e.filename, e.strerror), file=sys.stderr)
        return 2
    except ValueError as e:      # data the book cannot name or read
        print('bookdata: %s' % e, file=sys.stderr)
        return 2
