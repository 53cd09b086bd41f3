"""What a run keeps for the next one, above the front end and the IR.

In: source files (cfront), the lowering (ir), the analysis' results (symex). Out: lowered units
(`units.FrontEnd`), reused results (`results.ResultCache`). One cache directory of byte strings under
`<db>.units/` with one salt (cachedir.py, NOTE [one-salt]) holds direct mode's manifests
(direct.py), the lowered units (units.py), the functions' lowered IR (functions.py, entries.py)
and parsed declarations (declarations.py); the results live in the summary database. One
normalisation of lines and `__LINE__` serves them all (lines.py).
"""
