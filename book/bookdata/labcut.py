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
from . import manifest


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


def cut(lines, lab):
    """The markup lines with each lab chunk's body replaced by its stub's
    (lab: {lab chunk: stub chunk}).  ValueError when a lab's stub is not
    defined."""
    bodies = _bodies(lines)
    for name, stub in lab.items():
        if name in bodies and stub not in bodies:
            raise ValueError('labcut: the lab chunk <<%s>> has no stub '
                             '<<%s>>' % (name, stub))
    part = pieces(lines, lab)
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

