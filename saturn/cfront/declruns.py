"""How the body cache (NOTE [body-cache] in bodycache.py) cuts a pruned text into units, and
puts the cached ones back in place of their stubs."""
from __future__ import annotations

from pycparser import c_ast

from .fncache import FN_STUB
from .prune import LINE_MARKER

STUB = "__saturn_body_"
SEQ = "__saturn_seq_"   # consecutive stubs: parsing ~1,500 one by one was half of zstd's parse


# NOTE [declaration-runs]: a unit of the cache is a function definition, another declaration
# past MIN_DECLARATION characters, or a run of the smaller ones between those (in one file):
# zstd's single file has ~800 prototypes, typedefs and small structs among its 1,330
# definitions, parsed again at every edit (half of its re-check's lowering). A unit is kept
# with the typedef names it declares, and its stub declares them (`typedef int STUB, T1;`), so
# the rest parses as after the unit itself. A run is worth a file when it is as long as one
# large declaration (a prototype parses in about the time its file takes to read). Which
# header declarations are kept depends on what the main file uses (NOTE [lazy-headers]): a
# large one is a unit of its own so that it stays one when its neighbours come and go.
MIN_DECLARATION = 200


def alone(d) -> bool:
    return d.body or d.end - d.start >= MIN_DECLARATION


def cacheable(ds: list) -> bool:
    return alone(ds[0]) or ds[-1].end - ds[0].start >= MIN_DECLARATION


def units(text: str, decls, spans, lo: int, hi: int):
    """(i, j): the units decls[i:j] starting in [lo, hi). Declarations on one line (a macro
    defining several functions: zstd's 79 `ZSTD_*FindBestMatch_*` were parsed at every edit)
    are one unit; a run of small ones also ends at another file's line marker."""
    i, n = 0, len(decls)
    while i < n:
        if not lo <= decls[i].start < hi:
            i += 1
            continue
        j = i + 1
        while j < n and decls[j].start < hi and spans[j][0] == spans[i][0] and (
                spans[j][1] <= spans[j - 1][2] or not alone(decls[i]) and
                not alone(decls[j]) and all(m[2] == spans[i][0] for m in LINE_MARKER.finditer(
                    text, decls[j - 1].end, decls[j].start))):
            j += 1
        yield i, j
        i = j


def splice(ext: list, hits: dict, seqs: dict) -> list | None:
    """The top-level nodes with each stub replaced by its units: a cached unit's nodes (and
    not the typedef names its stub declares), a cached definition's stub for the lowering
    (NOTE [function-cache]). None if a stub is missing."""
    in_seq = {i for members in seqs.values() for i in members}
    singles = {f"{STUB}{i}": i for i in hits if i not in in_seq}
    sequences = {f"{SEQ}{i}": members for i, members in seqs.items()}
    out, skip = [], 0
    for n in ext:
        if skip:   # the stub's own typedef names, the nodes after it
            skip -= 1
            continue
        name = n.name if isinstance(n, (c_ast.Decl, c_ast.Typedef)) else None
        if name in sequences:
            for i in sequences.pop(name):
                out += hits[i][0] if i in hits else [fn_stub(i, n.coord)]
        elif name in singles:
            i = singles.pop(name)
            out += hits[i][0]
            skip = len(hits[i][1])
        else:
            out.append(n)
    return None if singles or sequences else out


def fn_stub(i: int, coord) -> c_ast.Decl:
    """What `int FN_STUB<i>;` parses to: all the lowering reads of it is the name."""
    name = f"{FN_STUB}{i}"
    return c_ast.Decl(name, [], [], [], [], c_ast.TypeDecl(
        name, [], None, c_ast.IdentifierType(["int"], coord), coord), None, None, coord)


def by_declaration(ext, spans, units, wanted):
    """(i, the nodes parsed from unit i) for each i in `wanted`: a node is unit i's when its
    line is one of i's lines and no other unit's (`units`: (i, j) over all declarations)."""
    owner, shared = {}, set()
    for i, j in units:
        file, first, last = spans[i][0], spans[i][1], spans[j - 1][2]
        for line in range(first, last + 1):
            k = owner.setdefault((file, line), i)
            if k != i:
                shared |= {i, k}
    found: dict[int, list] = {}
    for n in ext:
        i = owner.get((n.coord.file, n.coord.line)) if n.coord else None
        if i in wanted and i not in shared:
            found.setdefault(i, []).append(n)
    return sorted(found.items())
