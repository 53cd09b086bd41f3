"""Preprocessing with the system compiler and the real system headers (so types keep real
widths); a file preprocessed already (cfront/markers.py) is read as it is."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time

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
    return Preprocessing(src, std).text(timeout)


class Preprocessing:
    """The compiler started on `src`, its output read by `text`: a caller may do other work
    while it runs (the output goes to a file, not a pipe the compiler would wait on)."""

    def __init__(self, src: SourceFile, std: str | None = None):
        self.src, self.proc, self.error = src, None, None
        self.started = time.time()   # (what it reads is as it was from then on)
        if src.preprocessed:
            return
        try:
            cmd = command(src, std)
        except FrontEndError as exc:
            self.error = str(exc)
            return
        self.out, self.err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        try:   # (a session of its own: a deadline stops cc1 with the driver)
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=self.out,
                                         stderr=self.err, cwd=src.directory or None,
                                         start_new_session=True)
        except (OSError, ValueError, subprocess.SubprocessError) as exc:   # (a NUL in a flag)
            self._close()
            self.error = f"{src.path}:1:1: error: cannot run the preprocessor: {exc}"

    def text(self, timeout: float | None = 300.0, since: float | None = None) -> str:
        """The output, or FrontEndError; past `timeout` seconds from `since` (now, if None:
        the time it ran before is the caller's gain) the compiler is stopped."""
        path = self.src.path
        if self.src.preprocessed:
            try:
                with open(path, "rb") as fh:
                    return decoded(fh.read())
            except OSError as exc:
                raise FrontEndError(f"{path}:1:1: error: cannot read: {exc.strerror}") from None
        if self.error is not None:
            raise FrontEndError(self.error)
        left = None if timeout is None else \
            max(0.0, timeout - (time.time() - (since or time.time())))
        try:
            code, overtime = self._wait(left)
        except BaseException:   # (Ctrl-C: its own session does not get the signal)
            self.stop()
            raise
        err, out = _read(self.err), _read(self.out)
        if overtime:
            raise FrontEndError(f"{path}:1:1: error: preprocessing took over {timeout:g}s "
                                "(--front-end-timeout)")
        if code != 0:
            raise FrontEndError(_failure(path, decoded(err)))
        return decoded(out)

    def _wait(self, left: float | None) -> tuple[int, bool]:
        """(the exit code, whether the deadline stopped it). A timer stops it at the deadline:
        a wait with a timeout polls, and would see the end up to 50 ms late."""
        if left is None:
            return self.proc.wait(), False
        killed = threading.Event()

        def kill():
            if self.proc.poll() is None:
                killed.set()
                self._kill()
        timer = threading.Timer(left, kill)
        try:
            timer.start()
        except RuntimeError:   # no thread to be had (a process limit): waited for by polling
            try:
                return self.proc.wait(left), False
            except subprocess.TimeoutExpired:
                self._kill()
                return self.proc.wait(), True
        try:
            return self.proc.wait(), killed.is_set()
        finally:
            timer.cancel()

    def _kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)   # the driver and cc1
        except OSError:
            pass

    def stop(self) -> None:
        """Stopped unread (its file is preprocessed elsewhere, or the run ends)."""
        if self.proc is not None:
            if self.proc.returncode is None:
                self._kill()
                self.proc.wait()
            self._close()

    def _close(self) -> None:
        self.out.close()
        self.err.close()


def _read(fh) -> bytes:
    fh.seek(0)
    data = fh.read()
    fh.close()
    return data


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
