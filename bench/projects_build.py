"""Prepare one project of bench/projects.py: fetch its Debian source, unpack it, build it with
its own build system and leave its compile_commands.json, once.

Everything lands in bench/projects/<name>/ (not committed): downloads/, src/ (the unpacked
tree), build.log (every command and its output) and .prepared, a marker holding the recipe it
was built from; a changed recipe builds again from a fresh tree. The environment's CFLAGS and
friends are dropped so that the project's own defaults are what is built and checked.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess

import debsrc
from projects_list import Project

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.realpath(os.path.join(HERE, "projects"))   # builds may be a link to a shared folder
_DROPPED_ENV = ("CFLAGS", "CPPFLAGS", "CXXFLAGS", "LDFLAGS", "MAKEFLAGS", "CC", "CXX", "LIBS")


class BuildError(Exception):
    """A step of a project's preparation failed; the message says which and how."""


def work_dir(p: Project) -> str:
    return os.path.join(WORK, p.name)


def source_dir(p: Project) -> str:
    return os.path.join(work_dir(p), "src")


def build_dir(p: Project) -> str:
    """Where the build system runs: CMake and Meson build out of tree, in build/."""
    base = os.path.join(source_dir(p), p.subdir)
    return os.path.join(base, "build") if p.build in ("cmake", "meson") else base


def compile_db(p: Project) -> str:
    return os.path.join(build_dir(p), "compile_commands.json")


def recipe_key(p: Project) -> str:
    """A hash of the whole table entry: any change to it is a new build."""
    return hashlib.sha256(repr(p).encode()).hexdigest()[:16]


def missing_packages(packages) -> list[str]:
    """The Debian packages of `packages` not installed (dpkg-query's status)."""
    out = []
    for pkg in sorted(set(packages)):
        proc = subprocess.run(["dpkg-query", "-W", "-f=${Status}", pkg], capture_output=True,
                              text=True)
        if "install ok installed" not in proc.stdout:
            out.append(pkg)
    return out


def install(packages) -> None:
    """apt-get install what is missing, in one go (one apt run for the whole bench)."""
    missing = missing_packages(packages)
    if not missing:
        return
    print(f"installing with apt-get: {' '.join(missing)}", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update", "-qq"],
                ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing]):
        if subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode != 0:
            print(f"{' '.join(cmd)} failed: builds needing these will fail")
            return


def prepared(p: Project) -> bool:
    marker = os.path.join(work_dir(p), ".prepared")
    try:
        return json.load(open(marker)).get("recipe") == recipe_key(p) and \
            os.path.exists(compile_db(p))
    except (OSError, ValueError):
        return False


def prepare(p: Project, jobs: int) -> str:
    """The project's compile_commands.json, building it first unless it was built already
    from the same recipe. Raises BuildError naming the failed step and the log."""
    if prepared(p):
        return compile_db(p)
    os.makedirs(work_dir(p), exist_ok=True)
    marker = os.path.join(work_dir(p), ".prepared")
    if os.path.exists(marker):
        os.remove(marker)
    log_path = os.path.join(work_dir(p), "build.log")
    with open(log_path, "w") as log:
        try:
            dsc = debsrc.fetch(p.package, p.version, p.dsc_sha256,
                               os.path.join(work_dir(p), "downloads"))
        except OSError as err:
            raise BuildError(f"download: {err}") from err
        try:
            debsrc.unpack(dsc, source_dir(p), log)
        except subprocess.CalledProcessError as err:
            raise BuildError(f"dpkg-source -x failed (see {log_path})") from err
        for cmd, cwd in steps(p, jobs):
            _run(cmd, cwd, log, log_path)
    _check_db(p)
    json.dump({"recipe": recipe_key(p), "version": p.version, "compile_commands": compile_db(p)},
              open(marker, "w"), sort_keys=True, indent=1)
    return compile_db(p)


def steps(p: Project, jobs: int) -> list[tuple[list[str], str]]:
    """(command, directory) of each step of the project's own build, as its README says."""
    base = os.path.join(source_dir(p), p.subdir)
    out = [(list(p.bootstrap), base)] if p.bootstrap else []
    bear = ["bear", "--output", compile_db(p), "--"]
    make = ["make", f"-j{jobs}", *p.make]
    if p.build == "autotools":
        out += [(["./configure", *p.configure], base), (bear + make, base)]
    elif p.build == "make":
        out += [(bear + make, base)]
    elif p.build == "cmake":
        out += [(["cmake", "-S", ".", "-B", "build", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                  *p.configure], base),
                (["cmake", "--build", "build", f"-j{jobs}"], base)]
    elif p.build == "meson":
        out += [(["meson", "setup", "build", *p.configure], base),
                (["ninja", "-C", "build", f"-j{jobs}"], base)]
    else:
        raise BuildError(f"unknown build system {p.build!r}")
    return out


def _run(cmd: list[str], cwd: str, log, log_path: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED_ENV}
    env["LC_ALL"] = "C"
    log.write(f"\n$ cd {cwd} && {' '.join(cmd)}\n")
    log.flush()
    proc = subprocess.run(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, env=env,
                          stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        log.flush()
        tail = open(log_path, errors="replace").read().splitlines()[-15:]
        raise BuildError(f"`{' '.join(cmd)}` exited {proc.returncode} (in {cwd}; log "
                         f"{log_path}):\n    " + "\n    ".join(tail))


def _check_db(p: Project) -> None:
    """A build that compiled nothing (bear not seeing the compiler) is a failed build."""
    try:
        entries = json.load(open(compile_db(p)))
    except (OSError, ValueError) as err:
        raise BuildError(f"no compile database: {err}") from err
    if not any(e.get("file", "").endswith(".c") for e in entries):
        raise BuildError(f"{compile_db(p)} lists no C file")


def clean(p: Project) -> None:
    """Remove the project's tree and marker (the downloads stay)."""
    for path in (source_dir(p), os.path.join(work_dir(p), ".prepared")):
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif os.path.exists(path):
            os.remove(path)
