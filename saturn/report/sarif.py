"""SARIF 2.1.0 output: one run, a rule per report kind with help text, results with code flows,
partial fingerprints and, with a baseline, `baselineState`. Written as plain JSON: the one Python
object model for SARIF on PyPI (sarif-om) has been unmaintained since 2019."""
from __future__ import annotations

import json
import os
import pathlib

from .. import __version__

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
HELP = {
    "lock.double-lock": "A lock may be acquired while it is already held (a self-deadlock).",
    "lock.double-unlock": "A lock may be released while it is not held.",
    "lock.ambiguous-exit": "The function may return with the lock held or not under the same "
                           "return condition, so callers cannot know whether to release it.",
    "lock.not-released": "A lock only this function can reach is still held when it returns.",
    "memory.leak": "Memory allocated here can become unreachable without being freed.",
    "assert.violation": "An assertion can fail for some input.",
}
LEVEL = {"memory.leak": "warning", "assert.violation": "error"}


def _location(file: str, line: int, col: int = 1, message: str | None = None) -> dict:
    loc = {"physicalLocation": {"artifactLocation": {"uri": file, "uriBaseId": "%SRCROOT%"},
                                "region": {"startLine": max(1, line), "startColumn": max(1, col)}}}
    if message:
        loc["message"] = {"text": message}
    return loc


def _result(r, rule_index: dict) -> dict:
    res = {
        "ruleId": r.kind, "ruleIndex": rule_index[r.kind], "level": LEVEL.get(r.kind, "warning"),
        "message": {"text": r.message},
        "locations": [_location(r.file, r.line, r.column)],
        "partialFingerprints": {"saturnFingerprint/v1": r.fingerprint},
    }
    if r.trace:
        steps = [{"location": _location(n.file, n.line, 1, n.note)} for n in r.trace]
        res["codeFlows"] = [{"threadFlows": [{"locations": steps}]}]
    if getattr(r, "baseline", None):
        res["baselineState"] = r.baseline
    return res


def _invocation(stats) -> dict:
    """The run itself: each file skipped (not found, not preprocessed or not parsed) is an
    error notification, so a viewer shows what was not checked."""
    notes = []
    for skip in stats.get("skipped", ()):
        where = {"uri": pathlib.Path(skip["file"]).as_uri()} if os.path.isabs(skip["file"]) \
            else {"uri": skip["file"], "uriBaseId": "%SRCROOT%"}
        loc = {"physicalLocation": {"artifactLocation": where}}
        if skip["line"] > 0:
            loc["physicalLocation"]["region"] = {"startLine": skip["line"],
                                                 "startColumn": max(1, skip["column"])}
        notes.append({"level": "error", "message": {"text": f"skipped: {skip['message']}"},
                      "locations": [loc]})
    return {"executionSuccessful": True, "toolExecutionNotifications": notes}


def format_all(reports, stats, show_known: bool = True) -> str:
    kinds = sorted({r.kind for r in reports} | set(HELP))
    rule_index = {k: i for i, k in enumerate(kinds)}
    rules = [{"id": k, "name": k.replace(".", "_").replace("-", "_"),
              "shortDescription": {"text": HELP.get(k, k)},
              "fullDescription": {"text": HELP.get(k, k)},
              "help": {"text": HELP.get(k, k)},
              "defaultConfiguration": {"level": LEVEL.get(k, "warning")}} for k in kinds]
    doc = {
        "$schema": SCHEMA, "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "Saturn", "version": __version__, "rules": rules}},
            "results": [_result(r, rule_index) for r in reports],
            "invocations": [_invocation(stats)],
            "columnKind": "unicodeCodePoints",
        }],
    }
    return json.dumps(doc, indent=2) + "\n"
