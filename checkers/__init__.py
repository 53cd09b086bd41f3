"""Checkers: one module each (`assertion`, later `lock`, `leak`), registered in saturn.registry."""
