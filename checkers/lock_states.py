"""A lock's states and the operations that change them: one definition for the checker, its
summaries and their words."""
from __future__ import annotations

import enum


class LockState(enum.IntEnum):
    """The `#lock` attribute's values (§2.5), as a summary's rows store them."""
    UNLOCKED = 0
    LOCKED = 1        # held exclusively
    READ = 2          # held for reading (a rwlock's shared side)
    ERROR = 3


U, L, R, E = LockState
ACQ, REL = 1, 2       # #lockfirst / #lockcause: the operation that came first, or erred
NAMES = {U: "unlocked", L: "locked", R: "read-locked", E: "error"}


def mixed(exits) -> bool:
    """Exits both unlocked and held, exclusively or for reading: an outcome callers cannot
    tell from another under one condition."""
    return U in exits and (L in exits or R in exits)
