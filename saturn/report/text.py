"""Compiler-style text output."""
from __future__ import annotations


def format_report(r) -> str:
    known = " (known)" if r.baseline == "unchanged" else ""
    if r.review and r.known:
        known = f" ({r.review['status']})"
    lines = [f"{r.file}:{r.line}:{r.column}: warning: {r.message} [{r.kind}]{known}"]
    for n in r.trace:
        lines.append(f"    {n.file}:{n.line}: note: {n.note}")
    return "\n".join(lines)


def format_all(reports, stats, show_known: bool = False) -> str:
    out = [format_report(r) for r in reports if show_known or not r.known]
    out += [incomplete_line(f) for f in stats.incomplete_functions]
    out.append(totals_line(stats, len(reports)))
    return "\n".join(out) + "\n"


def incomplete_line(f: dict) -> str:
    """An incomplete function (driver.incomplete_functions): its callers assumed nothing of
    it, and its own bugs were not looked for."""
    return f"{f['file']}:{f['line']}:1: note: '{f['function']}' is incomplete: {f['reason']}"


def totals_line(stats, n_reports: int) -> str:
    head = f"{n_reports} report{'s' if n_reports != 1 else ''}"
    if stats.new is not None:
        baseline = n_reports - stats.new - (stats.reviewed or 0)
        head += f" ({stats.new} new, {baseline} in the baseline)"
    parts = [head,
             f"{stats.files} file{'s' if stats.files != 1 else ''}",
             f"{stats.skipped_files} skipped" + _not_found(stats),
             f"{stats.functions} functions",
             f"{stats.incomplete} incomplete"]
    if stats.reused:
        parts.append(f"{stats.reused} reused")
    if stats.timeouts:
        parts.append(f"{stats.timeouts} timed out (--timeout)")
    if stats.reviewed:
        parts.append(f"{stats.reviewed} reviewed as false positive or intentional")
    if stats.suppressed:
        parts.append(f"{stats.suppressed} hidden by saturn-ignore")
    return "saturn: " + ", ".join(parts) + f" in {stats.seconds:.1f}s"


def skipped_line(stats) -> str:
    """The run's last line when files were skipped: how many, which, and the exit status."""
    names = [s.get("unit", s["file"]) for s in stats.skipped]
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    total = stats.files + stats.skipped_files
    status = 3 if stats.files else 2
    return (f"saturn: error: {len(names)} of {total} files skipped, not analysed (each error "
            f"above): {shown}; exit status {status}")


def _not_found(stats) -> str:
    """Paths given that do not exist, named: a typo must not pass for a clean run."""
    gone = [s["file"] for s in stats.skipped if s["line"] == 0 and
            s["message"] == "no such file or directory"]
    if not gone:
        return ""
    shown = ", ".join(gone[:3]) + (f" and {len(gone) - 3} more" if len(gone) > 3 else "")
    return f" (not found: {shown})"
