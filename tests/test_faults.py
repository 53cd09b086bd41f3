"""Faults during a run: a worker killed or aborting mid-run loses only its own function
(NOTE [lost-tasks]), and workers do not outlive a killed run (NOTE [parent-death])."""
import os
import signal
import subprocess
import sys
import time

from test_cli import ROOT, saturn

PROGRAM = """#include <pthread.h>
pthread_mutex_t m;
void twice(void) { pthread_mutex_lock(&m); pthread_mutex_lock(&m); }
int victim(int x) { return x + 1; }
int user(int y) { return victim(y); }
void unlock_twice(void) { pthread_mutex_unlock(&m); pthread_mutex_unlock(&m); }
"""

# Runs `saturn check ARGS` with the analysis of 'victim', in a worker process, doing ACTION.
WRAPPER = """
import os, sys, time
import saturn.app.driver as driver
MAIN, analyze_one = os.getpid(), driver.analyze_one
def patched(program, key, *args):
    if program.functions[key].name == "victim" and os.getpid() != MAIN:
        {action}
    return analyze_one(program, key, *args)
driver.analyze_one = patched
sys.argv = ["saturn", "check", *{args!r}]
from saturn.__main__ import run
run()
"""
PARK = ("open({pidfile!r} + '.tmp', 'w').write(str(os.getpid())); "
        "os.rename({pidfile!r} + '.tmp', {pidfile!r}); time.sleep(120)")


def _start(tmp_path, action, *args):
    (tmp_path / "t.c").write_text(PROGRAM)
    code = WRAPPER.format(action=action, args=["--checkers", "lock", *args, "t.c"])
    return subprocess.Popen([sys.executable, "-c", code], cwd=str(tmp_path), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, PYTHONPATH=ROOT))


def _wait_for(path, seconds=120):
    deadline = time.monotonic() + seconds
    while not os.path.exists(path):
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)
    return int(open(path).read())


def _alive(pid) -> bool:
    """Running (a zombie nobody reaps counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _finished_with_victim_incomplete(proc, why):
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 1, err                  # reports found: the run was not lost
    assert "Traceback" not in err
    assert "t.c:3:" in out and "[lock.double-lock]" in out
    assert "[lock.double-unlock]" in out
    assert f"t.c:4:1: warning: 'victim' not analysed: the worker process killed by {why}" in err
    assert out.splitlines()[-1].startswith("saturn: 2 reports, 1 file, 0 skipped, 4 functions, "
                                           "1 incomplete")


def test_a_worker_killed_mid_run_loses_only_its_function(tmp_path):
    pidfile, db = str(tmp_path / "victim.pid"), str(tmp_path / "s.db")
    proc = _start(tmp_path, PARK.format(pidfile=pidfile), "-j", "2", "--db", db)
    worker = _wait_for(pidfile)
    assert worker != proc.pid
    os.kill(worker, signal.SIGKILL)
    _finished_with_victim_incomplete(proc, "SIGKILL")
    # What the dead worker held was not saved as a result: the next run analyses it.
    again = saturn("check", "--checkers", "lock", "--db", db, "t.c", cwd=str(tmp_path))
    assert again.returncode == 1 and ", 0 incomplete" in again.stdout


def test_an_abort_in_the_analysis_with_one_job_does_not_end_the_run(tmp_path):
    """A C-level abort (an uncaught std::bad_alloc in the SAT solver ends in abort()) with -j 1:
    the function runs in a worker process, so the run goes on."""
    proc = _start(tmp_path, "import faulthandler; faulthandler.disable(); os.abort()",
                  "-j", "1", "--no-db")
    _finished_with_victim_incomplete(proc, "SIGABRT")


def test_workers_end_when_the_run_is_killed(tmp_path):
    pidfile = str(tmp_path / "victim.pid")
    proc = _start(tmp_path, PARK.format(pidfile=pidfile), "-j", "2", "--no-db")
    busy = _wait_for(pidfile)
    with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as fh:
        workers = {int(p) for p in fh.read().split()}
    assert busy in workers and len(workers) == 2      # one busy, one idle
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in workers):
        assert time.monotonic() < deadline, "workers outlived the run"
        time.sleep(0.05)


FRONT_WRAPPER = """
import os, signal, sys
import saturn.incremental.pipeline as pipeline
MAIN, front = os.getpid(), pipeline._in_worker
def patched(front_end, src):
    if src.path.endswith("dies.c") and os.getpid() != MAIN:
        os.kill(os.getpid(), signal.SIGKILL)
    return front(front_end, src)
pipeline._in_worker = patched
sys.argv = ["saturn", "check", "--checkers", "lock", "-j", "2", "--no-db", "dies.c", "t.c"]
from saturn.__main__ import run
run()
"""


def test_a_front_end_worker_killed_loses_only_its_file(tmp_path):
    (tmp_path / "t.c").write_text(PROGRAM)
    (tmp_path / "dies.c").write_text("int f(int x) { return x; }\n")
    proc = subprocess.run([sys.executable, "-c", FRONT_WRAPPER], cwd=str(tmp_path), text=True,
                          capture_output=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=300)
    assert proc.returncode == 3 and "Traceback" not in proc.stderr, proc.stderr
    assert "dies.c:1:1: error: not read: the worker process killed by SIGKILL" in proc.stderr
    assert "[lock.double-lock]" in proc.stdout
    assert proc.stdout.splitlines()[-1].startswith("saturn: 2 reports, 1 file, 1 skipped")


ERROR_WRAPPER = """
import sys
import saturn.app.driver as driver
analyze_function = driver.analyze_function
def patched(program, fn, *args):
    if fn.name == "victim":
        raise ValueError("boom")
    return analyze_function(program, fn, *args)
driver.analyze_function = patched
sys.argv = ["saturn", "check", "--checkers", "lock", "-j", "1", "--db", {db!r}, "t.c"]
from saturn.__main__ import run
run()
"""


def test_an_internal_error_is_not_reused_by_the_next_run(tmp_path):
    (tmp_path / "t.c").write_text(PROGRAM)
    db = str(tmp_path / "s.db")
    proc = subprocess.run([sys.executable, "-c", ERROR_WRAPPER.format(db=db)], cwd=str(tmp_path),
                          text=True, capture_output=True, env=dict(os.environ, PYTHONPATH=ROOT),
                          timeout=300)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "t.c:4:1: warning: internal error: ValueError: boom in 'victim'" in proc.stderr
    assert ", 1 incomplete" in proc.stdout
    again = saturn("check", "--checkers", "lock", "--db", db, "t.c", cwd=str(tmp_path))
    assert again.returncode == 1 and ", 0 incomplete" in again.stdout, again.stdout
