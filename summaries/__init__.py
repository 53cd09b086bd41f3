"""The summary database and plain-words rendering (never imports saturn.symex)."""
