"""Runs every program under tests/c/<checker>/ with that checker: each checker of the registry
has its folder (test_registry.py checks that none is missing)."""
from __future__ import annotations

import os

import pytest

from cprograms import c_programs, expectations, sources
from saturn import registry
from saturn.cfront.discover import from_paths
from saturn.driver import run_check
from saturn.symex.engine import Options
from summaries.render import render

HERE = os.path.dirname(os.path.abspath(__file__))
AREAS = [name for name in registry.names() if os.path.isdir(os.path.join(HERE, "c", name))]

CASES = [(area, prog) for area in sorted(AREAS)
         for prog in c_programs(os.path.join(HERE, "c", area))]


def _id(case):
    return f"{case[0]}/{os.path.basename(case[1])}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_program(case, request):
    area, program = case
    expected, summaries, xfail = expectations(program)
    if xfail:
        # Run it: a known miss must still miss (strict), so fixing it shows.
        request.applymarker(pytest.mark.xfail(reason=xfail, strict=True))
    logs = []
    result = run_check(from_paths(sources(program), (), []), registry.load([area]),
                       Options(), root=HERE, log=logs.append)
    assert result.stats["skipped_files"] == 0, logs
    assert result.stats["incomplete"] == 0, [r.notes for r in result.results.values()]
    got = {(os.path.basename(r.file), r.line, r.kind) for r in result.reports}
    missing, extra = expected - got, got - expected
    assert not missing and not extra, f"missing: {sorted(missing)}; unexpected: {sorted(extra)}"
    for fn_name, text in summaries:
        keys = [k for k, f in result.program.functions.items() if f.name == fn_name]
        assert keys, f"no function {fn_name}"
        rendered = render(keys[0], result.results[keys[0]].summaries)
        assert text in rendered, rendered
