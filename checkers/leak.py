"""The leak checker (§2.6): new memory that can become unreachable without being freed.

Allocations (`malloc`, `calloc`, `realloc`, `strdup`, `asprintf`, `getline`, the kernel's
`kmalloc` family, … and the users' own) and frees are specs (ownership/memory.py); the
escape analysis, summaries and reports are the ownership machinery (ownership/), shared with the
resource checker.
"""
from __future__ import annotations

from saturn.plugin.checker import Fact, Kind

from .library import SPEC_KEY
from .ownership import render
from .ownership.memory import (ALLOC, ALLOC_KEY, EXTRA, FREE, FREE_KEY, NON_CAPTURING, OUT_ALLOC,
                               load_user_specs)
from .ownership.tracker import OwnershipChecker


class LeakChecker(OwnershipChecker):
    name = "leak"
    description = ("Memory that can be lost without being freed (§2.6), with allocator and escapee "
                   "summaries across calls.")
    kind = "memory.leak"
    kinds = (Kind("memory.leak", "warning",
                  "Memory allocated here can become unreachable without being freed."),)
    facts = (Fact("allocator", "it returns only null or memory it allocated"),
             Fact("escapees", "memory its parameters reach escapes through it"),
             Fact("out_alloc", "it hands new memory out through an out-parameter"))
    config_keys = (ALLOC_KEY, FREE_KEY, SPEC_KEY)
    summary_version = 7
    non_capturing = NON_CAPTURING

    def __init__(self, allocs=None, outs=None, frees=None, extra=None):
        self.acquires = dict(ALLOC, **(allocs or {}))
        self.out_acquires = dict(OUT_ALLOC, **(outs or {}))
        self.releases = dict(FREE, **(frees or {}))
        self.extra = dict(EXTRA, **(extra or {}))

    def specs_fingerprint(self):
        return f"leak:{self.summary_version}:{sorted(self.acquires.items())}:" \
               f"{sorted(self.releases.items())}:{sorted(self.out_acquires.items())}:" \
               f"{sorted((k, sorted(v.items())) for k, v in self.extra.items())}"

    def configured(self, config):
        return LeakChecker(*load_user_specs(config)) if config else self

    def search_facts(self, summary):
        holds = render.facts(summary)
        return [f.name for f in self.facts if holds[f.name]]


CHECKER = LeakChecker()
