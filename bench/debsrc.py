"""Debian bookworm source packages: download one pinned version over HTTP, check it, unpack it.

The .dsc is pinned by its sha256 in the project table (bench/projects_list.py); every file the
.dsc lists is then checked against the sha256 and size the .dsc gives, so nothing unchecked
is unpacked. `dpkg-source -x` unpacks it as Debian builds it (its patches applied). The
signature is not checked (`--no-check`): the pinned hash already says which bytes we want,
and the keyring is not on every machine.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import urllib.request

MIRROR = "http://deb.debian.org/debian"


def pool_dir(package: str) -> str:
    """Debian's pool layout: pool/main/<l>/<package>, with lib* packages under lib<l>."""
    letter = package[:4] if package.startswith("lib") else package[0]
    return f"{MIRROR}/pool/main/{letter}/{package}"


def dsc_name(package: str, version: str) -> str:
    return f"{package}_{version.split(':', 1)[-1]}.dsc"


def _download(url: str, path: str) -> bytes:
    """The file's bytes, from `path` when an earlier run left it there."""
    if os.path.exists(path):
        return open(path, "rb").read()
    with urllib.request.urlopen(url, timeout=300) as r:
        data = r.read()
    tmp = path + ".part"
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)
    return data


def _check(name: str, data: bytes, sha256: str, size: int | None = None) -> None:
    got = hashlib.sha256(data).hexdigest()
    if got != sha256 or (size is not None and len(data) != size):
        raise OSError(f"{name}: sha256 {got} ({len(data)} bytes), expected {sha256}"
                      + (f" ({size} bytes)" if size is not None else ""))


def listed_files(dsc_text: str) -> list[tuple[str, str, int]]:
    """(sha256, name, size) of each file in the .dsc's Checksums-Sha256 field."""
    m = re.search(r"^Checksums-Sha256:\n((?:[ \t].*\n?)+)", dsc_text, re.M)
    if not m:
        raise OSError("the .dsc has no Checksums-Sha256 field")
    out = []
    for line in m.group(1).splitlines():
        sha, size, name = line.split()
        out.append((sha, name, int(size)))
    return out


def fetch(package: str, version: str, dsc_sha256: str, downloads: str) -> str:
    """Download the .dsc and its files into `downloads`, checking each; return the .dsc's path.
    A file that fails its check is removed, so the next run downloads it again."""
    os.makedirs(downloads, exist_ok=True)
    base = pool_dir(package)
    name = dsc_name(package, version)
    dsc_path = os.path.join(downloads, name)
    data = _download(f"{base}/{name}", dsc_path)
    try:
        _check(name, data, dsc_sha256)
        for sha, fname, size in listed_files(data.decode("utf-8")):
            path = os.path.join(downloads, fname)
            try:
                _check(fname, _download(f"{base}/{fname}", path), sha, size)
            except OSError:
                if os.path.exists(path):
                    os.remove(path)
                raise
    except OSError:
        if os.path.exists(dsc_path) and hashlib.sha256(data).hexdigest() != dsc_sha256:
            os.remove(dsc_path)
        raise
    return dsc_path


def unpack(dsc_path: str, target: str, log) -> None:
    """`dpkg-source -x` into `target` (removed first: dpkg-source wants a fresh directory)."""
    if os.path.exists(target):
        shutil.rmtree(target)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    subprocess.run(["dpkg-source", "--no-check", "-x", dsc_path, target], check=True,
                   stdout=log, stderr=subprocess.STDOUT,
                   env=dict(os.environ, LC_ALL="C"))
