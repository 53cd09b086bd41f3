"""What opens and closes files, descriptors and directories, as tables, and the users' own pairs
(`[[resource]]` in saturn.toml).

An acquirer's result is the resource: a pointer (null is failure: `FILE *`, `DIR *`, the kernel's
`struct file *`) or, when the function returns an integer, a descriptor (negative is failure; 0,
1 and 2 are never owned: NOTE [descriptors]).
"""
from __future__ import annotations

from saturn.plugin.checker import ConfigError, ConfigKey

from .. import library

# The C library's are data (checkers/library/libc.toml); the kernel's file references and
# descriptors not yet installed are here. ACQUIRE: name -> the noun reports use for what it
# opens; RELEASE: name -> the argument it releases (or the arguments); OUT_ACQUIRE: function ->
# (argument receiving the resources, when, how many), OUT_NOUN their noun; CONSUME: function ->
# the argument it takes over where it succeeds; EXTRA: what else a spec says (`fails`).
KERNEL_ACQUIRE = {
    "fget": "file", "fget_raw": "file", "fget_task": "file", "filp_open": "file",
    "file_open_name": "file", "file_open_root": "file", "dentry_open": "file",
    "anon_inode_getfile": "file", "get_unused_fd_flags": "descriptor",
    "sockfd_lookup": "socket",
}
KERNEL_RELEASE = {
    "fput": 0, "filp_close": 0, "put_unused_fd": 0, "sockfd_put": 0, "sock_release": 0,
    # The process's descriptor table takes the descriptor and the file's reference.
    "fd_install": (0, 1),
}
KERNEL_OUT = {"sock_create": (3, "ret==0", 1), "sock_create_kern": (4, "ret==0", 1),
              "sock_create_lite": (3, "ret==0", 1)}
_LIBC = library.handles(library.of_domain("handles"))
ACQUIRE = {**_LIBC[0], **KERNEL_ACQUIRE}
RELEASE = {**_LIBC[1], **KERNEL_RELEASE}
OUT_ACQUIRE = {**_LIBC[2], **KERNEL_OUT}
OUT_NOUN = {**_LIBC[3], **{name: "socket" for name in KERNEL_OUT}}
CONSUME, EXTRA = _LIBC[4], _LIBC[5]

# Library functions that use a resource without keeping it.
USE = frozenset({
    "read", "write", "pread", "pwrite", "pread64", "pwrite64", "readv", "writev", "lseek",
    "lseek64", "fstat", "fstat64", "fstatat", "fsync", "fdatasync", "ftruncate", "ftruncate64",
    "ioctl", "fcntl", "send", "recv", "sendto", "recvfrom", "sendmsg", "recvmsg", "setsockopt",
    "getsockopt", "bind", "listen", "connect", "shutdown", "getsockname", "getpeername",
    "epoll_ctl", "epoll_wait", "dlsym", "dlvsym", "dlinfo", "iconv", "msync", "madvise",
    "mprotect", "flock", "lockf", "fchmod", "fchown",
    "fstatfs", "dup2", "dup3", "isatty", "ttyname", "tcgetattr", "tcsetattr", "fchdir",
    "posix_fadvise", "fallocate", "sendfile", "splice", "inotify_add_watch",
    "grantpt", "unlockpt", "ptsname", "fileno", "fread", "fwrite", "fprintf", "vfprintf",
    "fputs", "fgets", "fgetc", "getc", "fputc", "putc", "fflush", "fseek", "fseeko", "ftell",
    "ftello", "rewind", "feof", "ferror", "clearerr", "setvbuf", "setbuf", "fscanf", "vfscanf",
    "ungetc", "getline", "getdelim", "readdir", "readdir64", "readdir_r", "rewinddir",
    "telldir", "seekdir", "dirfd", "__fprintf_chk", "__vfprintf_chk", "fgetpos", "fsetpos",
    "flockfile", "funlockfile", "getc_unlocked", "putc_unlocked", "fputs_unlocked",
    "fwrite_unlocked", "fread_unlocked", "fflush_unlocked", "kernel_read", "kernel_write",
    "vfs_read", "vfs_write", "vfs_llseek", "file_inode",
})


def check_entries(where: str, key: str, entries, warn) -> list[dict]:
    """`[[resource]]` entries: `acquire` (a function returning the resource), `release` (one
    releasing its argument `arg`, 0 by default); either may be left out."""
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ConfigError(f"{where}: 'resource' must be an array of tables ([[resource]] "
                          f"entries), not {entries!r}")
    kept = []
    for n, e in enumerate(entries, 1):
        for k in sorted(set(e) - {"acquire", "release", "arg"}):
            warn(f"resource entry {n}: unknown key '{k}' ignored (known: acquire, arg, release)")
        for k in ("acquire", "release"):
            if k in e and not isinstance(e[k], str):
                raise ConfigError(f"{where}: resource entry {n}: '{k}' must be a function's "
                                  f"name, not {e[k]!r}")
        arg = e.get("arg", 0)
        if not isinstance(arg, int) or isinstance(arg, bool):
            raise ConfigError(f"{where}: resource entry {n}: arg must be an argument's number "
                              f"(0 for the first), not {arg!r}")
        if arg < 0 or not ("acquire" in e or "release" in e):
            warn(f"resource entry {n} ignored: " + (f"arg = {arg} is not an argument" if arg < 0
                                                     else "it names no acquire or release"))
            continue
        kept.append(e)
    return kept


RESOURCE_KEY = ConfigKey(
    "resource", "your own resources: [[resource]] entries with acquire (a function returning "
    "one: a pointer, null on failure, or a descriptor, negative on failure), release (a "
    "function releasing its argument arg, 0 by default), or both", check_entries)


def user_specs(config: dict):
    """(acquire, release, out_acquire, out_noun, consume, extra) tables from the validated
    `[[resource]]` entries and the handle `[[spec]]` entries."""
    tables = library.handles([e for e in config.get("spec", [])
                              if library.DOMAINS[e["op"]] == "handles"])
    acquire, release = tables[0], tables[1]
    for e in config.get("resource", []):
        if "acquire" in e:
            acquire[e["acquire"]] = "resource"
        if "release" in e:
            release[e["release"]] = e.get("arg", 0)
    return tables
