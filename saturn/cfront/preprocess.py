"""Preprocessing with the system compiler and the real system headers (so types keep real widths)."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess

from .discover import SourceFile

# gcc's line markers, `# 12 "path" flags` (a quote or backslash in the path escaped): line, path.
LINE_MARKER = re.compile(r'^#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"', re.M)

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
    cmd = cmd or command(src, std)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                              cwd=src.directory or None, timeout=300)
    except subprocess.TimeoutExpired:
        raise FrontEndError(f"{src.path}:1:1: error: preprocessing timed out") from None
    if proc.returncode != 0:
        first = next((ln for ln in proc.stderr.splitlines() if "error" in ln),
                     proc.stderr.strip().splitlines()[0] if proc.stderr.strip() else "")
        raise FrontEndError(first if first.startswith(src.path) or ": error" in first
                            else f"{src.path}:1:1: error: preprocessing failed: {first}")
    return proc.stdout


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
