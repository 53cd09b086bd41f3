"""JSON output (docs/DESIGN.md "Output")."""
from __future__ import annotations

import json


def format_all(reports, stats, show_known: bool = True) -> str:
    doc = {"version": 1, "reports": [r.to_json() for r in reports], "stats": stats.to_json()}
    return json.dumps(doc, indent=2, sort_keys=False) + "\n"
