"""Saturn: a SAT-based bug finder for C (see README.md, docs/DESIGN.md and docs/ARCHITECTURE.md)."""
__version__ = "0.2.0"
