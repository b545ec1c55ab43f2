"""What an object file holds, read from its bytes (no tool's output to
parse: a name may hold any character).

read(obj): its bytes, section headers and names (the lab screen reads
symbols, instructions and relocations through it).  fatbin(obj): the
GPU code in its .nv_fatbin section, by kind and architecture.
"""
import struct


def read(obj):
    """(bytes, section headers, name, shstrndx) of a 64-bit little-endian
    ELF object, read from its bytes (no tool's output to parse: a name
    may hold any character); a header is (name, type, flags, address,
    offset, size, link, info), name(table, offset) a string of a table."""
    with open(obj, 'rb') as f:
        d = f.read()
    if d[:4] != b'\x7fELF' or d[4] != 2 or d[5] != 1:
        raise ValueError('%s: not a 64-bit ELF object' % obj)
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3A)
    heads = [struct.unpack_from('<IIQQQQII', d, shoff + i * shentsize)
             for i in range(shnum)]

    def name(table, off):
        base = heads[table][4]
        return d[base + off:d.index(b'\0', base + off)].decode('latin-1')
    return d, heads, name, shstrndx


def fatbin(obj):
    """[(kind, architecture)] of the GPU code in an object's or a shared
    library's .nv_fatbin section: kind 'sass' (a cubin, machine code
    for that architecture) or 'ptx' (code the driver compiles for it and
    the GPUs after it).  The section is a run of fat binaries (magic
    0xba55ed50, a 16-byte header, then entries: a 2-byte kind, 1 PTX and
    2 ELF, the entry's header size at byte 4, its payload size at 8,
    and the architecture, as 10 * major + minor, at byte 28)."""
    d, heads, name, shstrndx = read(obj)
    found = []
    for h in heads:
        if name(shstrndx, h[0]) != '.nv_fatbin':
            continue
        off, end = h[4], h[4] + h[5]
        while off + 16 <= end:
            magic, _, head, size = struct.unpack_from('<IHHQ', d, off)
            if magic != 0xBA55ED50:
                off += 8                    # (the binaries are 8-aligned)
                continue
            e, stop = off + head, off + head + size
            while e + 32 <= stop:
                kind, _, ehead, esize = struct.unpack_from('<HHIQ', d, e)
                arch, = struct.unpack_from('<I', d, e + 28)
                if kind in (1, 2):
                    found.append(('ptx' if kind == 1 else 'sass', arch))
                e += ehead + esize
            off = stop
    if not found:
        raise ValueError('%s holds no GPU code (no .nv_fatbin section)' % obj)
    return found
