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
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-binary", ":all:",
                        "--no-deps", "-d", CACHE, f"{dist}=={version}"],
                       check=True)
        archive = sorted(glob.glob(os.path.join(CACHE, f"{dist.replace('.', '_')}-{version}.tar.gz"))
                         + glob.glob(os.path.join(CACHE, f"{dist}-{version}.tar.gz")))[0]
        with tarfile.open(archive) as tar:
            tar.extractall(CACHE, filter="data")
        open(marker, "w").close()
    return CACHE


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
