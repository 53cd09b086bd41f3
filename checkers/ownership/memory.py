"""Allocation and release functions, as tables (what each does to memory), and the users' own
(`alloc` and `free` in saturn.toml), for the checkers of memory (leak, free).

ALLOC: function → kind: "alloc" (returns new memory or null), "realloc" (argument 0's block is
freed only on success), "dup" (like alloc). OUT_ALLOC: function → (argument whose pointee
receives new memory, "always" or "ret>=0" for when it does). FREE: function → argument freed.
NON_CAPTURING: library functions that read or write through their pointer arguments but keep no
reference, so passing new memory to them does not make it escape; any other function without a
body or summary is assumed to keep what it is given.
"""
from __future__ import annotations

from saturn.checker import ConfigKey, string_list

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

ALLOC = {
    "malloc": "alloc", "calloc": "alloc", "valloc": "alloc", "pvalloc": "alloc",
    "aligned_alloc": "alloc", "memalign": "alloc", "strdup": "alloc", "strndup": "alloc",
    "__strdup": "alloc", "wcsdup": "alloc", "realloc": "realloc", "reallocarray": "realloc",
    **{name: "alloc" for name in KERNEL_ALLOC},
    "krealloc": "realloc", "krealloc_array": "realloc", "kvrealloc": "realloc",
}
OUT_ALLOC = {
    "asprintf": (0, "ret>=0"), "vasprintf": (0, "ret>=0"), "getline": (0, "always"),
    "getdelim": (0, "always"), "posix_memalign": (0, "ret==0"),
}
FREE = {"free": 0, "cfree": 0, "kfree": 0, "kvfree": 0, "vfree": 0, "kfree_sensitive": 0,
        "kvfree_sensitive": 0, "kzfree": 0, "kmem_cache_free": 1, "kfree_const": 0}

NON_CAPTURING = frozenset({
    "memcpy", "memmove", "memset", "memcmp", "memchr", "bzero", "strlen", "strnlen", "strcmp",
    "strncmp", "strcasecmp", "strncasecmp", "strcpy", "strncpy", "strcat", "strncat", "strchr",
    "strrchr", "strstr", "strspn", "strcspn", "strtok", "strtol", "strtoul", "strtoll",
    "strtoull", "strtod", "atoi", "atol", "printf", "fprintf", "sprintf", "snprintf", "vprintf",
    "vfprintf", "vsprintf", "vsnprintf", "puts", "fputs", "fputc", "putc", "fwrite", "fread",
    "fgets", "read", "write", "send", "recv", "sscanf", "fscanf", "scanf", "qsort", "bsearch",
    "perror", "open", "fopen", "stat", "lstat", "access", "unlink", "toupper", "tolower",
    "__builtin_memcpy", "__builtin_memset", "__builtin_strlen", "__memcpy_chk", "__memset_chk",
    "__strcpy_chk", "__sprintf_chk", "__snprintf_chk", "__printf_chk", "__fprintf_chk",
})

# Functions that only read what they are given (the kernel's CONFIG_DEBUG_LIST checks inside
# list_add and list_del): as unknown calls they would make the list's links unknown, and a walk
# that empties a list would then meet the nodes it freed again.
CHECKS_ONLY = frozenset({"__list_add_valid", "__list_del_entry_valid"})


ALLOC_KEY = ConfigKey("alloc", "your own allocators: functions that return new memory or null",
                      string_list)
FREE_KEY = ConfigKey("free", "your own release functions: functions that free their first "
                     "argument", string_list)


def load_user_specs(config: dict):
    """`alloc = ["my_alloc", ...]`, `free = ["my_free", ...]` (argument 0) from the config."""
    allocs = {name: "alloc" for name in config.get("alloc", [])}
    frees = {name: 0 for name in config.get("free", [])}
    return allocs, frees
