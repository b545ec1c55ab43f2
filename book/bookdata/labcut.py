"""The course edition's chapters: every lab's chunk described, not printed.

A chapter's lab (its manifest's field lab, and lab_also for a sibling
kernel that would give the lab away) is one chunk of its code that the
student writes.  The student's book prints it; the course edition, which
a class receives before the labs are due, prints in its place the stub
the lab starts from, the chunk <<Lab: NAME>> that the chapter defines in
its build section: a comment that says what to write and what it must
achieve, and the least code that compiles.

cut(lines, labs) works on noweb's markup stream (noweb's markup, one
token a line), before the build sections are left out: the first
definition of each lab chunk gets the stub's body, the others (a chunk
continued further on) an empty one.  The chunks that only the lab's
code uses (its pieces, such as chapter 3's loads of the two tiles) are
part of the answer too: each of their definitions gets one line that
says so.  labs(root) is {lab chunk: stub chunk} from the manifests.
"""
import re
import struct
import subprocess

from . import manifest
from .elf import read as _elf_read


def labs(root=manifest.ROOT, also=True):
    out = {}
    for m in manifest.load_all(root):
        for f in ('lab', 'lab_also') if also else ('lab',):
            name = m[f]
            if name:
                out[name] = 'Lab: ' + name
    return out


def _bodies(lines):
    """{chunk name: the token lines of its first definition's body}."""
    out, cur = {}, None
    for l in lines:
        if l.startswith('@defn '):
            name = l[len('@defn '):]
            cur = None if name in out else out.setdefault(name, [])
            continue
        if l.startswith('@end code'):
            cur = None
            continue
        if cur is not None:
            cur.append(l)
    return out


def _uses(lines):
    """{chunk: the chunks its definitions use}, and every chunk used."""
    uses, cur = {}, None
    for l in lines:
        if l.startswith('@defn '):
            cur = uses.setdefault(l[len('@defn '):], set())
        elif l.startswith('@end code'):
            cur = None
        elif l.startswith('@use ') and cur is not None:
            cur.add(l[len('@use '):])
    return uses


def pieces(lines, lab):
    """The chunks that only lab chunks (and their pieces) use."""
    uses = _uses(lines)
    users = {}
    for c, us in uses.items():
        for u in us:
            users.setdefault(u, set()).add(c)
    inside = set(lab)
    grew = True
    while grew:
        grew = False
        for c, us in users.items():
            if c not in inside and us <= inside and c in uses:
                inside.add(c)
                grew = True
    return inside - set(lab)


def redefined(lines, lab):
    """The chunks, in a lab chunk's own file, that #define a name its
    stub #undefs and #defines again: the stub sets it to nothing that
    works (chapter 7's swizzles, 0), so the chapter's own definition is
    the answer, even where a header for later chapters uses it."""
    files, where = {}, None
    for l in lines:
        if l.startswith('@file '):
            where = l[len('@file '):]
        elif l.startswith('@defn '):
            files.setdefault(l[len('@defn '):], where)
    bodies = _bodies(lines)

    def names(c, d):            # what chunk c's preprocessor lines #d
        code = ''.join(t[len('@text '):] if t.startswith('@text ') else
                       '\n' if t == '@nl' else '' for t in bodies.get(c, ()))
        return {n for _, dd, n in directives(code.split('\n')) if dd == d}
    out = set()
    for name, stub in lab.items():
        ours = names(stub, 'define') & names(stub, 'undef')
        for c in bodies:
            if c not in lab and c not in lab.values() \
                    and files.get(c) == files.get(name) and ours & names(c, 'define'):
                out.add(c)
    return out


def cut(lines, lab):
    """The markup lines with each lab chunk's body replaced by its stub's
    (lab: {lab chunk: stub chunk}).  ValueError when a lab's stub is not
    defined."""
    bodies = _bodies(lines)
    for name, stub in lab.items():
        if name in bodies and stub not in bodies:
            raise ValueError('labcut: the lab chunk <<%s>> has no stub '
                             '<<%s>>' % (name, stub))
    part = pieces(lines, lab) | redefined(lines, lab)
    out, skip, done = [], False, set()
    for l in lines:
        if l.startswith('@defn '):
            name = l[len('@defn '):]
            out.append(l)
            if name in lab:
                if name not in done:
                    out += bodies[lab[name]]
                    done.add(name)
                skip = True
            elif name in part:
                out += ['@nl', '@text /* part of the lab: written by the '
                        'student */', '@nl']
                skip = True
            continue
        if l.startswith('@end code'):
            skip = False
        if not skip:
            out.append(l)
    return out



# --- the lab's splice -----------------------------------------------------
# The stub marks each place of the lab's code (book/tools/labtangle):
#   /* ---- lab N, <<NAME>>: your code begins here ---- */
#   /* ---- lab N, <<NAME>>: your code ends here ---- */
# make labN compiles the chapter's pristine stub (tangle/chN-lab.cu) with
# the lines between the first pair of marks of each NAME in the student's
# file put between every pair of that NAME: what the student writes
# elsewhere in the file is not compiled, so the program's launchers, its
# table of kernels and their precisions, and the harness stay the book's.

BEGIN = ': your code begins here ---- */'
END = ': your code ends here ---- */'


class SpliceError(ValueError):
    pass


def _tag(line, mark):
    s = line.strip()
    if s.startswith('/* ---- lab ') and s.endswith(mark):
        return s[len('/* ---- '):-len(mark)]
    return None


def regions(lines, where):
    """{tag: (first line number, its lines)} of the first region of each
    tag; SpliceError where a mark has no partner."""
    out, cur, body, start = {}, None, [], 0
    for i, l in enumerate(lines, 1):
        b, e = _tag(l, BEGIN), _tag(l, END)
        if b is not None:
            if cur is not None:
                raise SpliceError('%s:%d: a begin mark inside the region '
                                  'that line %d begins' % (where, i, start))
            cur, body, start = b, [], i
        elif e is not None:
            if e != cur:
                raise SpliceError('%s:%d: an end mark without its begin '
                                  'mark' % (where, i))
            out.setdefault(cur, (start + 1, body))
            cur = None
        elif cur is not None:
            body.append(l)
    if cur is not None:
        raise SpliceError('%s:%d: the region has no end mark' % (where, start))
    return out


def _spliced(text):
    """TEXT with every backslash-newline removed, as the compiler's
    second phase removes them (GCC's too where blanks stand between the
    backslash and the newline), and the line (from 1) of each character
    left."""
    out, where, line, i = [], [], 1, 0
    while i < len(text):
        m = _SPLICE.match(text, i) if text[i] == '\\' else None
        if m:
            line += 1
            i = m.end()
            continue
        out.append(text[i])
        where.append(line)
        if text[i] == '\n':
            line += 1
        i += 1
    return ''.join(out), where


def _blanked(text):
    """The spliced TEXT (see _spliced) with comments, string and
    character literals (raw strings too) turned to blanks, newlines
    kept, and the line of each character: what is left is what the
    compiler reads as code and directives."""
    text, where = _spliced(text)
    blank = _NOT_CODE.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text)
    return blank, where


def directives(lines):
    """[(line number from 1, directive, first name)] of the preprocessor
    lines of LINES, read as the preprocessor reads them: continued lines
    joined, comments, strings and characters left out, the digraph %:
    for #."""
    text, where = _blanked('\n'.join(lines))
    out, pos = [], 0
    for l in text.split('\n'):
        t = l.strip()
        first = where[pos] if pos < len(where) else 1
        pos += len(l) + 1
        if t.startswith('%:'):
            t = '#' + t[2:]
        if t.startswith('#'):
            m = re.match(r'#\s*([A-Za-z_]\w*)?\s*([A-Za-z_]\w*)?', t)
            out.append((first, m.group(1) or '', m.group(2) or ''))
    return out


def _directive_text(lines, first):
    """The preprocessor line of LINES that starts on line FIRST, with
    continued lines joined and comments blanked (numbers, strings and
    characters kept: a rule that reads it refuses what it does not
    know), stripped."""
    text, where = _spliced('\n'.join(lines))
    text = re.sub(r'/\*.*?\*/|//[^\n]*',
                  lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    pos = 0
    for l in text.split('\n'):
        if (where[pos] if pos < len(where) else 1) == first and l.strip():
            return l.strip()
        pos += len(l) + 1
    return ''


# What a lab's lines may not hold: control characters (which the
# compiler skips and a reader does not see), and the words that put text
# of the student's into the host's code or the compiler's directives.
_CONTROL = re.compile(r'[\x00-\x08\x0e-\x1f\x7f]')
_HOST_WORDS = re.compile(r'(?<![A-Za-z0-9_])(?:asm|__asm|__asm__|_Pragma|'
                         r'__pragma)(?![A-Za-z0-9_])')
# Token pasting (## or its digraph %:%:): in a #define of a name the
# stub defines, it would build asm, _Pragma or a digraph brace out of
# parts where the macro expands, in the book's lines, which neither the
# check of the student's lines nor of their preprocessed text reads.
_PASTE = re.compile(r'##|%:\s*%:')
# An explicit specialization (template <>): in
# a region at file scope, one of the book's kernel template for the
# arguments its launcher uses replaces the whole kernel, the lab's lines
# with it, while every host function stays the book's.
_SPECIALIZE = re.compile(r'(?<![A-Za-z0-9_])template\s*<\s*>')
# A line splice: a backslash, blanks GCC allows before the newline, the
# newline.
_SPLICE = re.compile(r'\\[ \t\f\v\r]*\n')
# The start of a raw string (after line splices are joined): inside one
# the compiler undoes the splices (C++11's phase 2 is reverted), so a
# checker that joins them first reads another text than the compiler.
# A lab's code needs no raw string, and may hold none.
_RAW_STRING = re.compile(r'(?<![A-Za-z0-9_])(?:u8|u|U|L)?R"')
# The one pragma a lab's code may hold, as the compiler's directive: a
# count (a number or a name), or none; nothing else (a brace there would
# count to a reader of the braces and not to the compiler).
_UNROLL = re.compile(r'(?:#|%:)\s*pragma\s+(?:no)?unroll(?:\s+(?:\d+|[A-Za-z_]\w*))?\s*$')
# What a file's name in a #line directive may hold: GCC reads escapes in
# it, so a backslash would name another file in the compiler's markers.
_PLAIN_NAME = re.compile(r'^[ -!#-\[\]-~]+$')
# What the checker's reading of numbers, names and literals does not
# follow as the compiler does: $ and other characters that GCC takes into
# names and numbers ($1'x' is a name and a character to GCC, a number
# with a digit separator to a reader of the standard), anything not
# ASCII, and universal character names.  A lab's code needs none.
_FOREIGN = re.compile(r'[$\x80-\U0010ffff]|\\[uU]')
# What the compiler does not read as code: comments, raw strings, string
# and character literals (the first to start wins, as for the compiler;
# a raw string's R starts a token, alone or after u8, u, U or L, not the
# end of a longer name), and numbers, whose digit separators (1'000) open
# no character literal.
_NOT_CODE = re.compile(r"""
      (?<![A-Za-z0-9_])\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*
    | /\*.*?\*/ | //[^\n]*
    | (?<![A-Za-z0-9_])(?:u8|u|U|L)?R"(?P<delim>[^ ()\\\t\n]{0,16})\(.*?\)(?P=delim)"
    | "(?:\\.|[^"\\\n])*" | '(?:\\.|[^'\\\n])*'
    """, re.S | re.X)


def _raw_string(text):
    """The line (from 1) where a raw string starts in TEXT's code (not in
    a comment, a string or character literal, or a number), or None.
    Up to the first raw string the compiler and _blanked read the same
    text, so the compiler's first raw string starts in code here too."""
    text, where = _spliced(text)
    spans = [(m.start(), m.end()) for m in _NOT_CODE.finditer(text)
             if m.group('delim') is None]
    for m in _RAW_STRING.finditer(text):
        if not any(a <= m.start() < b for a, b in spans):
            return where[m.start()]
    return None


def braces(text):
    """[(line from 1, +1 or -1)] of the braces of TEXT, read as the
    compiler reads them: lines joined where a backslash ends one, not
    in comments, strings or character constants; the digraphs <% and
    %> too."""
    text, where = _blanked(text)
    return [(where[m.start()], 1 if m.group(0) in ('{', '<%') else -1)
            for m in re.finditer(r'<%|%>|[{}]', text)]


def _enclosed(lines, where):
    """SpliceError where a region's lines close a brace they did not
    open, or leave one open: the code stays where its stub puts it
    (inside the function it completes, or at file scope)."""
    depth = 0
    for line, d in braces('\n'.join(lines)):
        depth += d
        if depth < 0:
            raise SpliceError('%s:%d: this } closes a brace the lab\'s code '
                              'did not open: the code stays inside the '
                              'function or block its stub puts it in'
                              % (where[0], where[1] + line - 1))
    if depth > 0:
        raise SpliceError('%s:%d: the lab\'s code leaves %d brace%s open'
                          % (where[0], where[1], depth,
                             '' if depth == 1 else 's'))


def splice(student, stub, student_name, stub_name):
    """The stub's lines with every marked region filled from the
    student's file (lists of lines, without newlines); #line directives
    name the student's file for its lines and the stub's for the rest."""
    if not _PLAIN_NAME.match(student_name):
        raise SpliceError('%s: the lab\'s file name may hold no backslash, '
                          'quote or control character' % student_name)
    theirs = regions(student, student_name)
    ours = regions(stub, stub_name)
    for tag in ours:
        if tag not in theirs:
            raise SpliceError('%s: no region %s (the marks of its stub '
                              'are gone: start again from a new stub)'
                              % (student_name, tag))
    for tag, (start, body) in theirs.items():
        for i, l in enumerate(body):
            if _CONTROL.search(l):
                raise SpliceError('%s:%d: the lab\'s code may hold no control '
                                  'character' % (student_name, start + i))
        for i, l in enumerate(body):
            if _FOREIGN.search(l):
                raise SpliceError('%s:%d: the lab\'s code may hold only ASCII, '
                                  'and no $ or \\u' % (student_name, start + i))
        raw = _raw_string('\n'.join(body))
        if raw:
            raise SpliceError('%s:%d: the lab\'s code may hold no raw string '
                              'literal (R"...")' % (student_name, start + raw - 1))
        _enclosed(body, (student_name, start))
        code, where = _blanked('\n'.join(body))
        m = _PASTE.search(code)
        if m:
            raise SpliceError('%s:%d: the lab\'s code may not paste tokens '
                              'together (%s): a macro of the stub\'s, '
                              'expanded in the book\'s lines, would make '
                              'words there that no check reads'
                              % (student_name, start + where[m.start()] - 1,
                                 m.group(0)))
        m = _SPECIALIZE.search(code)
        if m:
            raise SpliceError('%s:%d: the lab\'s code may not specialize a '
                              'template (template <>): a specialization of '
                              'the book\'s kernel or launcher would run in '
                              'its place, without the lab\'s lines'
                              % (student_name, start + where[m.start()] - 1))
        m = _HOST_WORDS.search(code)
        if m:
            raise SpliceError('%s:%d: the lab\'s code may not use %s (a '
                              'lab\'s code is CUDA C, run on the GPU)'
                              % (student_name, start + where[m.start()] - 1,
                                 m.group(0)))
        allowed = {name for _, d, name in directives(ours[tag][1])
                   if d == 'define'}
        for line, d, name in directives(body):
            if (d == 'pragma' and name in ('unroll', 'nounroll')
                    and _UNROLL.match(_directive_text(body, line))) \
                    or (d in ('define', 'undef') and name in allowed):
                continue
            if d == 'pragma' and name in ('unroll', 'nounroll'):
                raise SpliceError('%s:%d: #pragma %s takes a count (a number '
                                  'or a name) and nothing else'
                                  % (student_name, start + line - 1, name))
            raise SpliceError(
                '%s:%d: the lab\'s code may not use #%s%s (it may #define '
                'only what its stub defines%s, and #pragma unroll)'
                % (student_name, start + line - 1, d, ' ' + name if name else '',
                   ': ' + ', '.join(sorted(allowed)) if allowed else ''))
    out, cur = [], None
    for i, l in enumerate(stub, 1):
        b, e = _tag(l, BEGIN), _tag(l, END)
        if b is not None:
            cur = b
            start, body = theirs[b]
            out += [l, '#line %d "%s"' % (start, student_name)] + body
            continue
        if e is not None:
            cur = None
            out += ['#line %d "%s"' % (i, stub_name), l]
            continue
        if cur is None:
            out.append(l)
    return out


def preprocessed(lines, student_name):
    """SpliceError where the compiler's preprocessor (LINES, its -E
    output) puts into the student's lines what splice() refuses in them:
    a macro of a system header can paste asm or _Pragma together, or
    expand to a brace (glibc's __CONCAT, __END_DECLS).  The student's
    lines are those its line markers give to STUDENT_NAME; each run of
    them is a region, whose braces must close what they open."""
    runs, cur, mine = [], None, False
    for l in lines:
        m = re.match(r'#\s*(?:line\s+)?\d+\s+"((?:\\.|[^"\\])*)"', l)
        if m:
            was, mine = mine, m.group(1) == student_name
            if mine and not was:
                cur = []
                runs.append(cur)
            continue
        if mine:
            cur.append(l)
    if not runs:
        raise SpliceError('%s: no line of the preprocessor\'s output is the '
                          'lab\'s (nothing to check)' % student_name)
    for run in runs:
        for l in run:
            t = l.strip()
            if t.startswith('#') and not _UNROLL.match(t):
                raise SpliceError('%s: after the preprocessor the lab\'s code '
                                  'holds a directive: %s' % (student_name, t[:60]))
        code, _ = _blanked('\n'.join(run))
        m = _HOST_WORDS.search(code) or _SPECIALIZE.search(code)
        if m:
            raise SpliceError('%s: after the preprocessor the lab\'s code uses '
                              '%s (a macro made it)'
                              % (student_name, re.sub(r'\s+', ' ', m.group(0))
                                 .replace('< >', '<>')))
        depth = 0
        for _, d in braces('\n'.join(run)):
            depth += d
            if depth < 0:
                break
        if depth != 0:
            raise SpliceError('%s: after the preprocessor the lab\'s code does '
                              'not close the braces it opens (a macro made '
                              'one)' % student_name)


def answer(stub, full, stub_name='stub', full_name='program'):
    """The stub with each marked region filled with what the chapter's
    own program (FULL, tangle/chN.cu) has in its place: the student's
    file of a student who wrote the chapter's code (the tests' lab that
    must pass).  The stub's lines outside the regions are the program's,
    in order; a region's lines are the program's between them."""
    segs, cur, out_seg = [], None, []
    for l in stub:
        if _tag(l, BEGIN) is not None:
            segs.append(('out', out_seg))
            out_seg, cur = [], _tag(l, BEGIN)
            segs.append(('begin', l))
        elif _tag(l, END) is not None:
            segs.append(('end', l))
            cur = None
        elif cur is None:
            out_seg.append(l)
    segs.append(('out', out_seg))
    outs = [s for k, s in segs if k == 'out']

    regs = [s for k, s in segs if k == 'begin']
    tags = [_tag(b, BEGIN) for b in regs]

    def occurrences(seq, start):
        if not seq:
            return [len(full)] if start <= len(full) else []
        return [i for i in range(start, len(full) - len(seq) + 1)
                if full[i:i + len(seq)] == seq]

    def same(a, b):
        return [x.strip() for x in a] == [x.strip() for x in b]

    # outs[0] is the program's start; then region r lies between outs[r]
    # and outs[r + 1]: try each place the next outside part occurs, and
    # keep the one where every region of a tag holds the same code
    def align(r, pos, got):
        if r == len(regs):
            return got if pos + len(outs[r]) == len(full) \
                and full[pos:] == outs[r] else None
        if full[pos:pos + len(outs[r])] != outs[r]:
            return None
        start = pos + len(outs[r])
        nxt = outs[r + 1]
        for end in occurrences(nxt, start):
            body = full[start:end]
            if any(t == tags[r] and not same(b, body)
                   for t, b in zip(tags, got)):
                continue
            res = align(r + 1, end, got + [body])
            if res is not None:
                return res
        return None
    bodies = align(0, 0, [])
    if bodies is None:
        raise SpliceError('%s: the lines around the regions of %s are not '
                          'the program\'s' % (full_name, stub_name))
    res, r = [], 0
    for k, s in segs:
        if k == 'out':
            res += s
        elif k == 'begin':
            res += [s] + bodies[r]
            r += 1
        else:
            res.append(s)
    return res


# What a lab's object may reference that the chapter's own object does
# not: what nvcc emits for a kernel's launch and registration, and what
# the C++ compiler emits by itself.  (Not the runtime's API: a lab may
# call only the cuda* functions the chapter's code calls.)
_RUNTIME = re.compile(r'^(__cuda\w*|__cxa_\w+|_Unwind_\w+|'
                      r'__gxx_personality_v0|__stack_chk_fail|'
                      r'_GLOBAL_OFFSET_TABLE_|memcpy|memset|memmove)$')
# The sections whose functions run before or after main.
_AROUND_MAIN = ('.preinit_array', '.init_array', '.fini_array', '.ctors',
                '.dtors')


def _binutils(*args):
    """The output of nm, readelf or objdump on an object; ValueError if
    it fails."""
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        raise ValueError('%s %s: %s' % (args[0], args[-1], out.stderr.strip()))
    return out.stdout


def _symbols(obj):
    """{name: nm's type letter} of an object's global symbols."""
    syms = {}
    for line in _binutils('nm', '-P', obj).splitlines():
        f = line.split()
        if len(f) >= 2 and (f[1].isupper() or f[1] in 'uvwi'):
            syms[f[0]] = f[1]
    return syms


def _elf(obj):
    """(sections, symbols) of an object: sections as [(name, flags,
    size)], symbols as [(name, size, section index, section flags)] of
    the defined ones."""
    d, heads, name, shstrndx = _elf_read(obj)
    sections = [(name(shstrndx, h[0]), h[2], h[5]) for h in heads]
    symbols = []
    for h in heads:
        if h[1] != 2:                       # SHT_SYMTAB
            continue
        for off in range(h[4], h[4] + h[5], 24):
            st_name, info, _, shndx, _, size = struct.unpack_from(
                '<IBBHQQ', d, off)
            if 0 < shndx < len(heads) and info & 0xf != 3:   # not a section
                symbols.append((name(h[6], st_name), size, shndx,
                                heads[shndx][2]))
    return sections, symbols


_EXEC = 0x4                                 # SHF_EXECINSTR


def _host_code(obj):
    """{name: (code, references)} of every function an object defines
    in its host code: its instruction bytes, with the bytes the linker
    fills in (each relocation's field) set to zero, and what each of
    those refers to, in order: (offset in the function, relocation type,
    the symbol's name, or its section's for a section's own symbol, and
    the addend).  Two objects whose function has the same code and the
    same references run the same host code there."""
    d, heads, name, shstrndx = _elf_read(obj)
    syms, funcs = {}, {}
    for si, h in enumerate(heads):
        if h[1] != 2:                       # SHT_SYMTAB
            continue
        table = []
        for off in range(h[4], h[4] + h[5], 24):
            st_name, info, _, shndx, value, size = struct.unpack_from(
                '<IBBHQQ', d, off)
            if info & 0xf == 3 and 0 < shndx < len(heads):   # a section
                table.append(name(shstrndx, heads[shndx][0]))
            else:
                table.append(name(h[6], st_name))
            if (0 < shndx < len(heads) and info & 0xf != 3
                    and heads[shndx][2] & _EXEC):
                funcs[(shndx, value)] = (name(h[6], st_name), size)
        syms[si] = table
    relocs = {}                             # section: [(offset, type, sym, addend)]
    for h in heads:
        if h[1] != 4:                       # SHT_RELA
            continue
        table = syms.get(h[6], [])
        for off in range(h[4], h[4] + h[5], 24):
            r_off, r_info, addend = struct.unpack_from('<QQq', d, off)
            sym = r_info >> 32
            relocs.setdefault(h[7], []).append(
                (r_off, r_info & 0xffffffff,
                 table[sym] if sym < len(table) else '?', addend))
    out = {}
    for (shndx, value), (fname, size) in funcs.items():
        h = heads[shndx]
        code = bytearray(d[h[4] + value:h[4] + value + size]) \
            if h[1] != 8 else bytearray(size)          # SHT_NOBITS
        refs = []
        for r_off, rtype, sym, addend in sorted(relocs.get(shndx, [])):
            if value <= r_off < value + size:
                width = 8 if rtype in (1, 24) else 4   # R_X86_64_64, _PC64
                at = r_off - value
                code[at:at + width] = bytes(len(code[at:at + width]))
                refs.append((at, rtype, sym, addend))
        out[fname] = (bytes(code), refs)
    return out


def _host_functions(obj):
    """{name: size in bytes} of every symbol an object defines in its
    host code (in a section of instructions, whatever the symbol's
    type), static ones too."""
    return {n: size for n, size, _, flags in _elf(obj)[1] if flags & _EXEC}


def _defined(obj):
    """The names of every symbol an object defines, but the assembler's
    local labels (.L...)."""
    return {n for n, _, _, _ in _elf(obj)[1] if not n.startswith('.L')}


def _sections(obj):
    """[(name, size of its instructions, or None)] of an object's
    sections, one entry per section (two of one name are two)."""
    return sorted((n, size if flags & _EXEC else None, )
                  for n, flags, size in _elf(obj)[0])


def _around_main(obj):
    """The bytes of an object's sections of functions run around main."""
    size = 0
    for line in _binutils('readelf', '-S', '-W', obj).splitlines():
        m = re.search(r'\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+'
                      r'([0-9a-f]+)', line)
        # (.init_array.00200 too: a constructor's priority names its section)
        if m and any(m.group(1) == a or m.group(1).startswith(a + '.')
                     for a in _AROUND_MAIN):
            size += int(m.group(2), 16)
    return size


def _system_calls(obj):
    """How many instructions of the object's host code enter the kernel
    of the operating system itself (syscall, sysenter, int $0x80)."""
    return len(re.findall(r'\t(syscall|sysenter|int +\$0x80)\b',
                          _binutils('objdump', '-d', '--no-show-raw-insn', obj)))


def _called(name, ours):
    """Does the chapter's object call NAME?  A C library function and
    its checked form (fprintf, __fprintf_chk) count as one: which one a
    call becomes is the host compiler's choice (_FORTIFY_SOURCE), and the
    two objects may come from different compilers."""
    m = re.match(r'^__(\w+)_chk$', name)
    return (name in ours or '__%s_chk' % name in ours
            or (m is not None and m.group(1) in ours))


def screen(lab_obj, chapter_obj):
    """What keeps the lab's compiled code from being graded: the reasons,
    one line each (none: it may be graded).  The lab's object is the
    chapter's program with the student's code in its regions; compared
    with the chapter's own object, it may not define a global symbol of
    C's names (printf, fmax, exit: one the harness or a library would
    then call instead of its own), call anything the chapter's code does
    not call (cuBLAS, another chapter's launcher, the runtime's copies
    and launches, exit, output), run code before or after main (a
    constructor of any priority, an indirect function's resolver), or
    call the operating system itself, or add host code or a section of
    its own."""
    lab, ours = _symbols(lab_obj), _symbols(chapter_obj)
    why = []
    for name, t in sorted(lab.items()):
        if t in 'Uvw':                  # referenced, defined elsewhere
            if name == 'vprintf' and name not in ours:
                why.append('it calls printf in a kernel (vprintf): take it '
                           'out before grading')
            elif not _called(name, ours) and not _RUNTIME.match(name):
                why.append('it calls %s, which the chapter\'s code does not '
                           'call: a lab computes its product itself' % name)
        elif name not in ours and not name.startswith('_Z'):
            why.append('it defines %s with external linkage, which the '
                       'chapter\'s code does not: make it static' % name)
        if t == 'i' and ours.get(name) != 'i':
            why.append('it defines %s as an indirect function, whose '
                       'resolver runs before main' % name)
    if _system_calls(lab_obj) > _system_calls(chapter_obj):
        why.append('its host code calls the operating system itself (a '
                   'syscall instruction)')
    if _around_main(lab_obj) > _around_main(chapter_obj):
        why.append('it runs code before or after main (a constructor or a '
                   'destructor of its own)')
    # And, last, since the reasons above say more: the lab's code runs on
    # the GPU, so its host side is the chapter's (the same functions, the
    # kernels' launch stubs included, in the same sections), and no host
    # code of the student's can run at all.
    # (a function of the same name and size: the lab's lines, put into
    # the stub, change the line numbers the book's code passes, no more)
    # (the chapter's object is its own code spliced and compiled as the
    # lab's is, so a host function the student's lines do not touch has
    # the same instructions and references in both: a template's
    # specialization of the student's with the book's name, or a macro
    # of the stub's redefined into host code, changes them)
    mine, book = _host_functions(lab_obj), _host_functions(chapter_obj)
    code_mine, code_book = _host_code(lab_obj), _host_code(chapter_obj)
    for name in sorted(mine):
        if name not in book:
            why.append('it adds the host function %s, which the chapter\'s '
                       'code does not have: a lab\'s code runs on the GPU '
                       '(keep the kernel\'s name and parameters as the stub '
                       'gives them)' % name)
        elif mine[name] != book[name] \
                or code_mine.get(name) != code_book.get(name):
            size = ('%d bytes where the chapter\'s has %d'
                    % (mine[name], book[name]) if mine[name] != book[name]
                    else 'its instructions or what they call differ from '
                    'the chapter\'s')
            why.append('it changes the book\'s host function %s (%s): a '
                       'lab\'s code runs on the GPU, and what the stub '
                       'defines keeps its meaning' % (name, size))
    for name in sorted(_defined(lab_obj) - _defined(chapter_obj)):
        why.append('it defines %r, which the chapter\'s code does not'
                   % name)
    mine, book = _sections(lab_obj), _sections(chapter_obj)
    if [n for n, _ in mine] != [n for n, _ in book]:
        extra = sorted(set(mine) - set(book)) or mine
        why.append('its sections are not the chapter\'s (%s): a lab\'s '
                   'code puts nothing of its own in the host\'s object'
                   % ', '.join(repr(n) for n, _ in extra[:3]))
    elif mine != book:
        n, size = sorted(set(mine) - set(book))[0]
        why.append('it adds host code to the section %r (%d bytes where the '
                   'chapter\'s has %d)' % (n, size, dict(book)[n]))
    return why
