"""The import rules of docs/ARCHITECTURE.md "Layers": layers import only downward, and no
module imports itself through others."""
import ast
import re
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# For each package: the packages it must not import.
FORBIDDEN = {
    "saturn/logic": ["saturn.bitvec", "saturn.memory", "saturn.symex", "saturn.ir", "checkers",
                     "summaries", "saturn.incremental", "saturn.cfront"],
    "saturn/bitvec": ["saturn.memory", "saturn.symex", "saturn.ir", "checkers", "summaries",
                      "saturn.incremental", "saturn.cfront"],
    "saturn/memory": ["saturn.symex", "checkers", "summaries", "saturn.incremental",
                      "saturn.cfront"],
    "saturn/ir": ["saturn.logic", "saturn.bitvec", "saturn.memory", "saturn.symex", "checkers",
                  "saturn.cfront", "saturn.incremental", "summaries"],
    "saturn/cfront": ["saturn.ir", "saturn.incremental", "saturn.logic", "saturn.bitvec",
                      "saturn.memory", "saturn.symex", "saturn.interproc", "checkers",
                      "summaries"],
    "saturn/symex": ["saturn.incremental", "saturn.cfront", "checkers", "summaries"],
    "saturn/interproc": ["saturn.incremental", "saturn.cfront", "saturn.symex", "checkers",
                         "summaries"],
    "summaries": ["saturn.symex", "saturn.incremental", "saturn.cfront", "saturn.ir"],
}
CHECKER_ALLOWED = ("saturn.checker", "saturn.ir", "saturn.report")


def _imports(path, names=False):
    """The modules `path` imports; with `names`, `from m import n` also gives `m.n` (n may be
    a module)."""
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
            if names:
                yield from (f"{module}.{a.name}" for a in node.names)


def _files(folder):
    for dirpath, _, names in os.walk(os.path.join(ROOT, folder)):
        for n in names:
            if n.endswith(".py"):
                yield os.path.join(dirpath, n)


def test_layers_import_downward():
    bad = []
    for folder, forbidden in FORBIDDEN.items():
        for path in _files(folder):
            for mod in _imports(path):
                if any(mod == f or mod.startswith(f + ".") for f in forbidden):
                    bad.append((os.path.relpath(path, ROOT), mod))
    assert not bad


def test_checkers_import_only_the_plugin_interface():
    bad = []
    for path in _files("checkers"):
        for mod in _imports(path):
            if mod.startswith(("saturn", "summaries")) and not mod.startswith(CHECKER_ALLOWED):
                bad.append((os.path.relpath(path, ROOT), mod))
    assert not bad


def _module(path):
    rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
    return rel[:-len(".__init__")] if rel.endswith(".__init__") else rel


def test_no_import_cycles():
    """Imports inside functions count too: a cycle that only works because one import is
    deferred is still a cycle."""
    import networkx as nx
    graph = nx.DiGraph()
    mods = {_module(p): p for folder in ("saturn", "checkers", "summaries") for p in _files(folder)}
    for mod, path in mods.items():
        for target in _imports(path, names=True):
            while target and target not in mods:   # `from pkg import name`: the package
                target = target.rpartition(".")[0]
            if target and target != mod and not mod.startswith(target + "."):
                graph.add_edge(mod, target)
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not cycles


def test_checkers_use_the_context_not_the_evaluator():
    """A checker sees the analysis through FunctionContext's methods (saturn/checker.py), never
    the evaluator, environment or solver session behind them."""
    inner = re.compile(r"\bctx\.(ev|env|session)\b")
    bad = [(os.path.relpath(path, ROOT), m.group(0)) for path in _files("checkers")
           for m in inner.finditer(open(path, encoding="utf-8").read())]
    assert not bad
