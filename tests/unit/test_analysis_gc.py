"""NOTE [analysis-gc]: a function is analysed with the cyclic collector off, and what it made is
freed by reference counting when it ends, not left to a collector pass."""
import gc

from checkers import registry
from saturn.incremental.units import lower_text
from saturn.app.driver import analyze_one
from saturn.logic import circuit
from saturn.symex.options import Options

SRC = """int f(unsigned *a, unsigned n, unsigned k) {
  unsigned h = k;
  for (unsigned i = 0; i < n; i++) { h = h * 31 + a[i]; if (h & 1) h ^= k; }
  return h > 7 ? (int)(h % 13) : -1;
}
"""


def test_the_gates_are_not_left_to_the_collector(monkeypatch):
    made = []
    release = circuit.Circuit.release

    def counting(self):
        made.append(len(self._gates))
        release(self)
    monkeypatch.setattr(circuit.Circuit, "release", counting)
    unit = lower_text('# 1 "t.c"\n' + SRC, "t.c", ".")
    (key,) = unit.functions
    gc.collect()
    gc.disable()   # so that no pass runs between the function's end and the count below
    try:
        res = analyze_one(unit, key, registry.load(["lock", "leak"], {}), Options(), {})
        assert res.ok and not gc.isenabled()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = sum(1 for o in gc.garbage if type(o) is tuple)
    finally:
        gc.garbage.clear()
        gc.set_debug(0)
        gc.enable()
    assert max(made) > 3000     # the function made thousands of gates ...
    assert left < 300           # ... and they were not left in cycles for the collector
