"""The plug-in interface: what a checker is and what it sees of an analysis (docs/CHECKERS.md)."""
