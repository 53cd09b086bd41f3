"""A pycparserext GnuCParser that closes the GNU C gaps glibc headers and real projects need.

Gaps closed here (pycparserext 2026.1 on pycparser 3.11): ``__extension__`` inside expressions,
``_Float128``/``_Float64x``/... as type names, ``__builtin_offsetof``, ``?:`` with the middle
left out (a TernaryOp whose ``iftrue`` is None), ``__label__`` declarations, ``__auto_type``
(a type name resolved from the initializer by the lowering), ``__attribute__((...));`` as a
statement, parenthesised statement expressions after ``__extension__``, attributes of
enumerators, attributes after the name of a struct used without a body (a declaration's
``cleanup``), ``_Static_assert`` among members, ``asm goto``'s labels, `[*n]` array dimensions, and GNU nested functions
(a FuncDef inside a block: the lowering makes the function holding it incomplete). The lexer
(gnu_lexer.py) takes C23's spellings.
"""
from pycparser import c_ast
from pycparser.c_parser import Coord, ParseError
from pycparserext.ext_c_parser import Asm, AttributeSpecifier, FuncDeclExt, GnuCParser

from .gnu_lexer import SaturnLexer

# GNU type names that pycparser does not know; the lowering maps each to its width.
EXTRA_TYPE_NAMES = frozenset({
    "_Float16", "_Float32", "_Float64", "_Float128", "_Float32x", "_Float64x", "_Float128x",
    "__float128", "__float80", "__fp16", "__bf16", "_Decimal32", "_Decimal64", "_Decimal128",
    "__auto_type", "__builtin_va_list", "__gnuc_va_list", "__int128_t", "__uint128_t",
    "bool",   # C23's keyword; a program's own `typedef ... bool;` still declares it
})


_ATTRIBUTE_TOKENS = ("__ATTRIBUTE__", "__ATTRIBUTE")
_PLAIN_QUALIFIERS = ("CONST", "VOLATILE", "RESTRICT", "__CONST", "__RESTRICT", "__RESTRICT__",
                     "__VOLATILE", "__VOLATILE__")


class SaturnParser(GnuCParser):
    lexer_class = SaturnLexer
    initial_type_symbols = GnuCParser.initial_type_symbols | EXTRA_TYPE_NAMES
    _file_scope: dict | None = None   # `parse_in_scope`'s file scope, and what it changed
    _changes: list | None = None

    def parse_in_scope(self, text: str, filename: str, scope: dict) -> tuple[list, list]:
        """Parse top-level declarations with `scope` (name -> whether it is a typedef name) as
        the file scope: (their nodes, the (name, is a type) pairs they declared in it, which
        are also made in `scope`)."""
        self._file_scope, self._changes = scope, []
        try:
            return self.parse(text, filename).ext, self._changes
        finally:
            self._file_scope = self._changes = None

    def _parse_translation_unit_or_empty(self):
        if self._file_scope is not None:
            self.__dict__.pop("_pending_initial_type_symbols", None)
            self._scope_stack[0] = self._file_scope
        return super()._parse_translation_unit_or_empty()

    def _add_typedef_name(self, name, coord):
        super()._add_typedef_name(name, coord)
        if self._changes is not None and len(self._scope_stack) == 1:
            self._changes.append((name, True))

    def _add_identifier(self, name, coord):
        super()._add_identifier(name, coord)
        if self._changes is not None and len(self._scope_stack) == 1:
            self._changes.append((name, False))

    def _parse_unary_expression(self):
        self._skip_extension()
        tok = self._peek()
        if tok is not None and tok.type in ("ID", "__ALIGNOF__") and \
                tok.value in ("__alignof", "__alignof__") and self._peek_type(2) == "LPAREN":
            # GCC's `__alignof (type)` (zstd's HUF_compressWeights) and `__alignof__ (expr)`:
            # like sizeof, a type or an expression.
            self._advance()
            got = self._try_parse_paren_type_name()
            operand = got[0] if got is not None else self._parse_unary_expression()
            return c_ast.UnaryOp(tok.value, operand, self._tok_coord(tok))
        if self._peek_type() == "LAND" and self._peek_type(2) == "ID":
            # `&&label`: GNU labels as values (computed goto tables, e.g. Lua's interpreter).
            tok = self._advance()
            label = self._advance()
            return c_ast.UnaryOp("&&", c_ast.ID(label.value, self._tok_coord(label)),
                                 self._tok_coord(tok))
        return super()._parse_unary_expression()

    def _parse_cast_expression(self):
        self._skip_extension()   # `__extension__ (type) expr`: a cast is parsed at this level
        return super()._parse_cast_expression()

    def _try_parse_paren_type_name(self):
        # `(__extension__ ({ ... }))` (glibc's tolower under -O2): `__extension__` starts a
        # declaration too, so the parenthesis was taken for a type name. It is one only if what
        # follows the keywords starts a declaration.
        mark = self._mark()
        if self._accept("LPAREN") is not None:
            self._skip_extension()
            starts = self._starts_declaration()
            self._reset(mark)
            if not starts:
                return None
        return super()._try_parse_paren_type_name()

    def _parse_error(self, msg, coord):
        """pycparser gives an invalid expression only the file's name, so the error was put at
        1:1 with the path twice: it is put at the token where the expression should start,
        and said in words a compiler would use."""
        tok = self._peek()
        if not isinstance(coord, Coord) and tok is not None:
            coord = self._tok_coord(tok)
        if msg.startswith("before: "):
            msg = f"syntax error before '{msg[len('before: '):]}'"
        elif msg == "Invalid expression":
            msg = f"expected an expression before '{tok.value}'" if tok is not None \
                else "expected an expression at the end of the file"
        super()._parse_error(msg, coord)

    def _skip_extension(self):
        """`__extension__ expr` (glibc's assert, kernel macros; `__extension__ (__m128)(...)` in
        GCC's x86 intrinsics headers): the keyword has no meaning here."""
        while self._peek_type() == "__EXTENSION__":
            self._advance()

    def _parse_jump_statement(self):
        if self._peek_type() == "GOTO" and self._peek_type(2) == "TIMES":
            tok = self._advance()  # `goto *expr;`: a computed goto
            self._advance()
            target = self._parse_expression()
            self._expect("SEMI")
            return c_ast.Goto(c_ast.UnaryOp("*", target, self._tok_coord(tok)),
                              self._tok_coord(tok))
        return super()._parse_jump_statement()

    def _parse_primary_expression(self):
        tok = self._peek()
        if tok is not None and tok.type == "ID" and tok.value == "__builtin_offsetof":
            self._advance()
            self._expect("LPAREN")
            typ = self._parse_type_name()
            self._expect("COMMA")
            designator = self._parse_offsetof_member_designator()
            self._expect("RPAREN")
            coord = self._tok_coord(tok)
            return c_ast.FuncCall(c_ast.ID("offsetof", coord),
                                  c_ast.ExprList([typ, designator], coord), coord)
        return super()._parse_primary_expression()

    def _parse_postfix_expression(self):
        tok = self._peek()
        if tok is not None and tok.type == "ID" and tok.value == "__builtin_va_arg":
            # `__builtin_va_arg(ap, type)`: the second argument is a type name.
            self._advance()
            self._expect("LPAREN")
            ap = self._parse_assignment_expression()
            self._expect("COMMA")
            typ = self._parse_type_name()
            self._expect("RPAREN")
            coord = self._tok_coord(tok)
            return c_ast.FuncCall(c_ast.ID("__builtin_va_arg", coord),
                                  c_ast.ExprList([ap, typ], coord), coord)
        return super()._parse_postfix_expression()

    def _parse_assignment_expression(self):
        # pycparser takes `({ ... })` as a whole assignment expression, so `({ ... }) == x`
        # (the kernel's READ_ONCE in a comparison) failed; the primary-expression rule covers it.
        expr = self._parse_conditional_expression()
        if self._is_assignment_op():
            op = self._advance().value
            rhs = self._parse_assignment_expression()
            return c_ast.Assignment(op, expr, rhs, expr.coord)
        return expr

    # `struct strbuf __attribute__((cleanup(reset_strbuf))) buf`: attributes after the name of
    # a struct used without a body are the declaration's (pycparserext dropped them, and with
    # them the cleanup that frees the buffer); they join its specifiers, as leading ones do.
    _held_attributes = None

    def _parse_struct_or_union_specifier(self):
        if self._peek_type(2) in ("ID", "TYPEID") and self._peek_type(3) in _ATTRIBUTE_TOKENS:
            mark = self._mark()
            tok, name = self._advance(), self._advance()
            attrs = self._parse_attributes_opt()
            if self._peek_type() != "LBRACE":
                self._held_attributes = attrs
                return self._select_struct_union_class(tok.value)(
                    name=name.value, decls=None, coord=self._tok_coord(name))
            self._reset(mark)
        return super()._parse_struct_or_union_specifier()

    def _parse_declaration_specifiers(self, allow_no_type=False):
        outer, self._held_attributes = self._held_attributes, None
        try:
            spec, saw_type, first = super()._parse_declaration_specifiers(allow_no_type)
            if self._held_attributes is not None and self._held_attributes.exprs:
                spec = self._add_declaration_specifier(
                    spec, AttributeSpecifier(self._held_attributes), "function", append=True)
            return spec, saw_type, first
        finally:
            self._held_attributes = outer

    def _parse_specifier_qualifier_list(self):
        # Attributes between qualifiers, the type and the member name: `const __user char *p`
        # (sparse's address spaces with __CHECKER__), `__u64 __attribute__((aligned(8))) x;`.
        # Member alignment attributes do not change the LP64 layouts we model, so they are read
        # and dropped; `packed` on a struct body is kept by the struct specifier itself.
        quals = self._plain_qualifiers()
        spec = super()._parse_specifier_qualifier_list()
        for q in quals + self._plain_qualifiers():
            spec = self._add_declaration_specifier(spec, q, "qual", append=True)
        return spec

    def _plain_qualifiers(self) -> list[str]:
        """`const`/`volatile`/`restrict` with attributes among them (the attributes dropped)."""
        quals = []
        while True:
            if self._peek_type() in _ATTRIBUTE_TOKENS:
                self._parse_attributes_opt()
            elif self._peek_type() in _PLAIN_QUALIFIERS:
                quals.append(self._advance().value)
            else:
                return quals

    def _parse_type_qualifier_list(self):
        # `* __attribute__((force))`, `* __attribute__((noderef, address_space(__user)))`: sparse's
        # address-space attributes after a `*` (kernel headers seen with __CHECKER__) are dropped.
        quals = []
        while True:
            if self._peek_type() in _ATTRIBUTE_TOKENS:
                self._parse_attributes_opt()
                continue
            more = super()._parse_type_qualifier_list()
            if not more:
                return quals
            quals += more

    def _parse_init_declarator(self, id_only: bool = False):
        # `uintptr_t ptr, __user *uptr = ubuf;`: an attribute (sparse's __user with
        # __CHECKER__) before a later declarator of a list is dropped.
        self._parse_attributes_opt()
        return super()._parse_init_declarator(id_only=id_only)

    def _parse_any_declarator(self, allow_abstract=False, typeid_paren_as_abstract=False):
        # `int (*trigger)(struct ev *)` as a parameter, `trigger` also a typedef name: a pointer
        # before the name inside the parentheses makes it a declarator naming it (an abstract
        # one has nothing after `(*` but `(` or `[`); the base parser takes `(TYPEID` for an
        # abstract declarator (multipath-tools' uevent_dispatch).
        if typeid_paren_as_abstract and self._pointer_to_typeid_ahead():
            return self._parse_typeid_declarator(), True
        return super()._parse_any_declarator(allow_abstract, typeid_paren_as_abstract)

    def _pointer_to_typeid_ahead(self) -> bool:
        mark = self._mark()
        try:
            while self._accept("TIMES"):
                self._plain_qualifiers()
            if not self._accept("LPAREN"):
                return False
            self._parse_attributes_opt()
            pointers = 0
            while self._accept("TIMES"):
                pointers += 1
                self._plain_qualifiers()
            return pointers > 0 and self._peek_type() == "TYPEID"
        finally:
            self._reset(mark)

    def _parse_array_decl_common(self, base_type, coord=None):
        # `[*n]` is a dimension expression, not the `[*]` of an unspecified VLA, which the
        # base parser takes it for (brotli's `decoded_buffer[*decoded_size]`).
        if self._peek_type(2) == "TIMES" and self._peek_type(3) != "RBRACKET":
            lbrack = self._expect("LBRACKET")
            dim = self._parse_assignment_expression()
            self._expect("RBRACKET")
            return c_ast.ArrayDecl(type=base_type, dim=dim, dim_quals=[],
                                   coord=coord or self._tok_coord(lbrack))
        return super()._parse_array_decl_common(base_type, coord)

    def _parse_enumerator(self):
        # `A __attribute__((deprecated)) = 1,`: an enumerator's attributes are dropped.
        name_tok = self._expect("ID")
        self._parse_attributes_opt()
        value = self._parse_constant_expression() if self._accept("EQUALS") else None
        enum = c_ast.Enumerator(name_tok.value, value, self._tok_coord(name_tok))
        self._add_identifier(enum.name, enum.coord)
        return enum

    def _parse_struct_declaration(self):
        if self._peek_type() == "_STATIC_ASSERT":
            self._parse_static_assert()   # checked by the compiler; no member
            return None
        return super()._parse_struct_declaration()

    def _parse_conditional_expression(self):
        expr = self._parse_binary_expression()
        if self._accept("CONDOP"):
            iftrue = None if self._peek_type() == "COLON" else self._parse_expression()
            self._expect("COLON")
            iffalse = self._parse_conditional_expression()
            return c_ast.TernaryOp(expr, iftrue, iffalse, expr.coord)
        return expr

    def _attribute_statement_ahead(self):
        """True when the next tokens are `__attribute__((...)) ;`, an attribute statement."""
        if self._peek_type() not in ("__ATTRIBUTE__", "__ATTRIBUTE"):
            return False
        k, depth = 2, 0
        while True:
            kind = self._peek_type(k)
            if kind is None:
                return False
            depth += (kind == "LPAREN") - (kind == "RPAREN")
            k += 1
            if depth == 0:
                return self._peek_type(k) == "SEMI"

    def _parse_asm_keyword(self):
        # `asm volatile goto (...)`, `asm inline (...)`: qualifiers in any order.
        kw = self._advance().value
        while self._peek_type() in {"VOLATILE", "__VOLATILE", "__VOLATILE__", "GOTO", "INLINE",
                                    "__INLINE", "__INLINE__"}:
            kw += " " + self._advance().value
        return kw

    def _parse_asm_no_semi(self):
        coord = self._tok_coord(self._peek())
        asm_kw = self._parse_asm_keyword()
        self._expect("LPAREN")
        template = self._parse_asm_argument_expression_list()
        operands = [None, None, None]
        for i in range(3):
            if not self._accept("COLON"):
                break
            operands[i] = (self._parse_asm_operands() if i < 2
                           else self._parse_asm_argument_expression_list())
        labels = []
        if self._accept("COLON"):  # asm goto: a list of labels
            while self._peek_type() == "ID":
                labels.append(self._advance().value)
                if not self._accept("COMMA"):
                    break
        self._expect("RPAREN")
        asm = Asm(asm_kw, template, *operands, coord=coord)
        asm.labels = labels   # (the lowering branches to them)
        return asm

    def _parse_external_declaration(self):
        if self._is_asm_keyword_token(self._peek_type()):
            # File-scope `asm("...");` (the kernel's initcall and export tables): no C meaning.
            self._parse_asm_no_semi()
            self._expect("SEMI")
            return []
        return super()._parse_external_declaration()

    def _parse_asm_operands(self):
        """`[name] "constraint" (expr), ...`: symbolic operand names (kernel asm) are dropped."""
        if self._peek_type() in ("COLON", "RPAREN"):
            return None
        exprs = []
        while True:
            if self._accept("LBRACKET"):
                self._advance()
                self._expect("RBRACKET")
            exprs.append(self._parse_assignment_expression())
            if not self._accept("COMMA"):
                break
        return c_ast.ExprList(exprs, exprs[0].coord)

    def _parse_statement(self):
        tok = self._peek()
        if self._attribute_statement_ahead():
            # `__attribute__((fallthrough));` is an empty statement with an attribute.
            self._parse_attributes_opt()
            self._expect("SEMI")
            return c_ast.EmptyStatement(self._tok_coord(tok))
        return super()._parse_statement()

    def _parse_block_item(self):
        tok = self._peek()
        if tok is not None and tok.type == "ID" and tok.value == "__label__":
            # Local label declarations only scope labels; the labels themselves are enough.
            while self._peek_type() not in ("SEMI", None):
                self._advance()
            self._expect("SEMI")
            return c_ast.EmptyStatement(self._tok_coord(tok))
        if tok is not None and tok.type == "__EXTENSION__":
            self._advance()
        if self._attribute_statement_ahead():
            return self._parse_statement()
        mark = self._mark()
        try:
            return super()._parse_block_item()
        except ParseError:
            self._reset(mark)
            nested = self._nested_function()
            if nested is None:
                raise
            return nested

    def _nested_function(self):
        """A GNU nested function's definition (the lowering makes the function holding it
        incomplete), or None with the tokens as they were when it is not one."""
        mark = self._mark()
        try:
            spec, _, coord = self._parse_declaration_specifiers(allow_no_type=True)
            decl = self._parse_id_declarator()
            if self._peek_type() != "LBRACE" or not isinstance(decl, (c_ast.FuncDecl, FuncDeclExt)):
                raise ParseError("not a function definition")
            if not spec["type"]:
                spec["type"] = [c_ast.IdentifierType(["int"], coord=coord)]
            return self._build_function_definition(spec=spec, decl=decl, param_decls=None,
                                                   body=self._parse_compound_statement())
        except ParseError:
            self._reset(mark)
            return None
