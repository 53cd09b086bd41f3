"""The lexer of the GNU C parser (gnu_parser.py): the GNU and C23 spellings GCC accepts that
pycparserext's lexer does not."""
import re

from pycparserext.ext_c_lexer import GnuCLexer

# C23 keywords a compiler before GCC 13 leaves in the preprocessed text, as their C11 spellings
# (`constexpr` objects are `const`; `typeof_unqual` differs from `typeof` only in qualifiers).
_C23_SPELLINGS = {"constexpr": ("CONST", "const"), "static_assert": ("_STATIC_ASSERT", "_Static_assert"),
                  "alignas": ("_ALIGNAS", "_Alignas"), "alignof": ("_ALIGNOF", "_Alignof"),
                  "typeof_unqual": ("TYPEOF", "typeof"),
                  "__typeof_unqual__": ("TYPEOF", "typeof")}
# Storage classes with no meaning for the model: thread-locality.
_DROPPED_WORDS = frozenset({"__thread", "thread_local", "_Thread_local"})
# C23 digit separators (`1'000'000`, `0xFF'FF`): one integer constant, the quotes dropped.
_SEPARATED_INT = re.compile(r"(?:0[xX][0-9a-fA-F]+(?:'[0-9a-fA-F]+)+|0[bB][01]+(?:'[01]+)+|"
                            r"[0-9]+(?:'[0-9]+)+)[uUlLzZ]*(?![\w.'])")


class SaturnLexer(GnuCLexer):
    """GCC's `__signed__`/`__signed` (kernel UAPI headers) are `signed`; thread-local storage
    classes go; C23's attributes `[[...]]` go like GNU attributes the model does not read, its
    keywords become their C11 spellings and its digit separators are read. A preprocessed
    input keeps them as the compiler left them."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._ahead = []

    def token(self):
        while True:
            tok = self._ahead.pop() if self._ahead else super().token()
            if tok is None or tok.type not in ("ID", "TYPEID", "LBRACKET"):
                return tok
            if tok.type == "LBRACKET":
                if not self._attribute_list():
                    return tok
                continue
            if tok.value in _DROPPED_WORDS:
                continue
            if tok.value in ("__signed__", "__signed"):
                tok.type, tok.value = "SIGNED", "signed"
            elif tok.value in _C23_SPELLINGS:
                tok.type, tok.value = _C23_SPELLINGS[tok.value]
            return tok

    def _attribute_list(self) -> bool:
        """After a `[`: whether a second `[` follows, and if so the attribute list up to its
        `]]` is consumed. (Two `[` in a row start nothing else in C.)"""
        nxt = super().token()
        if nxt is None or nxt.type != "LBRACKET":
            if nxt is not None:
                self._ahead.append(nxt)
            return False
        depth = 2
        while depth:
            nxt = super().token()
            if nxt is None:
                return True
            depth += (nxt.type == "LBRACKET") - (nxt.type == "RBRACKET")
        return True

    def _match_token(self):
        m = _SEPARATED_INT.match(self._lexdata, self._pos)
        if m is None:
            return super()._match_token()
        value = m.group().replace("'", "")
        kind = "HEX" if value[:2] in ("0x", "0X") else "BIN" if value[:2] in ("0b", "0B") \
            else "OCT" if value[0] == "0" and len(value) > 1 else "DEC"
        tok = self._make_token(f"INT_CONST_{kind}", value, self._pos)
        self._pos = m.end()
        return tok
