"""Cache keys name Saturn's source: an upgraded engine never reuses old summaries or units
(NOTE [one-salt])."""
from saturn.incremental import codehash
from saturn.incremental import cachedir, results
from saturn.symex.options import Options


def test_fingerprint_follows_the_source(tmp_path, monkeypatch):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "sub" / "b.py").write_text("y = 2\n")
    (tmp_path / "pkg" / "notes.txt").write_text("not code\n")
    monkeypatch.setattr(codehash, "REPO", str(tmp_path))
    fingerprint = codehash.code_fingerprint.__wrapped__   # (not the process's memo)
    first = fingerprint("pkg")
    (tmp_path / "pkg" / "notes.txt").write_text("changed, still not code\n")
    assert fingerprint("pkg") == first
    (tmp_path / "pkg" / "sub" / "b.py").write_text("y = 3\n")
    assert fingerprint("pkg") != first


def test_summary_and_unit_keys_change_with_the_engine_source(monkeypatch, tmp_path):
    before = results.ResultCache(None, [], Options(), "0.2.0").base
    unit_key = cachedir.CacheDir(str(tmp_path)).key("unit", "text")
    monkeypatch.setattr(cachedir, "code_fingerprint", lambda *folders, extra="": "an edited engine")
    assert results.ResultCache(None, [], Options(), "0.2.0").base != before
    assert cachedir.CacheDir(str(tmp_path)).key("unit", "text") != unit_key
