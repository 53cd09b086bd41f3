"""Parsed translation units cached by a hash of their preprocessed text (next to the summary
database), so a re-check parses only files whose preprocessed text changed."""
from __future__ import annotations

import os
import pickle
import sys

from .parse import TranslationUnit, no_gc, parse_text
from .preprocess import text_hash


class TUCache:
    def __init__(self, directory: str):
        self.directory = directory
        os.makedirs(directory, exist_ok=True)

    def parse(self, text: str, path: str) -> TranslationUnit:
        key = text_hash(text + "\0" + path)
        file = os.path.join(self.directory, key[:40] + ".pickle")
        try:
            with no_gc(), open(file, "rb") as fh:
                return pickle.load(fh)
        except (OSError, pickle.PickleError, EOFError, AttributeError, ValueError):
            pass
        tu = parse_text(text, path)
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 50000))
        tmp = file + f".{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as fh:
                pickle.dump(tu, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, file)  # atomic: a killed run leaves no half-written entry
        except (OSError, RecursionError, pickle.PickleError):
            if os.path.exists(tmp):
                os.remove(tmp)
        return tu
