"""What the history bench (bench/fixes.py) analyses for one commit and side: the tree at that
commit, extracted from a bare git mirror, and for each changed file the compile command of the
project's configured Debian build (bench/projects_build.py), its include paths moved to the
extracted tree, plus the files that define what it calls.

The Debian tree is a later release than most commits: its compile database says which flags a
file is built with and it holds the generated headers (config.h, ...), but the sources and
headers of the commit must win. So every include directory inside the Debian tree becomes the
same directory in the extracted tree when that exists, followed by the Debian one as a fallback.
"""
from __future__ import annotations

import os
import subprocess

import fixes_context as context
import fixes_sources as sources
import peers
import projects
import projects_build as build
from projects_list import BY_NAME, Project

# History names that differ from the real-projects bench's (the Debian source package's name).
ALIASES = {"xz": "xz-utils"}
CONTEXT_CAP = 12          # extra files that give callees' summaries, at most
# What an older release's own build defined and today's no longer does, for this machine
# (x86_64 glibc, systemd), each read only by the older trees: c-ares before its CMake build
# required CARES_SIZEOF_ARES_SOCKLEN_T and CARES_SIZEOF_LONG (ares_rules.h) and
# SIZEOF_SHORT/INT/LONG/SIZE_T (ares_nowarn.c), values its configure computed; nano before
# 2017 included <regex.h> and <stdarg.h>, took glibc's getline and getopt_long only where
# its configure had found them, and declared its signal handlers with RETSIGTYPE;
# multipath-tools' Makefile.inc passed RUN_DIR and LIB_STRING (its defaults.h builds paths of
# them) until RUNTIME_DIR replaced them.
ERA_DEFINES = {"c-ares": ("-DCARES_SIZEOF_ARES_SOCKLEN_T=4", "-DCARES_SIZEOF_LONG=8",
                          "-DSIZEOF_SHORT=2", "-DSIZEOF_INT=4", "-DSIZEOF_LONG=8",
                          "-DSIZEOF_SIZE_T=8"),
               "nano": ("-DHAVE_REGEX_H=1", "-DHAVE_STDARG_H=1", "-DHAVE_GETLINE=1",
                        "-DHAVE_GETOPT_LONG=1", "-DRETSIGTYPE=void"),
               "multipath-tools": ('-DRUN_DIR="run"', '-DLIB_STRING="lib64"')}
_DIR_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter")
_FILE_FLAGS = ("-include", "-imacros")


class NotReproducible(Exception):
    """The side cannot be analysed as the commit had it; the message says why."""


def bench_project(name: str) -> Project | None:
    """The real-projects bench's entry for a history project, if it has one."""
    return BY_NAME.get(ALIASES.get(name, name))


def find_mirror(mirrors: str, repo: str) -> str | None:
    """The bare git directory of `repo` ("owner/name") under `mirrors`, in any of the layouts
    a mirror directory may use, or None."""
    owner, name = repo.split("/", 1)
    for path in (os.path.join(mirrors, f"{owner}+{name}", "repo"),
                 os.path.join(mirrors, f"{owner}+{name}"), os.path.join(mirrors, f"{name}.git")):
        if os.path.isdir(path) and subprocess.run(
                ["git", "-C", path, "rev-parse", "--git-dir"], capture_output=True).returncode == 0:
            return path
    return None


def has_commit(git_dir: str, sha: str) -> bool:
    return subprocess.run(["git", "-C", git_dir, "cat-file", "-e", sha + "^{tree}"],
                          capture_output=True).returncode == 0


def extract(git_dir: str, sha: str, dest: str) -> None:
    """The tree at `sha` into `dest` (nothing else of the repository is needed). A mirror may
    lack its largest blobs (images, test data): those files are left out."""
    os.makedirs(dest, exist_ok=True)
    if _archive(git_dir, [sha], dest) is None:
        return
    missing = _missing_blobs(git_dir, sha)
    err = _archive(git_dir, [sha, "--", "."] + [f":(exclude,literal){p}" for p in missing], dest)
    if err is not None:
        raise NotReproducible(f"git archive {sha[:12]} failed: {err}")


def _archive(git_dir: str, args: list[str], dest: str) -> str | None:
    """`git archive ARGS | tar -x -C dest`: None, or the error's last line."""
    archive = subprocess.Popen(["git", "-C", git_dir, "archive", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    tar = subprocess.run(["tar", "-x", "-C", dest], stdin=archive.stdout, capture_output=True)
    archive.stdout.close()
    err = archive.stderr.read().decode(errors="replace")
    if archive.wait() == 0 and tar.returncode == 0:
        return None
    lines = [ln for ln in (err + tar.stderr.decode(errors="replace")).splitlines() if ln]
    return (lines or ["?"])[0][:300]


def _missing_blobs(git_dir: str, sha: str) -> list[str]:
    """Paths of the tree whose blobs the mirror does not hold."""
    ls = subprocess.run(["git", "-C", git_dir, "ls-tree", "-r", "-z", sha], capture_output=True)
    entries = [e.split("\t", 1) for e in ls.stdout.decode(errors="replace").split("\0") if e]
    blobs = [(meta.split()[2], path) for meta, path in entries if meta.split()[1] == "blob"]
    check = subprocess.run(["git", "-C", git_dir, "cat-file", "--batch-check"],
                           input="\n".join(b for b, _ in blobs) + "\n", capture_output=True,
                           text=True)
    gone = {ln.split()[0] for ln in check.stdout.splitlines() if ln.endswith(" missing")}
    return [p for b, p in blobs if b in gone]


class Build:
    """A configured project: its compile database's C entries, by path relative to the Debian
    source root."""

    def __init__(self, p: Project):
        self.project = p
        self.root = build.source_dir(p)
        self.db_path = build.compile_db(p)
        self.by_rel = {os.path.relpath(e.path, self.root): e
                       for e in projects.c_entries(self.db_path)}

    def entry_for(self, rel: str):
        """(entry, how it matched: path, basename, directory or ancestor) for a changed file, or
        raise NotReproducible."""
        sub = self.project.subdir
        tries = [rel, os.path.join(sub, rel) if sub else None,
                 rel[len(sub) + 1:] if sub and rel.startswith(sub + "/") else None]
        for t in tries:
            if t and t in self.by_rel:
                return self.by_rel[t], "path"
        base = [r for r in self.by_rel if os.path.basename(r) == os.path.basename(rel)]
        if len(base) == 1:
            return self.by_rel[base[0]], "basename"
        # A directory the build does not have yet (c-ares' src/lib/record/) is built as the
        # nearest one above it that the build has.
        d, how = os.path.dirname(rel), "directory"
        while True:
            same_dir = sorted(r for r in self.by_rel if os.path.dirname(r) == d)
            if same_dir:
                return self.by_rel[same_dir[0]], how
            if not d:
                raise NotReproducible(f"no compile command for {rel}")
            d, how = os.path.dirname(d), "ancestor"


def _dir_map(b: Build, entry, rel: str) -> tuple[str, str] | None:
    """(Debian dir, tree dir) when the matched entry lives elsewhere than the changed file
    (c-ares moved its sources to src/lib/): the entry's own directory maps to the file's."""
    deb_dir = os.path.dirname(os.path.relpath(entry.path, b.root))
    tree_dir = os.path.dirname(rel)
    return (deb_dir, tree_dir) if deb_dir != tree_dir else None


def _moved(path: str, b: Build, tree: str, dmap, want_dir: bool) -> list[str]:
    """Where an include path of the Debian tree lies in the extracted tree, if it does."""
    if not (path == b.root or path.startswith(b.root + os.sep)):
        return []
    rel = os.path.relpath(path, b.root)
    cands = [os.path.normpath(os.path.join(tree, rel))]
    if dmap and (rel == dmap[0] or rel.startswith(dmap[0] + "/")):
        cands.append(os.path.normpath(os.path.join(tree, dmap[1], rel[len(dmap[0]):].lstrip("/"))))
    exists = os.path.isdir if want_dir else os.path.isfile
    return [c for c in dict.fromkeys(cands) if exists(c)]


def _split_include(flags: list[str], i: int):
    """(flag, value, tokens used) when flags[i] names an include directory or file."""
    arg = flags[i]
    for flag in _DIR_FLAGS + _FILE_FLAGS:
        if arg == flag and i + 1 < len(flags):
            return flag, flags[i + 1], 2
        if arg.startswith(flag) and len(arg) > len(flag) and flag in ("-I", "-isystem"):
            return flag, arg[len(flag):], 1
    return None


def rewrite_flags(b: Build, entry, rel: str, tree: str) -> list[str]:
    """The entry's compiler flags (output, -c, dependency files and its source dropped), with
    each include path inside the Debian tree moved to the extracted tree where it exists there,
    the Debian path kept after it (generated headers are only there)."""
    flags = peers.analyzer_flags(entry.args, entry.path, entry.directory)
    dmap = _dir_map(b, entry, rel)
    out, i = [], 0
    while i < len(flags):
        inc = _split_include(flags, i)
        if not inc:
            out.append(flags[i])
            i += 1
            continue
        flag, value, used = inc
        path = os.path.normpath(os.path.join(entry.directory, value))
        moved = _moved(path, b, tree, dmap, flag in _DIR_FLAGS)
        if flag in _FILE_FLAGS:   # one file, no fallback: the commit's own when it has it
            out += [flag, (moved or [path])[0]]
        else:
            out += [x for p in moved + [path] for x in (flag, p)]
        i += used
    return out


def header_fallback(tree: str, rel: str, flags: list[str]) -> list[str]:
    """-idirafter for every directory of the tree holding headers that the flags do not name
    yet, nearest the file first: a tree newer than the Debian release includes headers from
    directories its build did not have yet (c-ares' src/lib/include/). After the system's
    directories, so they only fill in what nothing else has."""
    named = {os.path.normpath(f[2:] if f.startswith("-I") and len(f) > 2 else f) for f in flags}
    found = []
    for dirpath, dirnames, names in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        if dirpath not in named and any(n.endswith(".h") for n in names):
            found.append(dirpath)
    here = os.path.join(tree, os.path.dirname(rel))
    found.sort(key=lambda d: (-len(os.path.commonpath([d, here])), d))
    return [x for d in found for x in ("-idirafter", d)]


def without_moved_headers(b: Build, tree: str, flags: list[str]) -> tuple[list[str], dict]:
    """The flags with each Debian include directory that holds a header the tree has moved
    elsewhere (its own copy at another path, none at this one) replaced by a directory of
    links to the rest of it, and those directories ({dir: [Debian dir, left out]}, made by
    `make_links`): the commit's header wins over the release's (c-ares' src/lib/ares_llist.h,
    in src/lib/include/ by then), and the generated ones are still found."""
    tree_files: dict[str, set] = {}
    for dirpath, dirnames, names in os.walk(tree):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for n in names:
            if n.endswith(".h"):
                tree_files.setdefault(n, set()).add(os.path.relpath(dirpath, tree))
    out, links = list(flags), {}
    for i, arg in enumerate(flags[:-1]):
        path = flags[i + 1]
        if arg not in _DIR_FLAGS or not path.startswith(b.root + os.sep) or \
                not os.path.isdir(path):
            continue
        rel = os.path.relpath(path, b.root)
        moved = sorted(n for n in os.listdir(path) if rel not in tree_files.get(n, {rel}))
        if moved:
            out[i + 1] = os.path.join(tree, ".debian", rel)
            links[out[i + 1]] = [path, moved]
    return out, links


def make_links(inputs: dict) -> None:
    """The directories of links the commands name (without_moved_headers), in a tree just
    extracted."""
    for cmd in inputs["commands"] + inputs["context"]:
        for rest, (path, left_out) in cmd.get("links", {}).items():
            if os.path.isdir(rest):
                continue
            os.makedirs(rest)
            for n in sorted(set(os.listdir(path)) - set(left_out)):
                os.symlink(os.path.join(path, n), os.path.join(rest, n))


def command(b: Build, rel: str, tree: str) -> dict:
    """A compile_commands.json entry for the extracted tree's `rel`, with the Debian entry's
    flags (rewritten), and where its Debian directory is (the peers run there)."""
    entry, how = b.entry_for(rel)
    flags, links = without_moved_headers(b, tree, rewrite_flags(b, entry, rel, tree))
    # Last of all the Debian compile's own directory: a generated header a source includes
    # relative to itself (librdkafka's "../config.h") is found there, after everything else.
    flags += header_fallback(tree, rel, flags) + ["-idirafter", entry.directory] + \
        list(ERA_DEFINES.get(b.project.name, ()))
    return {"file": rel, "matched": os.path.relpath(entry.path, b.root), "how": how,
            "compiler": entry.args[0], "flags": flags, "debian_dir": entry.directory,
            **({"links": links} if links else {})}


def side_inputs(b: Build, c: dict, tree: str) -> dict:
    """The compile commands of the changed files present at this side and of their context
    files, and the line ranges of the commit's functions; {"error"} when not reproducible."""
    changed = [f for f in c["files"]
               if f.endswith(".c") and os.path.isfile(os.path.join(tree, f))]
    try:
        cmds = [command(b, f, tree) for f in changed]
    except NotReproducible as err:
        return {"error": str(err)}
    notes, context = [], []
    for rel in context_files(b, tree, {x["file"]: x for x in cmds}, c["functions"]):
        try:
            context.append(command(b, rel, tree))
        except NotReproducible as err:
            notes.append(f"context {rel} left out: {err}")
    ranges = {f: sources.function_ranges(tree, f, c["functions"]) for f in changed}
    out = {"changed": changed, "commands": cmds, "context": context, "ranges": ranges,
           "notes": notes}
    make_links(out)
    return out


# --- the files that define what a changed file calls ---------------------------------------

def tree_c_files(b: Build, tree: str, maps: list) -> list[str]:
    """The extracted tree's .c files that the project's build compiles: those the compile
    database has (same path, or the same name in a directory a changed file was mapped from),
    and, as for a changed file, those it would build with a directory's flags (an older tree's
    files that a later release merged or renamed: lighttpd's data_string.c; a newer tree's
    directories: c-ares's src/lib/dsa/) or the flags of the one file of that name (a file a
    later release moved: multipath-tools' libmultipath/util.c, now libmpathutil/util.c)."""
    out = []
    for dirpath, dirnames, names in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for n in sorted(names):
            if not n.endswith(".c"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, n), tree)
            d = os.path.dirname(rel)
            if rel in b.by_rel or any(d == t and os.path.join(deb, n) in b.by_rel
                                      for deb, t in maps) or _buildable(b, rel):
                out.append(rel)
    return out


def _buildable(b: Build, rel: str) -> bool:
    try:
        b.entry_for(rel)
        return True
    except NotReproducible:
        return False


def context_files(b: Build, tree: str, changed: dict, functions: list[str]) -> list[str]:
    """Up to CONTEXT_CAP files defining what the commit's functions reach (bench/
    fixes_context.py), of those the project's build compiles."""
    maps = [m for rel, c in changed.items()
            if (m := _dir_map(b, b.entry_for(rel)[0], rel))]
    return context.ranked(tree, tree_c_files(b, tree, maps), list(changed),
                          functions)[:CONTEXT_CAP]
