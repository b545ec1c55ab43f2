"""The weave filters of the book, ported from awk (book/tools/finduses,
hilite, nw2pandoc, subst run them as python3 -m weave.NAME).

Each reads and writes bytes as awk does: lines split at "\n" only (a last
line without one is a line too, and gets one on output), UTF-8 with any
other byte kept as it is (surrogateescape), so that the output is the
awk programs' byte for byte.
"""
import re
import sys

ENC = 'utf-8'
ERR = 'surrogateescape'


def lines(data):
    """awk's records of a text: split at each newline, none after the last."""
    if isinstance(data, bytes):
        data = data.decode(ENC, ERR)
    ls = data.split('\n')
    if ls[-1] == '':
        ls.pop()
    return ls


def read_stdin():
    return lines(sys.stdin.buffer.read())


def read_file(path):
    """The lines of a file, or None where awk's getline could not open it."""
    try:
        with open(path, 'rb') as f:
            return lines(f.read())
    except OSError:
        return None


def write_stdout(text):
    sys.stdout.buffer.write(text.encode(ENC, ERR))
    sys.stdout.buffer.flush()


_WS = re.compile(r'[ \t\n]+')


def fields(s):
    """awk's split(s, a, " "): the words between blanks, tabs, newlines."""
    return [w for w in _WS.split(s) if w]


def main(filt):
    """Run filt on stdin's lines, write what it returns (a list of lines,
    or a text) on stdout; a closed pipe ends it quietly, as awk (SIGPIPE)."""
    import signal
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    out = filt(read_stdin())
    write_stdout(out if isinstance(out, str) else ''.join(s + '\n' for s in out))
