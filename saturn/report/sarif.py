"""SARIF 2.1.0 output: one run, a rule per report kind with help text, results with code flows,
partial fingerprints and, with a baseline, `baselineState`. Written as plain JSON: the one Python
object model for SARIF on PyPI (sarif-om) has been unmaintained since 2019."""
from __future__ import annotations

import json
import os
import pathlib
import re

from .. import __version__

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
def _location(file: str, line: int, col: int = 1, message: str | None = None) -> dict:
    loc = {"physicalLocation": {"artifactLocation": {"uri": file, "uriBaseId": "%SRCROOT%"},
                                "region": {"startLine": max(1, line), "startColumn": max(1, col)}}}
    if message:
        loc["message"] = {"text": message}
    return loc


def _result(r, rule_index: dict, level: dict) -> dict:
    res = {
        "ruleId": r.kind, "ruleIndex": rule_index[r.kind], "level": level.get(r.kind, "warning"),
        "message": {"text": r.message},
        "locations": [_location(r.file, r.line, r.column)],
        "partialFingerprints": {"saturnFingerprint/v1": r.fingerprint},
    }
    if r.trace:
        steps = [{"location": _location(n.file, n.line, 1, n.note)} for n in r.trace]
        res["codeFlows"] = [{"threadFlows": [{"locations": steps}]}]
    if getattr(r, "baseline", None):
        res["baselineState"] = r.baseline
    if r.review and r.known:   # reviewed as not to fix, outside the source
        res["suppressions"] = [{"kind": "external", "status": "accepted",
                                "justification": r.review.get("comment") or r.review["status"]}]
    return res


def _invocation(stats) -> dict:
    """The run itself: each file skipped (not found, not preprocessed or not parsed) is an
    error notification, so a viewer shows what was not checked."""
    notes = []
    for skip in stats.skipped:
        where = {"uri": pathlib.Path(skip["file"]).as_uri()} if os.path.isabs(skip["file"]) \
            else {"uri": skip["file"], "uriBaseId": "%SRCROOT%"}
        loc = {"physicalLocation": {"artifactLocation": where}}
        if skip["line"] > 0:
            loc["physicalLocation"]["region"] = {"startLine": skip["line"],
                                                 "startColumn": max(1, skip["column"])}
        notes.append({"level": "error", "message": {"text": f"skipped: {skip['message']}"},
                      "locations": [loc]})
    for f in stats.incomplete_functions:
        notes.append({"level": "warning", "descriptor": {"id": f"incomplete.{f['cause']}"},
                      "message": {"text": f"'{f['function']}' is incomplete: {f['reason']}"},
                      "locations": [_location(f["file"], f["line"])]})
    return {"executionSuccessful": True, "toolExecutionNotifications": notes}


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[.:])\s+(?=[A-Z`])", text, maxsplit=1)[0]


def format_all(reports, stats, kinds=()) -> str:
    """`kinds`: every report kind Saturn knows (saturn.plugin.checker.Kind), a rule each."""
    helps = {k.name: k.help for k in kinds}
    level = {k.name: k.severity for k in kinds}
    names = sorted({r.kind for r in reports} | set(helps))
    rule_index = {k: i for i, k in enumerate(names)}
    rules = [{"id": k, "name": k.replace(".", "_").replace("-", "_"),
              "shortDescription": {"text": _first_sentence(helps.get(k, k))},
              "fullDescription": {"text": helps.get(k, k)},
              "help": {"text": helps.get(k, k)},
              "defaultConfiguration": {"level": level.get(k, "warning")}} for k in names]
    doc = {
        "$schema": SCHEMA, "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "Saturn", "version": __version__, "rules": rules}},
            "results": [_result(r, rule_index, level) for r in reports],
            "invocations": [_invocation(stats)],
            "columnKind": "unicodeCodePoints",
        }],
    }
    return json.dumps(doc, indent=2) + "\n"
