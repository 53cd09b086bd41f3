"""The symbolic state at a program point: a path guard (BDD), the store and the attributes."""
from __future__ import annotations


class State:
    __slots__ = ("guard", "store", "attrs")

    def __init__(self, guard, store=None, attrs=None):
        self.guard = guard
        self.store: dict = store if store is not None else {}   # Obj -> BitVec | GLS
        self.attrs: dict = attrs if attrs is not None else {}   # (Address uid, name) -> value

    def copy(self, guard=None) -> "State":
        return State(self.guard if guard is None else guard, dict(self.store), dict(self.attrs))
