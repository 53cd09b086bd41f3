"""The benchmark corpora: PyPI source distributions that bundle C libraries (fetched, not committed)."""
from __future__ import annotations

import glob
import os
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, "corpora")

# name -> (PyPI sdist, version, globs of the C files below the unpacked folder, extra flags)
CORPORA = {
    "lz4": ("lz4", "4.4.5", ["lz4-4.4.5/lz4libs/*.c"], []),
    "zlib-ng": ("zlib_ng", "1.1.0", ["zlib_ng-1.1.0/src/zlib_ng/zlib-ng/*.c",
                                     "zlib_ng-1.1.0/src/zlib_ng/zlib-ng/arch/generic/*.c"],
                ["-DWITH_GZFILEOP", "-DZLIB_COMPAT"]),
    "lua": ("lupa", "2.8", ["lupa-2.8/third-party/lua54/l*.c"], []),
    "sqlite": ("sqlean.py", "3.50.4.5", ["sqlean_py-3.50.4.5/sqlite/sqlite3.c"], []),
}


def fetch(name: str) -> str:
    """Download and unpack one corpus (once); return its folder."""
    dist, version, _, _ = CORPORA[name]
    os.makedirs(CACHE, exist_ok=True)
    marker = os.path.join(CACHE, f".{name}.ok")
    if not os.path.exists(marker):
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-binary", ":all:",
                        "--no-deps", "-d", CACHE, f"{dist}=={version}"],
                       check=True)
        archive = sorted(glob.glob(os.path.join(CACHE, f"{dist.replace('.', '_')}-{version}.tar.gz"))
                         + glob.glob(os.path.join(CACHE, f"{dist}-{version}.tar.gz")))[0]
        with tarfile.open(archive) as tar:
            tar.extractall(CACHE, filter="data")
        open(marker, "w").close()
    return CACHE


def files(name: str) -> list[str]:
    base = fetch(name)
    out = []
    for pattern in CORPORA[name][2]:
        out += glob.glob(os.path.join(base, pattern))
    return sorted(f for f in out if not f.endswith(("ltests.c", "onelua.c", "lua.c", "luac.c")))


def flags(name: str) -> list[str]:
    return CORPORA[name][3]
