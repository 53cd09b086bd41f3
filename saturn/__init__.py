"""Saturn: a SAT-based bug finder for C (see ../README.md and ../shared/DESIGN.md)."""
__version__ = "0.2.0"
