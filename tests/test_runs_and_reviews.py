"""`saturn runs`, `saturn diff`, `saturn review` and reviews in `saturn check` (README "In CI")."""
import json

from test_cli import saturn

GOOD = "#include <pthread.h>\npthread_mutex_t m;\n" \
       "void one(void) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); }\n"
BAD = GOOD.replace("pthread_mutex_unlock", "pthread_mutex_lock")


def _check(tmp_path, *extra):
    return saturn("check", "--db", str(tmp_path / "s.db"), "-j", "1", *extra, "a.c",
                  cwd=str(tmp_path))


def test_runs_and_diff_follow_a_bug_in_and_out(tmp_path):
    (tmp_path / "a.c").write_text(GOOD)
    assert _check(tmp_path).returncode == 0
    (tmp_path / "a.c").write_text(BAD)
    first = _check(tmp_path)
    assert first.returncode == 1
    db = ("--db", str(tmp_path / "s.db"))
    diff = json.loads(saturn("diff", *db, "--format", "json").stdout)
    assert (diff["from"], diff["to"]) == (1, 2) and diff["resolved"] == []
    assert [r["function"] for r in diff["new"]] == ["one"]
    (tmp_path / "a.c").write_text(GOOD)
    assert _check(tmp_path).returncode == 0
    text = saturn("diff", *db).stdout
    assert text.startswith("runs 2 -> 3: 0 new, 1 resolved") and "resolved: a.c:3:" in text
    assert "1 new" in saturn("diff", *db, "1", "2").stdout
    listed = saturn("runs", *db).stdout.splitlines()
    assert [ln.split()[0] for ln in listed] == ["3", "2", "1"]
    assert "1 resolved" in listed[0] and "1 new" in listed[1]
    runs = json.loads(saturn("runs", *db, "--format", "json").stdout)
    assert runs[0]["root"] == str(tmp_path) and runs[0]["version"]
    assert runs[0]["options"]["paths"] == ["a.c"]
    bad = saturn("diff", *db, "9")
    assert bad.returncode == 2 and bad.stderr.strip() == \
        f"saturn: error: no run 9 in {tmp_path / 's.db'} (kept: 1-3)"
    for i in range(3):
        _check(tmp_path, "--keep-runs", "2")
    assert [r["id"] for r in json.loads(saturn("runs", *db, "--format", "json").stdout)] \
        == [6, 5]
    assert "--keep-runs must be between 1" in _check(tmp_path, "--keep-runs", "0").stderr


def test_a_false_positive_review_is_known_in_every_output(tmp_path):
    (tmp_path / "a.c").write_text(BAD)
    proc = _check(tmp_path, "--format", "json")
    fp = json.loads(proc.stdout)["reports"][0]["fingerprint"]
    reviews = tmp_path / "reviews.json"
    reviews.write_text(json.dumps({"version": 1, "reviews": [
        {"fingerprint": fp, "status": "false-positive", "comment": "<b>m is recursive</b>",
         "author": "ann", "time": "2026-01-01T00:00:00Z"}]}))
    assert saturn("review", "import", str(reviews), "--db", str(tmp_path / "s.db")).returncode == 0
    text = _check(tmp_path)
    assert text.returncode == 0 and "warning" not in text.stdout
    assert "1 reviewed as false positive or intentional" in text.stdout
    shown = _check(tmp_path, "--show-known")
    assert "[lock.double-lock] (false-positive)" in shown.stdout and shown.returncode == 0
    doc = json.loads(_check(tmp_path, "--format", "json").stdout)
    assert doc["reports"][0]["review"]["comment"] == "<b>m is recursive</b>"
    sarif = json.loads(_check(tmp_path, "--format", "sarif").stdout)
    assert sarif["runs"][0]["results"][0]["suppressions"] == [
        {"kind": "external", "status": "accepted", "justification": "<b>m is recursive</b>"}]
    out = tmp_path / "out.json"
    assert saturn("review", "export", str(out), "--db", str(tmp_path / "s.db")).returncode == 0
    assert json.loads(out.read_text()) == json.loads(reviews.read_text()) | {"tool": "saturn"}
    reviews.write_text("{not json")
    proc = saturn("review", "import", str(reviews), "--db", str(tmp_path / "s.db"))
    assert proc.returncode == 2 and proc.stderr.startswith(f"saturn: error: {reviews}: not a")
    assert "Traceback" not in proc.stderr


def test_run_records_do_not_change_report_output(tmp_path):
    """Recording runs writes only the database: the reports come out the same, byte for byte,
    with or without it and whatever --jobs (the last line holds the time)."""
    (tmp_path / "a.c").write_text(BAD)
    outs = set()
    for db in (("--db", str(tmp_path / "s.db")), ("--no-db",)):
        for jobs in ("1", "2"):
            for fmt in ("text", "json"):
                proc = saturn("check", *db, "-j", jobs, "--format", fmt, "a.c",
                              cwd=str(tmp_path))
                out = proc.stdout if fmt == "text" else json.loads(proc.stdout)["reports"]
                outs.add((fmt, "\n".join(proc.stdout.splitlines()[:-1]) if fmt == "text"
                          else json.dumps(out)))
    assert len(outs) == 2   # one text, one JSON
