"""Which files to analyse, with which preprocessor flags, and how reports name them."""
from __future__ import annotations

import fnmatch
import json
import os
import shlex
from dataclasses import dataclass, field

from .markers import is_preprocessed

C_SUFFIXES = (".c", ".i")   # .i: preprocessed already (markers.py)
SKIPPED_SUFFIXES = {".cc": "C++", ".cpp": "C++", ".cxx": "C++", ".C": "C++", ".s": "assembler",
                    ".S": "assembler", ".asm": "assembler", ".m": "Objective-C"}
# Compiler flags that matter to preprocessing; everything else in a compile command is dropped.
# -O and -m flags are kept because they define macros (__OPTIMIZE__, __SSE__, ...) headers test.
_PP_FLAGS_ALONE = {"-nostdinc", "-fshort-enums", "-funsigned-char", "-fsigned-char", "-fshort-wchar",
                   "-fno-PIE", "-fPIE", "-fpie", "-fPIC", "-fpic"}
_PP_FLAGS_WITH_ARG = {"-I", "-D", "-U", "-include", "-isystem", "-iquote", "-idirafter", "-imacros"}


@dataclass(frozen=True)
class SourceFile:
    path: str                       # absolute, normalised
    flags: tuple[str, ...] = ()     # preprocessor flags for this file
    directory: str = ""             # where the compiler ran (for relative -I and marker names)
    preprocessed: bool = False      # its text is preprocessed already (a .i, or gcc -E output)


def source(path: str, flags: tuple[str, ...], directory: str) -> SourceFile:
    """The file at `path`, told preprocessed or not by its suffix or its first line."""
    done = path.endswith(".i")
    if not done:
        try:
            with open(path, "rb") as fh:
                done = is_preprocessed(fh.read(512).decode("latin-1"))
        except OSError:
            pass   # reported when it is preprocessed
    return SourceFile(path, flags, directory, done)


@dataclass
class Discovery:
    files: list[SourceFile] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)   # paths given that do not exist


def _excluded(path: str, excludes: list[str]) -> bool:
    rel = os.path.relpath(path)
    return any(fnmatch.fnmatch(path, g) or fnmatch.fnmatch(rel, g) or
               fnmatch.fnmatch(os.path.basename(path), g) for g in excludes)


def from_paths(paths: list[str], flags: tuple[str, ...], excludes: list[str]) -> Discovery:
    """Files given directly, and every `*.c` and `*.i` below given directories, in sorted order;
    in a directory, `x.i` beside an `x.c` is left out (it is most likely the `.c`'s own
    preprocessed output, as `gcc -save-temps` leaves it), with a note."""
    found = Discovery()
    seen: set[str] = set()
    for given in paths:
        if os.path.isdir(given):
            candidates = []
            for root, dirs, names in os.walk(given):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for n in sorted(names):
                    if n.endswith(".i") and n[:-2] + ".c" in names:
                        found.notes.append(f"{os.path.join(root, n)}: note: skipped, "
                                           f"{n[:-2]}.c beside it is checked")
                    elif n.endswith(C_SUFFIXES):
                        candidates.append(os.path.join(root, n))
        elif os.path.exists(given):
            candidates = [given]
        else:
            found.notes.append(f"{given}: error: no such file or directory")
            found.missing.append(given)
            continue
        for path in sorted(os.path.abspath(c) for c in candidates):
            if path not in seen and not _excluded(path, excludes):
                seen.add(path)
                found.files.append(source(path, flags, os.path.dirname(path)))
    return found


def _pp_flags(args: list[str]) -> tuple[str, ...]:
    keep: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in _PP_FLAGS_WITH_ARG and i + 1 < len(args):
            keep += [arg, args[i + 1]]
            i += 2
            continue
        if arg.startswith(("-I", "-D", "-U", "-std=", "-isystem", "-iquote", "-include", "-O",
                           "-m")) or arg in _PP_FLAGS_ALONE:
            keep.append(arg)
        i += 1
    return tuple(keep)


def from_compile_commands(db_path: str, extra: tuple[str, ...], excludes: list[str]) -> Discovery:
    """Entries of a compile_commands.json; C++ and assembler entries are skipped with a note."""
    found = Discovery()
    with open(db_path, encoding="utf-8") as fh:
        entries = json.load(fh)
    if not isinstance(entries, list):
        raise ValueError(f"{db_path}: error: expected a JSON list of compile commands")
    seen: set[str] = set()
    for entry in entries:
        # A relative directory is the database's own folder's (clang's tools take it so).
        directory = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(db_path)),
                                                  entry.get("directory", ".")))
        path = os.path.normpath(os.path.join(directory, entry["file"]))
        suffix = os.path.splitext(path)[1]
        if suffix in SKIPPED_SUFFIXES:
            found.notes.append(f"{path}: note: skipped, {SKIPPED_SUFFIXES[suffix]} source")
            continue
        if path in seen or _excluded(path, excludes):
            continue
        seen.add(path)
        args = entry.get("arguments") or shlex.split(entry.get("command", ""))
        flags = tuple(_absolute_includes(_pp_flags(args[1:]), directory)) + extra
        found.files.append(source(path, flags, directory))
    found.files.sort(key=lambda f: f.path)
    return found


def _absolute_includes(flags: tuple[str, ...], directory: str):
    """Relative include directories are relative to the entry's directory."""
    prev = ""
    for flag in flags:
        if prev in ("-I", "-isystem", "-iquote", "-include") and not os.path.isabs(flag):
            flag = os.path.join(directory, flag)
        elif flag.startswith("-I") and len(flag) > 2 and not os.path.isabs(flag[2:]):
            flag = "-I" + os.path.join(directory, flag[2:])
        prev = flag
        yield flag


def relative_to(root: str):
    """Paths as reports show them: relative to --root when inside it, else absolute."""
    root = os.path.abspath(root)
    return lambda path: _relative(path, root)


def _relative(path: str, root: str) -> str:
    if not path or path.startswith("<"):
        return path
    full = os.path.abspath(path)
    return os.path.relpath(full, root) if full.startswith(root + os.sep) else full


def within(found: Discovery, paths: list[str]) -> tuple[Discovery, list[str]]:
    """A compile database's entries at or below the paths given beside it (as `clang-tidy -p`
    takes them), each with its own command; the paths no entry is under come back too, to be
    checked with the command line's flags, each with a note saying so."""
    roots = [os.path.realpath(p) for p in paths]
    kept = [f for f in found.files if any(_under(os.path.realpath(f.path), r) for r in roots)]
    known = [os.path.realpath(f.path) for f in kept]
    lacking = [p for p, r in zip(paths, roots) if not any(_under(k, r) for k in known)]
    notes = found.notes + [f"{p}: note: not in the compile database, checked with the "
                           f"command line's flags" for p in lacking]
    return Discovery(kept, notes, found.missing), lacking


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
