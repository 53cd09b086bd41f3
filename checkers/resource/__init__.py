"""The resource checker: files, descriptors and directories opened and never closed.

`FILE *` from `fopen`, `fdopen`, `popen`, `tmpfile` (closed by `fclose`, `pclose`), descriptors
from `open`, `openat`, `creat`, `socket`, `accept`, `dup`, `pipe` (both ends), `mkstemp`, …
(closed by `close`), `DIR *` from `opendir` (closed by `closedir`), the kernel's file references
(`fget`, `filp_open`: `fput`, `filp_close`) and descriptors not yet installed
(`get_unused_fd_flags`: `put_unused_fd`, `fd_install`), and the users' own pairs (specs.py). The
ownership machinery of the leak checker (ownership/) does the rest: escape routes, allocator and
escapee summaries across calls, reports with a path. A descriptor is an integer: NOTE
[descriptors] in ownership/handles.py.
"""
from __future__ import annotations

from saturn.plugin.checker import Fact, Kind
from saturn.ir import types as T

from ..ownership import render
from ..ownership.memory import NON_CAPTURING
from ..ownership.tracker import OwnershipChecker
from ..library import SPEC_KEY
from .specs import (ACQUIRE, CONSUME, EXTRA, OUT_ACQUIRE, OUT_NOUN, RELEASE, RESOURCE_KEY, USE,
                    user_specs)


class ResourceChecker(OwnershipChecker):
    name = "resource"
    description = ("Files, descriptors and directories that can be left open, with the leak "
                   "checker's escape analysis and summaries across calls.")
    kind = "resource.leak"
    kinds = (Kind("resource.leak", "warning",
                  "A file, descriptor, socket or directory opened here can be left open and "
                  "unreachable on some path: nothing closes it, keeps it or returns it. A "
                  "descriptor counts as opened where it is above 2 (negative is failure; 0, 1 "
                  "and 2 are the standard streams)."),)
    facts = (Fact("opener", "it returns a resource it opened (or a failure)"),
             Fact("closer", "it closes or keeps a resource its caller hands it"),
             Fact("opens_out", "it hands a resource it opened out through an out-parameter"))
    config_keys = (RESOURCE_KEY, SPEC_KEY)
    summary_version = 6
    thing = "resource"
    release_note = "closes it"
    lost_note = "it is still open"
    kept_note = "closes or keeps it"
    non_capturing = NON_CAPTURING | USE
    arrays_escape = False   # `int fds[2]` owns pipe's descriptors (ownership/escape.py)
    writes_returned_param = False   # NOTE [result-writers]

    def __init__(self, acquires=None, releases=None, outs=None, nouns=None, consumes=None,
                 extra=None):
        self.acquires = dict(ACQUIRE, **(acquires or {}))
        self.releases = dict(RELEASE, **(releases or {}))
        self.out_acquires = dict(OUT_ACQUIRE, **(outs or {}))
        self.out_nouns = dict(OUT_NOUN, **(nouns or {}))
        self.consumes = dict(CONSUME, **(consumes or {}))
        self.extra = dict(EXTRA, **(extra or {}))

    def configured(self, config):
        return ResourceChecker(*user_specs(config)) if config else self

    def has_descriptors(self):
        return True

    def may_own(self, ctype):
        # A file is a struct (FILE, DIR, the kernel's struct file), or opaque (a user's
        # handle); a struct or a pointer may hold one. Bytes, numbers and arrays of them are
        # buffers: no summary asks whether they escape.
        while isinstance(ctype, T.ArrT):
            ctype = ctype.elem
        return not isinstance(ctype, (T.IntT, T.FloatT))

    def library_effects(self):
        return {}   # memory effects are the engine's default (the leak checker's for the rest)

    def acquired_by(self, what):
        return f"{self.acquires.get(what) or self.out_nouns.get(what, 'resource')} opened by"

    def render_summary(self, summary):
        return render.summary_lines(self.name, self.thing, summary, "a failure")

    def search_facts(self, summary):
        holds = {"opener": bool(summary.get("allocator")),
                 "closer": bool(summary.get("escapees") or summary.get("escapees_if") or
                               summary.get("values") or summary.get("values_if")),
                 "opens_out": bool(summary.get("out_alloc"))}
        return [f.name for f in self.facts if holds[f.name]]


CHECKER = ResourceChecker()
