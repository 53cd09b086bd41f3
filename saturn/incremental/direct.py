"""Direct mode: a file whose preprocessing inputs are all unchanged is not preprocessed again.

NOTE [direct-mode]: as in ccache's direct mode, a manifest per (compiler, command line, file)
lists every file the preprocessor read — taken from the line markers of its output — with its
size and modification time, and the key of the unit lowered from that output (units.py). While
every listed file is unchanged, a re-check loads the unit by that key without running the
compiler. The files are not listed while one of them is younger than the run (it might have
changed under the compiler); the unit is still named, for the function cache's next lowering
of the file (units.py). Limits, as ccache's: a header newly created earlier on the include
path is not noticed, nor a changed environment; `rm -r <db>.units` starts afresh.
"""
from __future__ import annotations

import json
import os
import shutil

from ..cfront.discover import SourceFile
from ..cfront.markers import LINE_MARKER, Names
from ..cfront.preprocess import FrontEndError, command


def _stat(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


class Manifests:
    def __init__(self, cachedir, std: str | None):
        """`lookup` stats each file once a run (the files of one tree share their headers)."""
        self.cachedir, self.std = cachedir, std
        self.stats: dict = {}
        self.compilers: dict = {}

    def _compiler(self, name: str) -> tuple:
        if name not in self.compilers:
            cc = shutil.which(name) or name
            self.compilers[name] = (os.path.realpath(cc), _stat(cc))
        return self.compilers[name]

    def _key(self, src: SourceFile) -> str | None:
        try:
            cmd = command(src, self.std)
        except FrontEndError:
            return None
        return self.cachedir.key("manifest", json.dumps([cmd, src.directory,
                                                      *self._compiler(cmd[0])]))

    def _read(self, src: SourceFile) -> dict:
        key = self._key(src)
        try:
            doc = json.loads(self.cachedir.get(key) or b"{}") if key else {}
        except ValueError:
            return {}
        return doc if isinstance(doc, dict) else {}

    def lookup(self, src: SourceFile) -> str | None:
        """The unit key recorded for `src`, if every file its preprocessing read is unchanged."""
        doc = self._read(src)
        deps, unit = doc.get("deps"), doc.get("unit")
        if not isinstance(deps, list) or not isinstance(unit, str):
            return None
        for path, *stamp in deps:
            if path not in self.stats:
                self.stats[path] = _stat(path)
            if self.stats[path] != stamp:
                return None
        return unit

    def last_unit(self, src: SourceFile) -> str | None:
        """The unit last lowered from `src`, changed since or not."""
        unit = self._read(src).get("unit")
        return unit if isinstance(unit, str) else None

    def record(self, src: SourceFile, text: str, unit: str, started: float,
               found=None) -> None:
        """Remember what preprocessing `src` read and the unit made of it (`found`: the
        text's markers, if found already)."""
        names, deps = Names(src.directory), {src.path: _stat(src.path)}
        if not src.preprocessed:   # (a preprocessed file's markers name files never read)
            for m in LINE_MARKER.finditer(text) if found is None else found:
                if not m[2].startswith("<"):
                    path = names.path(m[2])
                    if path not in deps:
                        deps[path] = _stat(path)
        newest = max((s[1] for s in deps.values() if s), default=0)
        fresh = all(deps.values()) and newest < (started - 1.0) * 1e9
        key = self._key(src)
        if key is not None:
            self.cachedir.put(key, json.dumps(
                {"deps": sorted([p, *s] for p, s in deps.items()) if fresh else None,
                 "unit": unit}).encode("utf-8", "surrogateescape"))
