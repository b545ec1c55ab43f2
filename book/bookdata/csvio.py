"""The one reader of the book's CSV files.

A file's first line is its header; a row is a dict from column name to
the text of the field.  Fields in double quotes (Nsight Compute's pages)
are read as one field, without their quotes.  Row.get(name) is "" where
the file has no such column, as every tool expects.
"""


def split(line):
    """The fields of one line."""
    if '"' not in line:
        return line.split(',')
    out = []
    while True:
        if line.startswith('"'):
            end = line.find('"', 1)
            if end < 0:
                out.append(line[1:])
                line = ''
            else:
                out.append(line[1:end])
                line = line[end + 1:]
        else:
            cut = line.find(',')
            cut = len(line) if cut < 0 else cut
            out.append(line[:cut])
            line = line[cut:]
        if not line.startswith(','):
            break
        line = line[1:]
        if line == '':
            out.append('')
            break
    return out


class Row(dict):
    """One data row: row["m"] or row.get("m"); a missing column is ""."""

    def __missing__(self, key):
        return ''

    def get(self, key, default=''):
        return dict.get(self, key, default)


class Table:
    """A CSV file: .columns (in order), .rows (Row each), .path."""

    def __init__(self, path, columns, rows):
        self.path, self.columns, self.rows = path, columns, rows

    def has(self, column):
        return column in self.columns

    def __iter__(self):
        return iter(self.rows)


def read(path):
    """The table of a CSV file (an empty one if the file is empty)."""
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    if not lines:
        return Table(path, [], [])
    cols = split(lines[0])
    index = {}
    for i, c in enumerate(cols):
        index[c] = i          # a repeated name: the last column wins
    rows = []
    for line in lines[1:]:
        f = split(line)
        rows.append(Row({c: f[i] if i < len(f) else ''
                         for c, i in index.items()}))
    return Table(path, cols, rows)
