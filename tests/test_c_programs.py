"""Runs every program under tests/c/<checker>/ with that checker: each checker of the registry
has its folder (test_registry.py checks that none is missing)."""
from __future__ import annotations

import os
import subprocess

import pytest

from cprograms import also_expected, also_shown, c_programs, expectations, sources
from checkers import registry
from saturn.cfront.discover import from_paths
from saturn.app.driver import run_check
from saturn.incremental.units import FrontEnd
from saturn.symex.options import Options
from summaries.render import render

HERE = os.path.dirname(os.path.abspath(__file__))
AREAS = [name for name in registry.names() if os.path.isdir(os.path.join(HERE, "c", name))]

CASES = [(area, prog) for area in sorted(AREAS)
         for prog in c_programs(os.path.join(HERE, "c", area))]


def _id(case):
    return f"{case[0]}/{os.path.basename(case[1])}"


def _check(paths, area):
    logs = []
    result = run_check(from_paths(paths, (), []), registry.load([area]), Options(),
                       FrontEnd(None, HERE), log=logs.append)
    return result, logs


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_program(case, request):
    area, program = case
    expected, summaries, xfail = expectations(program)
    if xfail:
        # Run it: a known miss must still miss (strict), so fixing it shows.
        request.applymarker(pytest.mark.xfail(reason=xfail, strict=True))
    result, logs = _check(sources(program), area)
    assert result.stats.skipped_files == 0, logs
    assert result.stats.incomplete == 0, [r.notes for r in result.results.values()]
    got = {(os.path.basename(r.file), r.line, r.kind) for r in result.reports}
    missing, extra = expected - got, got - expected
    assert not missing and not extra, f"missing: {sorted(missing)}; unexpected: {sorted(extra)}"
    assert also_shown(result.reports) == also_expected(program)
    for fn_name, text in summaries:
        keys = [k for k, f in result.program.functions.items() if f.name == fn_name]
        assert keys, f"no function {fn_name}"
        rendered = render(keys[0], result.results[keys[0]].summaries)
        assert text in rendered, rendered


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_preprocessed_program_gives_the_same_reports(case, tmp_path):
    """NOTE [own-files]: `gcc -E x.c > x.i` of each program, checked as the .i files, gives the
    program's reports, at the original files and lines (and its summaries)."""
    area, program = case
    direct, _ = _check(sources(program), area)
    made = []
    for src in sources(program):
        out = tmp_path / (os.path.basename(src)[:-2] + ".i")
        out.write_bytes(subprocess.run(["gcc", "-E", src], capture_output=True, check=True,
                                       cwd=os.path.dirname(src)).stdout)
        made.append(str(out))
    result, logs = _check(made, area)
    assert result.stats.skipped_files == 0 and result.stats.functions > 0, logs
    assert [r.to_record() for r in result.reports] == [r.to_record() for r in direct.reports]
    assert {k: render(k, r.summaries) for k, r in result.results.items()} == \
        {k: render(k, r.summaries) for k, r in direct.results.items()}


FREE_CASES = [prog for area, prog in CASES if area == "free"]


@pytest.mark.parametrize("program", FREE_CASES, ids=[os.path.basename(p) for p in FREE_CASES])
def test_free_beside_the_leak_checker(program, request):
    """The free checker finds what it finds alone when the leak checker runs beside it (the
    leak checker writes what it hands out through out-parameters: NOTE [result-writers])."""
    expected, _, xfail = expectations(program)
    if xfail:   # a known miss, as in test_program
        request.applymarker(pytest.mark.xfail(reason=xfail, strict=True))
    logs = []
    result = run_check(from_paths(sources(program), (), []), registry.load(["leak", "free"]),
                       Options(), FrontEnd(None, HERE), log=logs.append)
    got = {(os.path.basename(r.file), r.line, r.kind) for r in result.reports
           if r.checker == "free"}
    assert got == expected, logs
