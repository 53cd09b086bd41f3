"""The symbolic state at a program point: a path guard (BDD), the memory (each object's value) and the
attributes."""
from __future__ import annotations


class State:
    __slots__ = ("guard", "memory", "attrs")

    def __init__(self, guard, memory=None, attrs=None):
        self.guard = guard
        self.memory: dict = memory if memory is not None else {}   # Obj -> BitVec | GLS
        self.attrs: dict = attrs if attrs is not None else {}   # (Address uid, name) -> value

    def copy(self, guard=None) -> "State":
        return State(self.guard if guard is None else guard, dict(self.memory), dict(self.attrs))
