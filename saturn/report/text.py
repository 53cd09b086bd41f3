"""Compiler-style text output."""
from __future__ import annotations


def format_report(r) -> str:
    lines = [f"{r.file}:{r.line}:{r.column}: warning: {r.message} [{r.kind}]"]
    for n in r.trace:
        lines.append(f"    {n.file}:{n.line}: note: {n.note}")
    return "\n".join(lines)


def format_all(reports, stats) -> str:
    out = [format_report(r) for r in reports]
    out.append(summary_line(stats, len(reports)))
    return "\n".join(out) + "\n"


def summary_line(stats, n_reports: int) -> str:
    parts = [f"{n_reports} report{'s' if n_reports != 1 else ''}",
             f"{stats['files']} file{'s' if stats['files'] != 1 else ''}",
             f"{stats['skipped_files']} skipped",
             f"{stats['functions']} functions",
             f"{stats['incomplete']} incomplete"]
    return "saturn: " + ", ".join(parts) + f" in {stats['seconds']:.1f}s"
