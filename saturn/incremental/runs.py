"""The outcome of a whole run, given again when nothing it read has changed.

NOTE [run-memo]: a run is a function of its files' lowered units, the checkers with their
specs, the options, Saturn's own source and --root. When direct mode (NOTE [direct-mode])
finds every file's unit unchanged and all of that is what the database's last run had, the
re-check gives that run's reports, statistics and messages again without loading a unit or
looking a function up: the result cache would find every function anyway. The memo lies in
the cache directory under a hash of all of it; the database names the run it last recorded
(meta `last-run`), so a run in between with other files or checkers, which rewrote the
summaries, is never replayed over. A run that lost functions (a dead worker, a cache directory that
failed) leaves no memo: the next one analyses them.
"""
from __future__ import annotations

import hashlib
import json
import os

from ..report.diagnostic import Report
from .direct import Manifests
from .cachedir import salt


def base_key(checkers, options, version: str) -> str:
    """What every result depends on besides its function: Saturn, the options, the checkers
    and their specs."""
    effects = sorted((checkers[0].shared_effects or {}).items()) if checkers else []
    return hashlib.sha256("\x1f".join(
        [version, salt(), options.key(), repr(effects)] +
        [c.specs_fingerprint() for c in checkers]).encode()).hexdigest()


class RunMemo:
    def __init__(self, cachedir, db, root: str, std: str | None, discovery, base: str):
        """`cachedir`: the cache directory; `db`: the summary database; `base`: base_key's."""
        self.cachedir, self.db, self.discovery, self.base = cachedir, db, discovery, base
        self.root, self.std = os.path.abspath(root), std
        self.key = self._key()

    def _key(self) -> str | None:
        """The run's key while every file's unit is known (NOTE [direct-mode]), else None."""
        manifests, parts = Manifests(self.cachedir, self.std), []
        for src in self.discovery.files:
            unit = manifests.lookup(src)
            if unit is None:
                return None
            parts.append([src.path, unit])
        return self.cachedir.key("run", json.dumps([self.base, self.root, parts,
                                                 sorted(self.discovery.missing)]))

    def replay(self) -> dict | None:
        """The last run's outcome, if this run is that one again: reports (Report), stats,
        log (its messages) and files (as reports name them)."""
        if self.key is None or self.db.meta("last-run") != self.key:
            return None
        try:
            doc = json.loads(self.cachedir.get(self.key) or b"null")
            doc["reports"] = [Report.from_json(r) for r in doc["reports"]]
        except (ValueError, TypeError, KeyError):
            return None
        return doc

    def keep(self, reports, stats: dict, log: list, files) -> None:
        """Remember this run's outcome, once the database has recorded it; its key is taken
        again, now that its files' units are known."""
        self.key = self._key()
        if self.key is None:
            self.forget()
            return
        self.cachedir.put(self.key, json.dumps(
            {"reports": [r.to_record() for r in reports], "stats": stats, "log": log,
             "files": sorted(files)}).encode("utf-8", "surrogateescape"))
        self.db.set_meta("last-run", self.key)

    def forget(self) -> None:
        """This run is not one to give again (it lost functions, or its files changed)."""
        self.db.set_meta("last-run", "")
