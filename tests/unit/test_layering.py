"""The import rules of docs/ARCHITECTURE.md "Layers", read from its table: a module imports only
its own package and those its package's row allows (`importlib` loads included), every package
has a row, the rows form no cycle, and no module imports itself through others."""
import ast
import os
import re

import networkx as nx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOPS = ("saturn", "checkers", "summaries")
_ROW = re.compile(r"^\| `([\w.]+)` \| \d+ \| [^|]* \| (.*) \|$")


def _allowed() -> dict[str, set[str]]:
    """The table of docs/ARCHITECTURE.md: package -> the packages it may import."""
    text = open(os.path.join(ROOT, "docs", "ARCHITECTURE.md"), encoding="utf-8").read()
    section = text.split("## Layers and their import rules", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = _ROW.match(line)
        if m:
            rows[m[1]] = set(re.findall(r"`([\w.]+)`", m[2]))
    return rows


def _package(module: str) -> str:
    """The row a module belongs to: saturn's sub-package, `saturn.__main__`, the face `saturn`,
    or the top-level package."""
    parts = module.split(".")
    if parts[0] != "saturn":
        return parts[0]
    if len(parts) > 1 and (os.path.isdir(os.path.join(ROOT, "saturn", parts[1]))
                           or parts[1] == "__main__"):
        return f"saturn.{parts[1]}"
    return "saturn"


def _loaded(call: ast.Call) -> str | None:
    """The module (or package prefix) an `importlib.import_module("x...")` call loads."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
    if name not in ("import_module", "__import__") or not call.args:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        arg = arg.values[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value.rstrip(".")
    return None


def _imports(path, names=False):
    """The modules `path` imports (and loads by importlib); with `names`, `from m import n`
    also gives `m.n` (n may be a module)."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    pkg = os.path.relpath(os.path.dirname(path), ROOT).replace(os.sep, ".")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            yield module
            if names or not node.module:   # `from . import x`: x is the module
                yield from (f"{module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Call) and _loaded(node):
            yield _loaded(node)


def _files():
    for top in TOPS:
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            for n in sorted(names):
                if n.endswith(".py"):
                    yield os.path.join(dirpath, n)


def _module(path):
    rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
    return rel[:-len(".__init__")] if rel.endswith(".__init__") else rel


def test_every_package_has_a_row():
    rows = _allowed()
    packages = {_package(_module(p)) for p in _files()}
    assert packages == set(rows), (sorted(packages - set(rows)), sorted(set(rows) - packages))


def test_the_rows_form_no_cycle():
    graph = nx.DiGraph([(p, q) for p, qs in _allowed().items() for q in qs])
    assert nx.is_directed_acyclic_graph(graph), list(nx.simple_cycles(graph))


def test_imports_follow_the_table():
    rows, bad = _allowed(), []
    for path in _files():
        own = _package(_module(path))
        for mod in _imports(path):
            if mod.split(".")[0] not in TOPS:
                continue
            target = _package(mod)
            if target != own and target not in rows.get(own, ()):
                bad.append((os.path.relpath(path, ROOT), mod))
    assert not bad


def test_importlib_loads_count(tmp_path):
    """A load by name is an import the table must allow (the registry loads the checkers so)."""
    path = tmp_path / "m.py"
    path.write_text('import importlib\nimportlib.import_module(f"summaries.{name}")\n'
                    'importlib.import_module("saturn.app.cli")\n')
    assert [_package(m) for m in _imports(str(path)) if m != "importlib"] == \
        ["summaries", "saturn.app"]


def test_no_import_cycles():
    """Imports inside functions count too: a cycle that only works because one import is
    deferred is still a cycle."""
    graph = nx.DiGraph()
    mods = {_module(p): p for p in _files()}
    for mod, path in mods.items():
        for target in _imports(path, names=True):
            while target and target not in mods:   # `from pkg import name`: the package
                target = target.rpartition(".")[0]
            if target and target != mod and not mod.startswith(target + "."):
                graph.add_edge(mod, target)
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not cycles


def test_checkers_use_the_context_not_the_evaluator():
    """A checker sees the analysis through FunctionContext's methods (saturn/plugin/checker.py),
    never the evaluator, environment or solver session behind them."""
    inner = re.compile(r"\bctx\.(ev|env|session)\b")
    bad = [(os.path.relpath(path, ROOT), m.group(0)) for path in _files()
           if os.path.relpath(path, ROOT).startswith("checkers")
           for m in inner.finditer(open(path, encoding="utf-8").read())]
    assert not bad
