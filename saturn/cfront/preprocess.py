"""Preprocessing with the system compiler and the real system headers (so types keep real
widths); a file preprocessed already (cfront/markers.py) is read as it is."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess

from .discover import SourceFile

# (`__thread` and `__signed__` are the parser's: gnu_parser.SaturnLexer.)
BASE_DEFINES = ("-D__saturn__=1",)


class FrontEndError(Exception):
    """A file that cannot be preprocessed or parsed; the message is compiler-style."""


def compiler() -> str:
    for name in (os.environ.get("SATURN_CC", ""), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    raise FrontEndError("error: no C compiler found for preprocessing (set SATURN_CC)")


def command(src: SourceFile, std: str | None = None) -> list[str]:
    """The compiler's command line for `src` (for a preprocessed file: none, only its path)."""
    if src.preprocessed:
        return ["<preprocessed>", src.path]
    cmd = [compiler(), "-E", *BASE_DEFINES]
    if std and not any(f.startswith("-std=") for f in src.flags):
        cmd.append(f"-std={std}")
    return cmd + [*src.flags, src.path]


def preprocess(src: SourceFile, std: str | None = None, timeout: float = 300.0) -> str:
    """The preprocessed text (with line markers), or FrontEndError."""
    if src.preprocessed:
        try:
            with open(src.path, "rb") as fh:
                return decoded(fh.read())
        except OSError as exc:
            raise FrontEndError(f"{src.path}:1:1: error: cannot read: {exc.strerror}") from None
    try:
        proc = subprocess.run(command(src, std), stdin=subprocess.DEVNULL, capture_output=True,
                              cwd=src.directory or None, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise FrontEndError(f"{src.path}:1:1: error: preprocessing took over {timeout:g}s "
                            "(--front-end-timeout)") from None
    except OSError as exc:
        raise FrontEndError(f"{src.path}:1:1: error: cannot run the preprocessor: {exc}") \
            from None
    if proc.returncode != 0:
        raise FrontEndError(_failure(src.path, decoded(proc.stderr)))
    return decoded(proc.stdout)


_UNDECODED = re.compile(r"^(?!#).*[\udc80-\udcff].*$", re.M)


def decoded(data: bytes) -> str:
    """Text as UTF-8 with universal newlines. Bytes that are not UTF-8 keep their value in line
    markers' names, as os.fsdecode gives file names (NOTE [own-files] in markers.py), and are
    U+FFFD elsewhere."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = _UNDECODED.sub(lambda m: m[0].encode("utf-8", "surrogateescape").decode(
            "utf-8", "replace"), data.decode("utf-8", "surrogateescape"))
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _failure(path: str, stderr: str) -> str:
    first = next((ln for ln in stderr.splitlines() if "error" in ln),
                 stderr.strip().splitlines()[0] if stderr.strip() else "")
    return first if first.startswith(path) or ": error" in first \
        else f"{path}:1:1: error: preprocessing failed: {first}"


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
