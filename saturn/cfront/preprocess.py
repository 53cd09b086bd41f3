"""Preprocessing with the system compiler and the real system headers (so types keep real widths)."""
from __future__ import annotations

import hashlib
import locale
import os
import re
import select
import shutil
import subprocess
import tempfile

from .discover import SourceFile

# gcc's line markers, `# 12 "path" flags` (a quote or backslash in the path escaped): line, path.
# Written as a `#` at the start of a line (not `^`, re.M: a search tried that at every line,
# this jumps from `#` to `#`; zstd's 1.7 MB unit: 12 -> 5 ms).
LINE_MARKER = re.compile(r'#(?<![^\n]#)\s*(\d+)\s+"((?:[^"\\]|\\.)*)"')


# `__thread` is a storage class pycparser does not know (thread-locality does not change the
# model); `__signed__` is GCC's spelling of `signed` in kernel UAPI headers.
BASE_DEFINES = ("-D__thread=", "-D__signed__=signed", "-D__saturn__=1")


class FrontEndError(Exception):
    """A file that cannot be preprocessed or parsed; the message is compiler-style."""


def compiler() -> str:
    for name in (os.environ.get("SATURN_CC", ""), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    raise FrontEndError("error: no C compiler found for preprocessing (set SATURN_CC)")


def command(src: SourceFile, std: str | None = None) -> list[str]:
    cmd = [compiler(), "-E", *BASE_DEFINES]
    if std and not any(f.startswith("-std=") for f in src.flags):
        cmd.append(f"-std={std}")
    return cmd + [*src.flags, src.path]


def preprocess(src: SourceFile, std: str | None = None, cmd: list[str] | None = None) -> str:
    """Return the preprocessed text (with line markers), or raise FrontEndError."""
    return Preprocessing(src, std, cmd).text()


class Preprocessing:
    """The compiler preprocessing one file, started at once; `text()` waits for it. Its output
    goes to unnamed temporary files, not pipes, so it never stops for a reader meanwhile (a
    re-check imports the parser while it runs: NOTE [startup] in logic/bdd.py)."""

    def __init__(self, src: SourceFile, std: str | None = None, cmd: list[str] | None = None):
        self.src, self.cmd = src, cmd or command(src, std)
        self.out, self.err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL, stdout=self.out,
                                         stderr=self.err, cwd=src.directory or None)
        except OSError as exc:
            self._close()
            raise FrontEndError(f"{src.path}:1:1: error: cannot run the preprocessor: {exc}") \
                from None

    def text(self) -> str:
        try:
            try:
                code = _wait(self.proc, TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise FrontEndError(f"{self.src.path}:1:1: error: preprocessing timed out") \
                    from None
            out, err = _read(self.out), _read(self.err)
        finally:
            self._close()
        if code != 0:
            raise FrontEndError(_failure(self.src.path, err))
        return out

    def _close(self):
        self.out.close()
        self.err.close()


TIMEOUT = 300.0   # seconds for one file: a safety net, not a budget


def _wait(proc, timeout: float) -> int:
    """`proc.wait(timeout)` without its polling: that sleeps 0.5, 1, 2, ... 50 ms between
    looks, so it came back up to twice as late as the compiler ended (zstd's 50 ms file: 64 ms
    asleep). A pidfd is readable when the process ends (Linux 5.3); else, the polling."""
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):
        return proc.wait(timeout=timeout)
    try:
        if not select.select([fd], [], [], timeout)[0]:
            raise subprocess.TimeoutExpired(proc.args, timeout)
    finally:
        os.close(fd)
    return proc.wait()


def _read(fh) -> str:
    """As `subprocess.run(text=True, errors="replace")` would give it (universal newlines)."""
    fh.seek(0)
    data = fh.read().decode(locale.getpreferredencoding(False), "replace")
    return data.replace("\r\n", "\n").replace("\r", "\n")


def _failure(path: str, stderr: str) -> str:
    first = next((ln for ln in stderr.splitlines() if "error" in ln),
                 stderr.strip().splitlines()[0] if stderr.strip() else "")
    return first if first.startswith(path) or ": error" in first \
        else f"{path}:1:1: error: preprocessing failed: {first}"


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
