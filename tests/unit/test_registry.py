"""Checkers are found through checkers/registry.py alone, and a new one touches no file under
saturn/ or summaries/: a checker dropped into checkers/ gets its events, its SARIF rule, its
configuration key, its plain-words summary and its search facts."""
import json
import os
import re
import textwrap

import pytest

import checkers
from checkers import registry
from saturn.cfront.discover import from_paths
from saturn.app.config import ConfigError, load_config
from saturn.app.driver import run_check
from saturn.incremental.units import FrontEnd
from saturn.report import sarif
from saturn.symex.options import Options
from summaries import queries
from summaries.render import render

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILT_IN = ["assert", "lock", "leak", "free", "resource"]


def test_the_built_in_checkers_are_found_in_checkers():
    assert registry.names() == BUILT_IN
    assert registry.default_names() == ["lock", "leak", "resource"]
    kinds = [k.name for k in registry.kinds()]
    assert len(kinds) == len(set(kinds)) and "memory.leak" in kinds
    assert all(k.severity in ("error", "warning", "note") and k.help for k in registry.kinds())
    facts = [f.name for _, f in registry.facts()]
    assert len(facts) == len(set(facts)) and "lock_wrapper" in facts


def test_every_checker_has_its_test_folder():
    for name in registry.names():
        folder = os.path.join(ROOT, "tests", "c", name)
        assert os.path.isdir(folder) and os.listdir(folder), name


def test_no_file_under_saturn_or_summaries_names_a_checker():
    """Per-checker code lives in checkers/ only."""
    names = "|".join(re.escape(n) for n in registry.names())
    quoted = re.compile(rf"""(?<!"field", )["']({names})["']""")   # not a field's name
    found = []
    for top in ("saturn", "summaries"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                path = os.path.join(dirpath, f)
                if f.endswith((".py", ".html")):
                    text = open(path, encoding="utf-8").read()
                    found += [(os.path.relpath(path, ROOT), m.group(0))
                              for m in quoted.finditer(text)]
    assert not found


TOY = '''
"""A checker for this test: counts branches, reports reads through pointers."""
from saturn.plugin.checker import Checker, ConfigError, ConfigKey, Fact, Kind, set_summary


def _check(where, key, value, warn):
    if not isinstance(value, int):
        raise ConfigError(f"{where}: '{key}' must be a number")
    return value


class Toy(Checker):
    name = "toy"
    description = "Counts branches."
    kinds = (Kind("toy.read", "note", "A read through a pointer."),)
    facts = (Fact("branchy", "it branches"),)
    config_keys = (ConfigKey("toy_limit", "a number", _check),)
    enabled_by_default = False

    def begin(self, ctx):
        self.keep_state(ctx, {"branches": 0, "calls": []})

    def on_branch(self, ctx, branch, lit, state):
        self.state(ctx)["branches"] += 1

    def on_load(self, ctx, access, state):
        ctx.report(self.name, "toy.read", access.coord, "read", [])

    def pre_call(self, ctx, call, args, state):
        return call.text

    def post_call(self, ctx, call, args, ret, state, token):
        self.state(ctx)["calls"].append(token)

    def finish(self, ctx, exit_state):
        set_summary(ctx, self.name, dict(self.state(ctx)))

    def render_summary(self, summary):
        return [f"toy: {summary['branches']} branches, calls {summary['calls']}"]

    def search_facts(self, summary):
        return ["branchy"] if summary["branches"] else []


CHECKER = Toy()
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    folder = tmp_path / "more"
    folder.mkdir()
    (folder / "toy.py").write_text(TOY)
    monkeypatch.setattr(checkers, "__path__", [*checkers.__path__, str(folder)])
    registry._discover.cache_clear()
    yield
    monkeypatch.undo()
    registry._discover.cache_clear()


def test_a_new_checker_module_is_a_checker_everywhere(toy, tmp_path, monkeypatch):
    assert registry.names() == BUILT_IN + ["toy"] and "toy" not in registry.default_names()
    src = tmp_path / "t.c"
    src.write_text(textwrap.dedent("""\
        int g(int);
        int f(int *p, int k) {
            if (k > 2)
                return *p;
            return g(k);
        }
    """))
    result = run_check(from_paths([str(src)], (), []), registry.load(["toy"]), Options(),
                       FrontEnd(None, str(tmp_path)), log=lambda m: None)
    assert [(r.line, r.kind) for r in result.reports] == [(4, "toy.read")]
    summaries = result.results["f"].summaries
    assert summaries["toy"] == {"branches": 1, "calls": ["g(k)"]}
    assert "toy: 1 branches, calls ['g(k)']" in render("f", summaries)
    assert "branchy" in queries.filters()
    rules = json.loads(sarif.format_all(result.reports, result.stats, registry.kinds()))
    rule = [r for r in rules["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "toy.read"]
    assert rule[0]["help"]["text"] == "A read through a pointer."
    assert rule[0]["defaultConfiguration"]["level"] == "note"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saturn.toml").write_text("toy_limit = 3\n")
    assert load_config() == {"toy_limit": 3}
    (tmp_path / "saturn.toml").write_text('toy_limit = "three"\n')
    with pytest.raises(ConfigError, match="'toy_limit' must be a number"):
        load_config()


def test_the_readme_lists_the_kinds_of_the_registry():
    """README's list of checkers and kinds is `saturn checkers`' output (regenerate it with
    `python -m saturn checkers`)."""
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    block = re.search(r"<!-- saturn checkers -->\n(.*?)<!-- end -->", text, re.S)
    assert block and block.group(1) == registry.describe()
