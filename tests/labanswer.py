"""What the tests read as a lab's answer in noweb's markup (the course
edition's test and the kits' test): a lab's chunks, and the chunks that
only they reach, less what other code shares; its lines are those of 12
characters or more that no stub and no other chunk holds."""


def chunks(stream):
    """{chunk: its code lines, stripped}, {chunk: the chunks it uses}."""
    body, uses, cur = {}, {}, None
    for l in stream:
        if l.startswith('@defn '):
            cur = l[6:]
            body.setdefault(cur, [])
            uses.setdefault(cur, set())
        elif l.startswith('@end code'):
            cur = None
        elif cur is not None and l.startswith('@text '):
            body[cur].append(l[6:].strip())
        elif cur is not None and l.startswith('@use '):
            uses[cur].add(l[5:])
    return body, uses


def answer_lines(body, uses, lab):
    """{line: its chunk} of the answer of the lab chunks LAB (a set)."""
    lab = set(lab)
    reach, todo = set(lab), list(lab)
    while todo:
        for u in uses.get(todo.pop(), ()):
            if u not in reach:
                reach.add(u)
                todo.append(u)
    shared = {c for c in reach - lab for o in uses if o not in reach and c in uses[o]}
    while True:
        more = {u for c in shared for u in uses.get(c, ())
                if u in reach and u not in lab} - shared
        if not more:
            break
        shared |= more
    mine = {c for c in reach - shared if not c.startswith('Lab: ')}
    stubs = {l for c in body if c.startswith('Lab: ') for l in body[c]}
    others = {l for c, ls in body.items() if c not in mine for l in ls}
    return {l: c for c in mine for l in body.get(c, ())
            if len(l) >= 12 and l not in stubs and l not in others}
