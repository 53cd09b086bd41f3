"""The import rules of DESIGN.md "Layout": layers import only downward."""
import ast
import re
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# For each package: the packages it must not import.
FORBIDDEN = {
    "saturn/logic": ["saturn.bitvec", "saturn.memory", "saturn.symex", "saturn.ir", "checkers",
                     "summaries"],
    "saturn/bitvec": ["saturn.memory", "saturn.symex", "saturn.ir", "checkers", "summaries"],
    "saturn/memory": ["saturn.symex", "checkers", "summaries"],
    "saturn/ir": ["saturn.logic", "saturn.bitvec", "saturn.memory", "saturn.symex", "checkers"],
    "saturn/cfront": ["saturn.logic", "saturn.symex", "checkers"],
    "summaries": ["saturn.symex"],
}
CHECKER_ALLOWED = ("saturn.checker", "saturn.ir", "saturn.report")


def _imports(path):
    tree = ast.parse(open(path, encoding="utf-8").read())
    pkg = os.path.relpath(os.path.dirname(path), ROOT).replace(os.sep, ".")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                yield ".".join(base + ([node.module] if node.module else []))
            else:
                yield node.module


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


def test_checkers_use_the_context_not_the_evaluator():
    """A checker sees the analysis through FunctionContext's methods (saturn/checker.py), never
    the evaluator, environment or solver session behind them."""
    inner = re.compile(r"\bctx\.(ev|env|session)\b")
    bad = [(os.path.relpath(path, ROOT), m.group(0)) for path in _files("checkers")
           for m in inner.finditer(open(path, encoding="utf-8").read())]
    assert not bad
