"""Library lock functions and what they do, as a table (clang-analyzer style).

Each entry: function name → (operation, argument index, success value, mode).
operation: acquire | release | try (acquires only on success) | init | destroy | held
(a precondition) | ignore (interrupt masking), and for mutex
attribute objects attrinit | settype (NOTE [recursive-mutex] in lock.py)
success: for `try`, the return value that means the lock was taken: 0 (pthread, C11 `thrd_success`,
`down_trylock`, the `_interruptible`/`_killable` forms) or "nonzero" (kernel `spin_trylock`,
`mutex_trylock`). mode: "w" (exclusive), "r" (shared: read locks may nest) or "s" (exclusive
with no owner, a semaphore: a trylock of one this task holds fails, while a trylock of a held
mutex or spin lock is a double lock as in the paper's Fig. 2.8; console_sem is held across
functions and printk trylocks it).
"""
from __future__ import annotations

from saturn.plugin.checker import ConfigError, ConfigKey

from . import library

NONZERO = "nonzero"


_KERNEL_FORMS = (
    ("lock", ("", "_bh", "_irq", "_irqsave", "_nested", "_irqsave_nested", "_bh_nested"),
     "acquire", None),
    ("unlock", ("", "_bh", "_irq", "_irqrestore"), "release", None),
    ("trylock", ("", "_bh", "_irq", "_irqsave"), "try", NONZERO),
)


def _kernel_family(prefix: str, mode: str = "w") -> dict:
    """`spin_lock_irqsave`, `_raw_spin_lock_irqsave`, `raw_spin_lock_irqsave`, … for one lock kind
    (`_spin_lock` and `__raw_spin_unlock` are the out-of-line and arch forms before 2.6.33)."""
    return {f"{raw}{prefix}_{verb}{suffix}": (op, 0, success, mode)
            for verb, suffixes, op, success in _KERNEL_FORMS
            for suffix in suffixes for raw in ("", "_raw_", "raw_", "_", "__raw_")}


# The C library's (pthreads, C11 threads, POSIX semaphores, stdio's stream locks) are data
# (checkers/library/libc.toml); the kernel's are here.
SPECS: dict[str, tuple] = {
    **library.locks(library.of_domain("locks")),
    # The mutex attribute objects (NOTE [recursive-mutex] in lock.py)
    "pthread_mutexattr_init": ("attrinit", 0, None, "w"),
    "pthread_mutexattr_settype": ("settype", 0, None, "w"),
    # Linux kernel
    "mutex_lock": ("acquire", 0, None, "w"),
    "mutex_lock_nested": ("acquire", 0, None, "w"),
    "mutex_lock_io": ("acquire", 0, None, "w"),
    "mutex_unlock": ("release", 0, None, "w"),
    "mutex_trylock": ("try", 0, NONZERO, "w"),
    "mutex_lock_interruptible": ("try", 0, 0, "w"),
    "mutex_lock_killable": ("try", 0, 0, "w"),
    "mutex_lock_interruptible_nested": ("try", 0, 0, "w"),
    "mutex_lock_killable_nested": ("try", 0, 0, "w"),
    "mutex_init": ("init", 0, None, "w"),
    "__mutex_init": ("init", 0, None, "w"),
    "spin_lock_init": ("init", 0, None, "w"),
    "__spin_lock_init": ("init", 0, None, "w"),
    "rwlock_init": ("init", 0, None, "w"),
    "sema_init": ("init", 0, None, "w"),
    "init_rwsem": ("init", 0, None, "w"),
    "down": ("acquire", 0, None, "w"),
    "up": ("release", 0, None, "w"),
    "down_trylock": ("try", 0, 0, "s"),
    "down_interruptible": ("try", 0, 0, "w"),
    "down_killable": ("try", 0, 0, "w"),
    "down_timeout": ("try", 0, 0, "w"),
    "down_read": ("acquire", 0, None, "r"),
    "down_write": ("acquire", 0, None, "w"),
    "up_read": ("release", 0, None, "r"),
    "up_write": ("release", 0, None, "w"),
    "down_read_trylock": ("try", 0, NONZERO, "r"),
    "down_write_trylock": ("try", 0, NONZERO, "w"),
    "down_read_interruptible": ("try", 0, 0, "r"),
    "down_read_killable": ("try", 0, 0, "r"),
    "down_write_killable": ("try", 0, 0, "w"),
    # lockdep_assert_held(l) with lockdep configured in: a precondition (lock.py _assume_held)
    "lock_is_held_type": ("held", 0, None, "any"),
    "lock_is_held": ("held", 0, None, "any"),
    "down_read_nested": ("acquire", 0, None, "r"),
    "down_write_nested": ("acquire", 0, None, "w"),
    "mutex_lock_nest_lock": ("acquire", 0, None, "w"),
    "_raw_spin_lock_nest_lock": ("acquire", 0, None, "w"),
    "raw_spin_lock_init": ("init", 0, None, "w"),
    # Interrupt masking is not locking: ignored (and, as a spec, changes no memory).
    **{f"{pre}local_irq_{verb}": ("ignore", 0, None, "w") for pre in ("", "arch_", "raw_")
       for verb in ("save", "restore", "disable", "enable")},
    **_kernel_family("spin"),
    **_kernel_family("read", "r"),
    **_kernel_family("write"),
}


# The semaphore operations: a semaphore made with a count other than 1 is no lock.
SEMAPHORE_OPS = frozenset({"sema_init", "down", "up", "down_trylock", "down_interruptible",
                           "down_killable", "down_timeout", "sem_init", "sem_wait", "sem_post",
                           "sem_trywait", "sem_timedwait", "sem_clockwait"})


def load_user_specs(config: dict) -> dict:
    """Users' own, from the config: `[[lock]]` entries {function, arg, op, success, mode}, and
    lock `[[spec]]` entries."""
    out = library.locks([e for e in config.get("spec", []) if library.DOMAINS[e["op"]] == "locks"])
    for e in config.get("lock", []):
        success = e.get("success")
        out[e["function"]] = (e.get("op", "acquire"), int(e.get("arg", 0)),
                              NONZERO if success == "nonzero" else success, e.get("mode", "w"))
    return out


_CONTEXT_OPS = {(0, 1): "acquire", (1, 0): "release", (1, 1): "held"}


def annotation_specs(attributes) -> list[tuple[str, tuple]]:
    """Sparse's `__acquires(x)`, `__releases(x)`, `__must_hold(x)` among a declaration's
    attributes — `context(x, in, out)` — as [(operation, interface path of x)]; contexts
    naming no parameter (`RCU`, a global) are left out."""
    out = []
    for name, args in attributes:
        if name == "context" and len(args) == 3 and isinstance(args[0], tuple):
            op = _CONTEXT_OPS.get((args[1], args[2]))
            if op is not None:
                out.append((op, args[0]))
    return out


LOCK_KEYS = ("function", "arg", "op", "success", "mode")
OPS = ("acquire", "release", "try", "init", "destroy")


def check_entries(where: str, key: str, entries, warn) -> list[dict]:
    """The `[[lock]]` entries of the config: a wrong type is an error, a value out of its range
    leaves the entry out with a warning."""
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ConfigError(f"{where}: 'lock' must be an array of tables ([[lock]] entries), "
                          f"not {entries!r}")
    return [e for i, e in enumerate(entries) if _lock_entry(where, i + 1, e, warn)]


def _lock_entry(where: str, n: int, entry: dict, warn) -> bool:
    """Whether to keep lock entry `n`: raises on a wrong type, warns (False) on a value out of
    its range."""
    name = entry.get("function")
    if not isinstance(name, str):
        raise ConfigError(f"{where}: lock entry {n} needs a 'function' (a name)")
    for key in sorted(set(entry) - set(LOCK_KEYS)):
        warn(f"lock entry {n} ('{name}'): unknown key '{key}' ignored "
             f"(known: {', '.join(LOCK_KEYS)})")
    if entry.get("op", "acquire") not in OPS:
        raise ConfigError(f"{where}: lock entry {n}: unknown op {entry.get('op')!r}")
    if entry.get("mode", "w") not in ("w", "r"):
        raise ConfigError(f"{where}: lock entry {n}: mode must be 'w' or 'r'")
    arg = entry.get("arg", 0)
    if not isinstance(arg, int) or isinstance(arg, bool):
        raise ConfigError(f"{where}: lock entry {n} ('{name}'): arg must be an argument's "
                          f"number (0 for the first), not {arg!r}")
    why = None
    if arg < 0:
        why = f"arg = {arg} is not an argument (0 is the first)"
    success = entry.get("success")
    if success is not None and (isinstance(success, bool) or
                                not (isinstance(success, int) or success == "nonzero")):
        why = f"success = {_toml(success)} is neither a return value nor \"nonzero\""
    if why:
        warn(f"lock entry {n} ('{name}') ignored: {why}")
    return why is None


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else repr(value)


CONFIG_KEYS = (library.SPEC_KEY, ConfigKey("lock", "your own lock functions: [[lock]] entries with function, arg, "
                         "op (acquire | release | try | init | destroy), success (for try: the "
                         "return value meaning success, or \"nonzero\") and mode (w or r)",
                         check_entries),)
