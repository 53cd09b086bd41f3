"""Direct mode: a file whose preprocessing inputs are all unchanged is not preprocessed again.

NOTE [direct-mode]: as in ccache's direct mode, a manifest per (compiler, command line, file)
lists every file the preprocessor read — taken from the line markers of its output — with its
size and modification time, and the unit-cache key its text had (NOTE [unit-cache]). While every
listed file is unchanged, a re-check loads the lowered unit by that key without running the
compiler. A manifest is not written while one of its files is younger than the run (it might
have changed under the compiler). Limits, as ccache's: a header newly created earlier on the
include path is not noticed, nor a changed environment; `rm -r <db>.units` starts afresh.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil

from .discover import SourceFile
from .files import write_atomically
from .preprocess import LINE_MARKER   # not prune's import: pycparser (NOTE [startup])



def _stat(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


class Manifests:
    def __init__(self, directory: str, remember_stats: bool = False):
        """`remember_stats`: `lookup` stats each file once (the files of one tree share their
        headers: fs/ext2's 13 files made 8,900 stats of ~900 headers); `record`, which looks
        for a file changed while the compiler ran, never reuses one."""
        self.directory = os.path.join(directory, "direct")
        os.makedirs(self.directory, exist_ok=True)
        self.stats: dict | None = {} if remember_stats else None
        self.compilers: dict = {}

    def _stat(self, path: str):
        if self.stats is None:
            return _stat(path)
        if path not in self.stats:
            self.stats[path] = _stat(path)
        return self.stats[path]

    def _compiler(self, name: str) -> tuple:
        if name not in self.compilers:
            cc = shutil.which(name) or name
            self.compilers[name] = (os.path.realpath(cc), _stat(cc))
        return self.compilers[name]

    def _file(self, cmd: list[str], src: SourceFile) -> str:
        key = json.dumps([cmd, src.directory, *self._compiler(cmd[0])])
        return os.path.join(self.directory, hashlib.sha256(key.encode()).hexdigest()[:40] + ".json")

    def lookup(self, cmd: list[str], src: SourceFile) -> str | None:
        """The unit key recorded for this command, if every file it read is unchanged."""
        try:
            with open(self._file(cmd, src), encoding="utf-8") as fh:
                doc = json.load(fh)
            deps, unit = doc["deps"], doc["unit"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not isinstance(unit, str) or any(self._stat(path) != stamp for path, *stamp in deps):
            return None
        return unit

    def seen(self, cmd: list[str], src: SourceFile) -> bool:
        """A manifest exists: when `lookup` fails too, something the file read has changed."""
        return os.path.exists(self._file(cmd, src))

    def record(self, cmd: list[str], src: SourceFile, text: str, unit: str, started: float):
        """Remember what preprocessing `src` read, unless a file changed while it ran."""
        base = src.directory or os.getcwd()
        deps = {}
        for m in LINE_MARKER.finditer(text):
            name = m.group(2)
            name = re.sub(r"\\(.)", r"\1", name) if "\\" in name else name
            if name.startswith("<") or name in deps:
                continue
            deps[name] = _stat(os.path.join(base, name))
        deps.setdefault(src.path, _stat(src.path))
        newest = max((s[1] for s in deps.values() if s), default=0)
        if any(s is None for s in deps.values()) or newest >= (started - 1.0) * 1e9:
            return
        write_atomically(self._file(cmd, src), json.dumps(
            {"deps": [[os.path.join(base, p), *s] for p, s in sorted(deps.items())],
             "unit": unit}).encode("utf-8"))
