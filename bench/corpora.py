"""The benchmark corpora: PyPI source distributions that bundle C libraries (fetched, not committed)."""
from __future__ import annotations

import glob
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, "corpora")

# name -> (PyPI sdist, version, globs of the C files below the unpacked folder, extra flags)
CORPORA = {
    "lz4": ("lz4", "4.4.5", ["lz4-4.4.5/lz4libs/*.c"], []),
    "zlib-ng": ("zlib_ng", "1.1.0", ["zlib_ng-1.1.0/src/zlib_ng/zlib-ng/*.c",
                                     "zlib_ng-1.1.0/src/zlib_ng/zlib-ng/arch/generic/*.c"],
                ["-DWITH_GZFILEOP", "-DZLIB_COMPAT",
                 "-I{base}/zlib_ng-1.1.0/src/zlib_ng/zlib-ng",
                 "-I{base}/zlib_ng-1.1.0/src/zlib_ng/zlib-ng/arch/generic"]),
    "lua": ("lupa", "2.8", ["lupa-2.8/third-party/lua54/l*.c"], []),
    "sqlite": ("sqlean.py", "3.50.4.5", ["sqlean_py-3.50.4.5/sqlite/sqlite3.c"], []),
    # zstd's single-file build (not in run.py's default list): x86 intrinsics headers included
    "zstd": ("zstandard", "0.25.0", ["zstandard-0.25.0/zstd/zstd.c"], []),
}


def fetch(name: str) -> str:
    """Download and unpack one corpus (once); return its folder."""
    dist, version, _, _ = CORPORA[name]
    os.makedirs(CACHE, exist_ok=True)
    marker = os.path.join(CACHE, f".{name}.ok")
    if not os.path.exists(marker):
        with tarfile.open(_download(dist, version)) as tar:
            tar.extractall(CACHE, filter="data")
        open(marker, "w").close()
    return CACHE


def _download(dist: str, version: str) -> str:
    """The sdist's archive, found in PyPI's simple index (its JSON form, PEP 691) and checked
    against its sha256: `pip download` builds the package's metadata first, and for lupa that
    means compiling Cython from source (minutes)."""
    names = {f"{dist}-{version}.tar.gz", f"{dist.replace('.', '_')}-{version}.tar.gz"}
    try:
        req = urllib.request.Request(f"https://pypi.org/simple/{dist}/",
                                     headers={"Accept": "application/vnd.pypi.simple.v1+json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            sdist = next(f for f in json.load(r)["files"] if f["filename"] in names)
        with urllib.request.urlopen(sdist["url"], timeout=300) as r:
            data = r.read()
        if hashlib.sha256(data).hexdigest() != sdist["hashes"]["sha256"]:
            raise OSError(f"{sdist['filename']}: sha256 differs from PyPI's")
        path = os.path.join(CACHE, sdist["filename"])
        open(path, "wb").write(data)
        return path
    except (OSError, ValueError, KeyError, StopIteration) as err:
        print(f"PyPI simple index: {err!r}; trying pip download", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-binary", ":all:",
                    "--no-deps", "-d", CACHE, f"{dist}=={version}"], check=True)
    return sorted(p for n in names for p in glob.glob(os.path.join(CACHE, n)))[0]


def _configure_zlib_ng(base: str) -> None:
    """What zlib-ng's CMake would do: generated headers from their .in templates."""
    src = os.path.join(base, "zlib_ng-1.1.0/src/zlib_ng/zlib-ng")
    for stem in ("zconf.h", "zlib.h", "zconf-ng.h", "zlib-ng.h", "zlib_name_mangling.h",
                 "zlib_name_mangling-ng.h", "gzread_mangle.h"):
        template, target = os.path.join(src, stem + ".in"), os.path.join(src, stem)
        if os.path.exists(template) and not os.path.exists(target):
            text = open(template).read().replace("@ZLIB_SYMBOL_PREFIX@", "")
            open(target, "w").write(text)


PREPARE = {"zlib-ng": _configure_zlib_ng}


def files(name: str) -> list[str]:
    base = fetch(name)
    if name in PREPARE:
        PREPARE[name](base)
    out = []
    for pattern in CORPORA[name][2]:
        out += glob.glob(os.path.join(base, pattern))
    return sorted(f for f in out if not f.endswith(("ltests.c", "onelua.c", "lua.c", "luac.c")))


def flags(name: str) -> list[str]:
    return [f.replace("{base}", CACHE) for f in CORPORA[name][3]]
