"""Checkers: every module or package here that defines `CHECKER` is one (checkers/registry.py,
docs/CHECKERS.md); the others are their helpers."""
