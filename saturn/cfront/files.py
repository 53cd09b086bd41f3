"""Cache entries (lowered units, parsed definitions, direct-mode manifests) written whole."""
from __future__ import annotations

import os


def write_atomically(path: str, data: bytes) -> None:
    """Write through a temporary file and a rename: a killed run leaves no half-written entry.
    A cache that cannot be written is only slower, so errors are dropped."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError:
        if os.path.exists(tmp):
            os.remove(tmp)
