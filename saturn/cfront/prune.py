"""Choosing the header declarations a file needs, before parsing.

NOTE [lazy-headers]: a kernel file's preprocessed text is tens of thousands of lines, nearly
all of it header declarations the file never uses (prototypes, structs, enums, static inlines),
so only what the file needs is parsed. A token scan (no parse) splits the text into top-level
declarations, guesses the names each declares (declarator names, struct/union/enum tags,
enumerators; a guess may name too much, never too little while the typedefs are known) and
collects every identifier each mentions. The file's own declarations (NOTE [own-files] in
markers.py) are kept, and then every declaration declaring a name a kept one mentions, to a
fixed point; only those are parsed (parse.py). Mentioning is a superset of using, so every
type, enumerator, global and body the lowering can need stays; the lowering then lowers only
bodies something calls (ir/lower.py). On text it cannot split, or when a kept declaration does
not parse alone, the whole text is parsed.
"""
from __future__ import annotations

import re

from .gnu_parser import EXTRA_TYPE_NAMES
from .markers import LINE_MARKER

_TOKEN = re.compile(r"""(?P<marker>^\#[^\n]*$)|(?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
                    r"""|(?P<num>\d[\w.]*)|(?P<id>[A-Za-z_]\w*)|(?P<p>[{}()\[\];=,])""", re.M)
_BRACES = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[{}]""")
_PARENS = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[()]""")
_IDENT = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\d[\w.]*|([A-Za-z_]\w*)""")
# A name followed by a parenthesised group that is not a declarator: its contents are mentions.
_GROUPS = frozenset({"__attribute__", "__attribute", "asm", "__asm__", "__asm", "typeof",
                     "__typeof__", "__typeof", "_Static_assert", "_Alignas", "__declspec",
                     "__alignof__", "_Alignof", "sizeof"})
_TAGS = frozenset({"struct", "union", "enum"})
_TYPE_WORDS = frozenset("""void char short int long float double signed unsigned _Bool _Complex
    __complex__ const volatile restrict static extern inline register auto typedef __inline
    __inline__ __restrict __restrict__ __const __volatile __volatile__ __signed __signed__
    _Noreturn _Atomic __extension__ __thread _Thread_local __int128 __label__""".split()) \
    | EXTRA_TYPE_NAMES


class _Unbalanced(Exception):
    pass


class _Decl:
    """A top-level declaration: its span, whether it is the file's own (`main`), whether it is
    a function definition (`body`). `declared` and `mentions` are sets while it is read,
    tuples once it is complete."""
    __slots__ = ("start", "end", "main", "typedef", "declared", "mentions", "body")

    def __init__(self, start: int, main: bool):
        self.start, self.end, self.main, self.typedef = start, start, main, False
        self.declared: set[str] = set()
        self.mentions: set[str] = set()
        self.body = False

    def moved(self, by: int) -> "_Decl":
        """The same declaration `by` characters further on."""
        d = _Decl(self.start + by, self.main)
        d.end, d.typedef, d.body = self.end + by, self.typedef, self.body
        d.declared, d.mentions = self.declared, self.mentions
        return d

    def same(self, other: "_Decl") -> bool:
        """Whether both declare and mention the same names, alike."""
        return (self.main, self.typedef, self.body) == (other.main, other.typedef, other.body) \
            and set(self.declared) == set(other.declared) and \
            set(self.mentions) == set(other.mentions)


def kept_declarations(text: str, own: set[str]) -> list[_Decl] | None:
    """The top-level declarations of `text` a file whose own text the markers name `own` needs
    (NOTE [lazy-headers]), in order; None if the text could not be split."""
    decls = declarations(text, own)
    return None if decls is None else needed(decls)


def declarations(text: str, own: set[str], known: list = (), tail: tuple = ((), None)) \
        -> list[_Decl] | None:
    """Every top-level declaration of `text`; `known`: its first ones, scanned before (their
    text unchanged since), after which the scan goes on. `tail`: (its last ones, scanned before
    and moved to where they are now; the typedef names declared up to the first of them): the
    scan stops at the first if it finds it there alike, with the same typedef names. None if
    the text could not be split."""
    scanner = _Scanner(own)
    for d in known:
        if d.typedef:
            scanner.typedefs.update(d.declared)
    pos, out = known[-1].end if known else 0, list(known)
    rest, typedefs = tail
    try:
        for d, _ in scanner.decls(text, pos, _own_at(text, pos, own)):
            if rest and d.start >= rest[0].start:
                if d.start == rest[0].start and d.same(rest[0]) and \
                        scanner.typedefs == typedefs:
                    return out + list(rest)
                rest = ()
            out.append(d)
        return out
    except _Unbalanced:
        return None


def needed(decls: list[_Decl]) -> list[_Decl]:
    """The declarations the file's own ones need, to a fixed point (NOTE [lazy-headers])."""
    keep = needed_by(decls, [i for i, d in enumerate(decls) if d.main])
    return [d for i, d in enumerate(decls) if i in keep]


def _own_at(text: str, pos: int, own: set[str]) -> bool:
    """Whether the file's own text is current at `pos` (before any marker, it is)."""
    at = text.rfind("\n#", 0, pos)
    while at >= 0:
        m = LINE_MARKER.match(text, at + 1)
        if m:
            return m[2] in own
        at = text.rfind("\n#", 0, at)
    m = LINE_MARKER.match(text)
    return m[2] in own if m and m.start() < pos else True


def names_in(text: str) -> set[str]:
    """The identifiers a text mentions (outside string and character literals)."""
    return {m[1] for m in _IDENT.finditer(text) if m[1]}


def needed_by(decls: list[_Decl], roots, mentions=None) -> set[int]:
    """The indexes of the declarations those at `roots` need, theirs included; `mentions`:
    {index: names} taken instead of what those declarations mention."""
    mentions = mentions or {}
    by_name: dict[str, list[int]] = {}
    for i, d in enumerate(decls):
        for name in d.declared:
            by_name.setdefault(name, []).append(i)
    keep = set(roots)
    seen: set[str] = set()
    work = [name for i in sorted(keep) for name in mentions.get(i, decls[i].mentions)]
    while work:
        name = work.pop()
        if name in seen:
            continue
        seen.add(name)
        for i in by_name.get(name, ()):
            if i not in keep:
                keep.add(i)
                work.extend(mentions.get(i, decls[i].mentions))
    return keep


def _closing(pattern, opener: str, text: str, start: int) -> int:
    """Past the bracket closing one already open at `start` (`pattern` finds both kinds, and
    string and character literals, which count for nothing)."""
    closer = {"{": "}", "(": ")"}[opener]
    depth = 1
    for m in pattern.finditer(text, start):
        depth += (m.group() == opener) - (m.group() == closer)
        if depth == 0:
            return m.end()
    raise _Unbalanced()


class _Scanner:
    """One pass over the tokens; the state of the declaration being read lives here."""

    def __init__(self, own: set[str]):
        self.own, self.typedefs = own, set()

    def decls(self, text: str, pos: int = 0, in_main: bool = True):
        """Yield each declaration from `pos` (a place between declarations; `in_main`: whether
        the main file is current there — before any line marker, the file itself is), with
        whether it is after the declaration."""
        cur = None
        search = _TOKEN.search
        while (m := search(text, pos)) is not None:
            kind, v, pos = m.lastgroup, m.group(), m.end()
            if kind == "marker":
                mm = LINE_MARKER.match(v)
                if mm:
                    in_main = mm.group(2) in self.own
                continue
            if kind in ("str", "num"):
                continue
            if cur is None:
                cur = _Decl(m.start(), in_main)
                self._begin(cur)
            if v == "(" and not self.braces and (self.group_next or self.named):
                pos = self._skip_parens(text, pos)
                continue
            done = self._token(v, kind == "id")
            if v == "{" and self.braces == 1 and not self.enum_body:
                pos, in_main = self._skip_body(text, pos, in_main)
                done = self.function_body
            if done:
                cur.end, cur.body = pos, self.function_body
                if cur.typedef:
                    self.typedefs |= cur.declared
                cur.declared, cur.mentions = tuple(cur.declared), tuple(cur.mentions)
                yield cur, in_main
                cur = None
        if cur is not None:
            raise _Unbalanced()

    def _skip_body(self, text: str, start: int, in_main: bool) -> tuple[int, bool]:
        """Past the `}` closing a struct or function body (only its names matter, so no
        token-by-token walk): (position, whether the main file is current there)."""
        end = _closing(_BRACES, "{", text, start)
        self.decl.mentions.update(_IDENT.findall(text, start, end))  # "" for strings, numbers
        for mm in LINE_MARKER.finditer(text, start, end):  # `#include` inside a body
            in_main = mm.group(2) in self.own
        self.braces, self.prev = 0, "}"
        return end, in_main

    def _skip_parens(self, text: str, start: int) -> int:
        """Past the `)` closing an attribute, `typeof`, `asm` or parameter list: only the
        names in it matter (mentions), so no token-by-token walk."""
        end = _closing(_PARENS, "(", text, start)
        self.decl.mentions.update(_IDENT.findall(text, start, end))
        if self.group_next:  # `prev` and a pending tag stay: `struct __attribute__((x)) s {`
            self.group_next = False
        else:  # a parameter list: the declarator's name is behind
            self.collecting, self.prev, self.tag_kind, self.tag = False, ")", None, None
        return end

    def _begin(self, decl: _Decl) -> None:
        self.decl, self.braces, self.parens = decl, 0, 0
        self.group_next = self.function_body = self.enum_body = self.has_eq = False
        self.collecting, self.named, self.tag_kind, self.tag, self.prev = True, False, None, None, None
        self.enumerator_next = False

    def _token(self, v: str, is_id: bool) -> bool:
        """Take one token; True when it ends the declaration."""
        d = self.decl
        if is_id:
            d.mentions.add(v)
        if self.braces:
            return self._in_braces(v, is_id)
        if is_id:
            self._name_at_top(v)
            return False
        return self._punct_at_top(v)

    def _name_at_top(self, v: str) -> None:
        if v in _GROUPS:  # `prev` and a pending tag stay: `struct __attribute__((x)) s {`
            self.group_next = True
            return
        tag_kind, tag, self.tag_kind, self.tag = self.tag_kind, self.tag, None, None
        if v == "typedef":
            self.decl.typedef = True
        elif v in _TAGS:
            self.tag_kind = v
        elif tag_kind is not None and tag is None:
            self.tag_kind, self.tag = tag_kind, v  # decided at `{`: a definition or a use
        elif v in _TYPE_WORDS or (v in self.typedefs and not self.named):
            pass
        elif self.collecting:
            self.decl.declared.add(v)
            self.named = True
        self.prev = v

    def _punct_at_top(self, v: str) -> bool:
        self.group_next = False
        if v == "(":  # before the declarator's name: `(*fp)` (groups, parameters: _skip_parens)
            self.parens += 1
        elif v == ")":
            self.parens -= 1
            if self.parens < 0:
                raise _Unbalanced()
        elif v == "{":
            self._open_brace()
            return False
        elif v == "}":
            raise _Unbalanced()
        elif self.parens == 0 and v == ";":
            return True
        elif v == "[" and self.named:
            self.collecting = False
        elif self.parens == 0 and v == "=":
            self.has_eq, self.collecting = True, False
        elif self.parens == 0 and v == ",":
            self.has_eq, self.collecting, self.named = False, True, False
        self.prev, self.tag_kind, self.tag = v, None, None
        return False

    def _open_brace(self) -> None:
        if self.tag_kind is not None:
            if self.tag is not None:
                self.decl.declared.add(self.tag)
            self.enum_body = self.enumerator_next = self.tag_kind == "enum"
        elif not self.has_eq and self.prev == ")" and self.parens == 0:
            self.function_body = True
        self.tag_kind = self.tag = None
        self.braces = 1

    def _in_braces(self, v: str, is_id: bool) -> bool:
        if self.enum_body and self.braces == 1:
            if is_id and self.enumerator_next:
                self.decl.declared.add(v)
            self.enumerator_next = v == "," and self.parens == 0
        if v in "()":
            self.parens += 1 if v == "(" else -1
        elif v == "{":
            self.braces += 1
        elif v == "}":
            self.braces -= 1
            if self.braces == 0:
                self.enum_body = False
                self.prev = "}"
                return self.function_body
        return False
