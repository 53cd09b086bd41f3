"""Allocation and release functions, as tables (what each does to memory), and the users' own
(`alloc`, `free` and memory `[[spec]]` entries in saturn.toml), for the checkers of memory
(leak, free). The C library's are data (checkers/library/libc.toml), the kernel's are here.

ALLOC: function → kind: "alloc" (returns new memory or null), "realloc" (argument 0's block is
freed only on success). OUT_ALLOC: function → (argument whose pointee receives new memory,
"always", "ret==0" or "ret>=0" for when it does). FREE: function → argument freed (or a tuple
of them). EXTRA: function → what else its spec says (`fails`, `field`, `if_null`, `zeroed`).
NON_CAPTURING: library functions that read or write through their pointer arguments but keep no
reference, so passing new memory to them does not make it escape; any other function without a
body or summary is assumed to keep what it is given.
"""
from __future__ import annotations

from saturn.plugin.checker import ConfigKey, library_spellings, string_list

from .. import library

# The kernel's (specs override the static-inline bodies by name; the out-of-line callees those
# bodies reach are listed too). `devm_*` memory belongs to its device and is freed with it, so
# devm_ allocators are deliberately absent: their results are never leaks.
KERNEL_ALLOC = (
    "kmalloc", "kzalloc", "kcalloc", "kmalloc_array", "kmalloc_node", "kzalloc_node",
    "kcalloc_node", "kmalloc_array_node", "__kmalloc", "__kmalloc_node", "kmalloc_trace",
    "kmalloc_node_trace", "kmalloc_large", "kmalloc_large_node", "__kmalloc_node_track_caller",
    "kmem_cache_alloc", "kmem_cache_zalloc", "kmem_cache_alloc_node", "kmem_cache_alloc_lru",
    "kstrdup", "kstrndup", "kstrdup_const", "kmemdup", "kmemdup_nul", "memdup_user",
    "vmemdup_user", "memdup_user_nul", "vmalloc", "vzalloc", "vmalloc_node", "vzalloc_node",
    "__vmalloc", "__vmalloc_node", "vmalloc_user", "vmalloc_32", "vmalloc_array", "vcalloc",
    "kvmalloc", "kvzalloc", "kvcalloc", "kvmalloc_array", "kvmalloc_node", "kvzalloc_node",
    "kasprintf", "kvasprintf",
)

KERNEL_FREE = {"kfree": 0, "kvfree": 0, "vfree": 0, "kfree_sensitive": 0, "kvfree_sensitive": 0,
               "kzfree": 0, "kmem_cache_free": 1, "kfree_const": 0}
_LIBC_ALLOC, OUT_ALLOC, _LIBC_FREE, _LIBC_EXTRA = library.memory(library.of_domain("memory"))
# The kernel's allocators whose memory is zero (as calloc's: NOTE [zeroed-blocks]).
KERNEL_ZEROED = ("kzalloc", "kcalloc", "kzalloc_node", "kcalloc_node", "kmem_cache_zalloc",
                 "vzalloc", "vzalloc_node", "vcalloc", "kvzalloc", "kvcalloc", "kvzalloc_node")
EXTRA = {**_LIBC_EXTRA, **{name: {"zeroed": True} for name in KERNEL_ZEROED}}
ALLOC = {**_LIBC_ALLOC, **{name: "alloc" for name in KERNEL_ALLOC},
         "krealloc": "realloc", "krealloc_array": "realloc", "kvrealloc": "realloc"}
FREE = {**_LIBC_FREE, **KERNEL_FREE}

_NON_CAPTURING_BASE = (
    "memcpy", "memmove", "memset", "memcmp", "memchr", "bzero", "strlen", "strnlen", "strcmp",
    "strncmp", "strcasecmp", "strncasecmp", "strcpy", "strncpy", "stpcpy", "stpncpy", "strcat",
    "strncat", "strchr", "strrchr", "strstr", "strspn", "strcspn", "strtok", "strtol", "strtoul",
    "strtoll", "strtoull", "strtod", "atoi", "atol", "printf", "fprintf", "sprintf", "snprintf",
    "vprintf", "vfprintf", "vsprintf", "vsnprintf", "puts", "fputs", "fputc", "putc", "fwrite",
    "fread", "fgets", "read", "write", "send", "recv", "sscanf", "fscanf", "scanf", "qsort",
    "bsearch", "perror", "open", "fopen", "stat", "lstat", "access", "unlink", "toupper",
    "tolower", "regexec", "regerror",
)
NON_CAPTURING = library_spellings(_NON_CAPTURING_BASE)
# Of those, the ones that write nothing a program reads back through their pointer arguments
# (a FILE's insides are the library's): what the arrays and structs they are given hold stays.
# qsort only permutes: the same pointers stay in the array, where the caller frees them.
READS_ONLY = library_spellings((
    "memcmp", "memchr", "strlen", "strnlen", "strcmp", "strncmp", "strcasecmp", "strncasecmp",
    "strchr", "strrchr", "strstr", "strspn", "strcspn", "atoi", "atol", "printf", "fprintf",
    "vprintf", "vfprintf", "puts", "fputs", "fputc", "putc", "fwrite", "write", "send", "qsort",
    "bsearch", "perror", "access", "unlink", "toupper", "tolower",
))

# Of the others, those that write through some of their arguments only, by index: the rest
# they are given stays as it was (a compiled pattern regexec matches with).
WRITES_ONLY = {name: args for base, args in (("regexec", (3,)), ("regerror", (2,)))
               for name in library_spellings((base,))}

# Functions that only read what they are given (the kernel's CONFIG_DEBUG_LIST checks inside
# list_add and list_del): as unknown calls they would make the list's links unknown, and a walk
# that empties a list would then meet the nodes it freed again.
CHECKS_ONLY = frozenset({"__list_add_valid", "__list_del_entry_valid"})


ALLOC_KEY = ConfigKey("alloc", "your own allocators: functions that return new memory or null",
                      string_list)
FREE_KEY = ConfigKey("free", "your own release functions: functions that free their first "
                     "argument", string_list)


def released(ctx, st, args, which, extra: dict, given=None) -> list:
    """What a release spec releases: what its argument(s) `which` refer to (`given`: the
    locations a pointer points to, or a checker's own reading) or, with a `field` (globfree),
    what that member of theirs points to."""
    given = given or ctx.locations
    out = [lg for i in (which if isinstance(which, tuple) else (which,)) if i < len(args)
           for lg in given(args[i])]
    field = extra.get("field")
    if field is None:
        return out
    return [(held, ctx.c.AND(g, g2)) for obj, g in out
            for member in [spec_member(ctx, obj, field)] if member is not None
            for held, g2 in ctx.locations(ctx.read(member, st))]


def spec_member(ctx, obj, field):
    """The member a spec's `field` names in `obj`: the first of its spellings the struct has
    (regex_t's `buffer` is `__buffer` without _GNU_SOURCE), or None."""
    for name in [field] if isinstance(field, str) else field:
        member = ctx.member(obj, name)
        if member is not None:
            return member
    return None


def load_user_specs(config: dict):
    """(alloc, out_alloc, free, extra) of the user's own: `alloc = ["my_alloc", ...]`, `free =
    ["my_free", ...]` (argument 0), and memory `[[spec]]` entries."""
    allocs, outs, frees, extra = library.memory(
        [e for e in config.get("spec", []) if library.DOMAINS[e["op"]] == "memory"])
    allocs.update({name: "alloc" for name in config.get("alloc", [])})
    frees.update({name: 0 for name in config.get("free", [])})
    return allocs, outs, frees, extra
