"""CI mode: baselines, inline suppression, stable fingerprints, SARIF, and Saturn checking its own
example tree (examples/ci) against the baseline kept in the repository."""
import json
import os
import shutil

from test_cli import ROOT, saturn

CI_TREE = os.path.join(ROOT, "examples", "ci")
BUGGY = """
void grab_twice(struct store *s) {
    pthread_mutex_lock(&s->lock);
    pthread_mutex_lock(&s->lock);
}
"""


def _copy_tree(tmp_path):
    dst = tmp_path / "ci"
    shutil.copytree(CI_TREE, dst)
    return dst


def test_own_tree_passes_against_its_baseline():
    proc = saturn("check", "--no-db", "--baseline", "examples/ci/saturn-baseline.json",
                  "examples/ci")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 new" in proc.stdout


def test_adding_a_bug_to_the_tree_fails(tmp_path):
    tree = _copy_tree(tmp_path)
    # Paths in fingerprints are relative to the root (here: the copied tree), so the copy gets its
    # own baseline first, as a project adopting Saturn would.
    assert saturn("check", "--no-db", "--update-baseline", str(tree / "saturn-baseline.json"),
                  ".", cwd=str(tree)).returncode == 1
    assert saturn("check", "--no-db", "--baseline", str(tree / "saturn-baseline.json"), ".",
                  cwd=str(tree)).returncode == 0
    with open(tree / "store.c", "a") as fh:
        fh.write(BUGGY)
    proc = saturn("check", "--no-db", "--baseline", str(tree / "saturn-baseline.json"), ".",
                  cwd=str(tree))
    assert proc.returncode == 1
    assert "[lock.double-lock]" in proc.stdout and "(known)" not in proc.stdout
    shown = saturn("check", "--no-db", "--baseline", str(tree / "saturn-baseline.json"),
                   "--show-known", ".", cwd=str(tree))
    assert shown.stdout.count("(known)") == 2
    advisory = saturn("check", "--no-db", "--baseline", str(tree / "saturn-baseline.json"),
                      "--exit-zero", ".", cwd=str(tree))
    assert advisory.returncode == 0
    doc = json.loads(saturn("check", "--no-db", "--format", "json", "--baseline",
                            str(tree / "saturn-baseline.json"), ".", cwd=str(tree)).stdout)
    assert sorted(r["baseline"] for r in doc["reports"]) == ["new", "unchanged", "unchanged"]


def test_update_baseline_is_sorted_and_readable(tmp_path):
    tree = _copy_tree(tmp_path)
    out = tmp_path / "b.json"
    saturn("check", "--no-db", "--update-baseline", str(out), ".", cwd=str(tree))
    doc = json.loads(out.read_text())
    keys = [(e["file"], e["line"]) for e in doc["reports"]]
    assert keys == sorted(keys) and all(e["message"] and e["kind"] for e in doc["reports"])
    assert saturn("check", "--no-db", "--baseline", str(tmp_path / "missing.json"),
                  ".", cwd=str(tree)).returncode == 2


def test_inline_suppression(tmp_path):
    tree = _copy_tree(tmp_path)
    src = (tree / "store.c").read_text().replace(
        "    struct store *s = malloc(sizeof *s);",
        "    /* saturn-ignore[memory.leak] */\n    struct store *s = malloc(sizeof *s);")
    (tree / "store.c").write_text(src)
    proc = saturn("check", "--no-db", ".", cwd=str(tree))
    assert "[memory.leak]" not in proc.stdout and "1 hidden by saturn-ignore" in proc.stdout


def _fingerprints(tree, *extra):
    doc = json.loads(saturn("check", "--no-db", "--format", "json", *extra, ".",
                            cwd=str(tree)).stdout)
    return {(r["kind"], r["fingerprint"]) for r in doc["reports"]}


def test_fingerprints_survive_edits_elsewhere_and_moves(tmp_path):
    tree = _copy_tree(tmp_path)
    before = _fingerprints(tree)
    src = (tree / "store.c").read_text()
    # Lines inserted above, another function changed, the file re-indented.
    edited = "/* a new comment\n   over two lines */\n" + src.replace(
        "    pthread_mutex_lock(&registry_lock);\n",
        "    pthread_mutex_lock(&registry_lock);\n    registry_touches++;\n")
    edited = "static int registry_touches;\n" + edited.replace("    ", "        ")
    (tree / "store.c").write_text(edited)
    assert _fingerprints(tree) == before
    moved = tmp_path / "elsewhere" / "ci"
    shutil.copytree(tree, moved)
    assert _fingerprints(moved) == before


def test_fingerprints_change_when_the_bug_changes(tmp_path):
    tree = _copy_tree(tmp_path)
    before = dict(_fingerprints(tree))
    src = (tree / "store.c").read_text().replace("malloc(sizeof *s)", "calloc(1, sizeof *s)")
    (tree / "store.c").write_text(src)
    after = dict(_fingerprints(tree))
    assert after["memory.leak"] != before["memory.leak"]
    assert after["lock.ambiguous-exit"] == before["lock.ambiguous-exit"]


def test_sarif_has_what_code_scanning_requires(tmp_path):
    tree = _copy_tree(tmp_path)
    out = tmp_path / "r.sarif"
    saturn("check", "--no-db", "--format", "sarif", "--output", str(out), "--baseline",
           str(tree / "saturn-baseline.json"), ".", cwd=str(tree))
    doc = json.loads(out.read_text())
    assert doc["version"] == "2.1.0" and doc["$schema"].endswith("sarif-2.1.0.json")
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert run["tool"]["driver"]["name"] == "Saturn"
    ids = [r["id"] for r in rules]
    assert "memory.leak" in ids and all(r["help"]["text"] and r["shortDescription"]["text"]
                                        for r in rules)
    assert run["results"]
    for res in run["results"]:
        assert res["ruleId"] in ids and rules[res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] in ("error", "warning", "note") and res["message"]["text"]
        loc = res["locations"][0]["physicalLocation"]
        assert not os.path.isabs(loc["artifactLocation"]["uri"])
        assert loc["region"]["startLine"] >= 1
        assert res["partialFingerprints"]["saturnFingerprint/v1"]
        assert res["baselineState"] in ("new", "unchanged")
        flow = res["codeFlows"][0]["threadFlows"][0]["locations"]
        assert all(step["location"]["message"]["text"] for step in flow)


def test_output_is_deterministic(tmp_path):
    tree = _copy_tree(tmp_path)
    runs = [json.loads(saturn("check", "--no-db", "--format", "json", ".",
                              cwd=str(tree)).stdout) for _ in range(2)]
    assert runs[0]["reports"] == runs[1]["reports"]
    for doc in runs:
        doc["stats"].pop("seconds")
        doc["stats"].pop("reused")
        doc["stats"].pop("phases")
        doc["stats"].pop("peak_rss_mb")
    assert runs[0]["stats"] == runs[1]["stats"]
