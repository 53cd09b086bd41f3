"""The token scan of a file kept from one run to the next (NOTE [incremental-scan]): prune.py's
scanner reads only what an edit changed."""
from __future__ import annotations

import bisect

from ..ir.digest import NUMBER
from .preprocess import LINE_MARKER

# NOTE [incremental-scan]: the scan of a kernel file's ~55k lines took 0.5-0.7 s, a third of a
# one-function re-check of fs/ext2, and zstd's 46k-line amalgamation 0.15 s of its 0.85 s; an
# edit changes a few lines of it. `memo` keeps each file's last scan (its text, declarations,
# and whether the main file is current after each); the next scan takes the declarations that
# end before the first changed character as they were, scans from there, and takes the old
# ones after the last changed character (moved by the change in length) from the first end of
# a new declaration that is an old one's end inside the unchanged tail, with the same state
# there: the same main-file flag and the same typedef names (a typedef added or dropped by the
# edit changes every later declaration's guesses: then the scan goes to the end). The tail is
# compared with the old text as gcc would write it after the lines the edit added, if that
# leaves a longer common tail: its main-file markers and line constants past the change that
# many lines on (every marker and `assert` after an added line changes: zstd's first edit
# rescanned 900 declarations, to its last `assert`).
def scan(scanner, text: str, main_file: str, memo) -> list:
    """The declarations `scanner` (prune.py's) finds in `text`, reusing `memo`'s last scan."""
    last = memo.last_scan(main_file) if memo is not None else None
    decls, ends = _rescan(scanner, text, *last) if last else _all(scanner.decls(text))
    if memo is not None:   # (before prune_decls moves the kept ones)
        memo.keep_scan(main_file, (text, decls, ends))
    return decls


def _all(pairs) -> tuple[list, list]:
    decls, ends = [], []
    for d, in_main in pairs:
        decls.append(d)
        ends.append(in_main)
    return decls, ends


def _rescan(scanner, text: str, old: str, old_decls: list, old_ends: list):
    same = _common(old, text, 1)
    k = bisect.bisect_left([d.end for d in old_decls], same)   # those ending before `same`
    decls, ends = old_decls[:k], old_ends[:k]
    for d in decls:
        if d.typedef:
            scanner.typedefs.update(d.declared)
    tail, moved = len(text) - _common(old, text, -1), _unmoved
    lines = text.count("\n") - old.count("\n")
    if lines:   # with gcc's markers renumbered, if that leaves a longer common tail
        renumbered, by = _renumbered(old, same, lines, scanner.main_file)
        if len(text) - _common(renumbered, text, -1) < tail:
            old, moved, tail = renumbered, by, len(text) - _common(renumbered, text, -1)
    shift = len(text) - len(old)
    at_end = {}
    for i, d in enumerate(old_decls):
        if d.end + moved(d.end) + shift >= tail:
            at_end[d.end + moved(d.end)] = i
    pos, in_main = (decls[-1].end, ends[-1]) if decls else (0, True)
    for d, in_main in scanner.decls(text, pos, in_main):
        decls.append(d)
        ends.append(in_main)
        i = at_end.get(d.end - shift) if d.end >= tail else None
        if i is None or old_ends[i] != in_main:
            continue
        if set().union(*(o.declared for o in old_decls[:i + 1] if o.typedef)) != \
                scanner.typedefs:
            return _rest(scanner, text, decls, ends)
        for o in old_decls[i + 1:]:
            o.start, o.end = o.start + moved(o.start) + shift, o.end + moved(o.end) + shift
        return decls + old_decls[i + 1:], ends + old_ends[i + 1:]
    return decls, ends


def _unmoved(pos: int) -> int:
    return 0


def _renumbered(old: str, after: int, lines: int, main_file: str):
    """`old` past `after` as gcc writes it after an edit there that adds `lines` lines: the
    main file's markers, and its numbers equal to their line (`__LINE__`), that many lines on;
    and how far each place of `old` moved in it. (Only how much is reused depends on this: the
    tail reused is compared with the new text.)"""
    changes = []   # (start, end, new text), in order
    marks = list(LINE_MARKER.finditer(old, _line_start_of_marker_before(old, after)))
    for k, m in enumerate(marks):
        if m[2] != main_file:
            continue
        if m.start() >= after:
            changes.append((m.start(1), m.end(1), str(int(m[1]) + lines)))
        end = marks[k + 1].start() - 1 if k + 1 < len(marks) else len(old)
        pos, line = old.find("\n", m.end()) + 1, int(m[1])
        for ln in old[pos:end].split("\n"):   # (a substring test a line: ~5 ms for zstd)
            here = str(line)
            if pos + len(ln) >= after and here in ln:
                changes += [(pos + n.start(), pos + n.end(), str(line + lines))
                            for n in NUMBER.finditer(ln)
                            if n[0] == here and pos + n.start() >= after]
            pos, line = pos + len(ln) + 1, line + 1
    pieces, at, places, moves, by = [], 0, [], [], 0
    for start, end, text in sorted(changes):
        pieces += [old[at:start], text]
        at, by = end, by + len(text) - (end - start)
        places.append(end)
        moves.append(by)
    pieces.append(old[at:])

    def moved(pos):
        k = bisect.bisect_right(places, pos) - 1
        return moves[k] if k >= 0 else 0
    return "".join(pieces), moved


def _line_start_of_marker_before(text: str, pos: int) -> int:
    """Where the last line marker before `pos` starts (0 if none)."""
    at = text.rfind("\n#", 0, pos)
    while at >= 0 and not LINE_MARKER.match(text, at + 1):
        at = text.rfind("\n#", 0, at)
    return at + 1 if at >= 0 else 0


def _rest(scanner, text, decls, ends):
    """The scan to the end of the text, from the last declaration's end."""
    more = _all(scanner.decls(text, decls[-1].end, ends[-1]))
    return decls + more[0], ends + more[1]


def _common(a: str, b: str, direction: int, steps=(1 << 16, 1 << 9)) -> int:
    """How many characters `a` and `b` share at their start (direction 1) or end (-1), to
    within the last step."""
    n, done = min(len(a), len(b)), 0
    for step in steps:
        while done + step <= n and (
                a[done:done + step] == b[done:done + step] if direction > 0 else
                a[len(a) - done - step:len(a) - done] == b[len(b) - done - step:len(b) - done]):
            done += step
    return done
