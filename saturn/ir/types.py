"""C types of the IR with their LP64 sizes (char signed, int 32, long and pointers 64)."""
from __future__ import annotations

from dataclasses import dataclass, field


class CType:
    size: int = 0
    align: int = 1

    def key(self) -> str:
        """A canonical name: two types with one key are the same type for views and casts."""
        raise NotImplementedError


@dataclass(frozen=True, eq=True)
class VoidT(CType):
    size: int = 1
    align: int = 1

    def key(self):
        return "void"


@dataclass(frozen=True, eq=True)
class IntT(CType):
    bits: int
    signed: bool
    is_bool: bool = False
    # An enum's enumerators, (name, value) each, outside the type's identity: a witness
    # names them (NOTE [enum-witnesses] in saturn/symex/context.py).
    enum: tuple = field(default=(), compare=False, repr=False)

    @property
    def size(self):
        return max(1, self.bits // 8)

    @property
    def align(self):
        return min(self.size, 16)

    def key(self):
        return ("_Bool" if self.is_bool else f"{'i' if self.signed else 'u'}{self.bits}")


@dataclass(frozen=True, eq=True)
class FloatT(CType):
    bits: int

    @property
    def size(self):
        return 16 if self.bits == 80 else self.bits // 8

    @property
    def align(self):
        return min(self.size, 16)

    def key(self):
        return f"f{self.bits}"


@dataclass(frozen=True, eq=True)
class PtrT(CType):
    target: CType
    size: int = 8
    align: int = 8

    def key(self):
        return self.target.key() + "*"


@dataclass(frozen=True, eq=True)
class ArrT(CType):
    elem: CType
    count: int | None  # None: unknown or flexible

    @property
    def size(self):
        return self.elem.size * (self.count or 0)

    @property
    def align(self):
        return self.elem.align

    def key(self):
        return f"{self.elem.key()}[{self.count if self.count is not None else ''}]"


# Complete struct types by key, for interface paths that name a container type
# (NOTE [container-of]): every distinct definition of a tag, in the order met (two programs of
# one compile database may each define their own `struct config`). `forget_structs` empties it
# when a run starts.
STRUCTS: dict[str, dict] = {}   # key -> {its members' names: definition}


def struct_named(key: str, member: str | None = None) -> "StructT | None":
    """The definition of struct `key` that has `member` (the first one met, when several do
    or no member is asked for)."""
    for st in STRUCTS.get(key, {}).values():
        if member is None or st.field_type(member) is not None:
            return st
    return None


def forget_structs() -> None:
    STRUCTS.clear()


def _register(st: "StructT") -> None:
    # (Members' names only: an unpickled struct's member types may not be whole yet.)
    shape = tuple(name for name, _ in st.fields)
    STRUCTS.setdefault(st.key(), {}).setdefault(shape, st)


@dataclass(eq=False)
class StructT(CType):
    """A struct or union; `fields` may be filled after creation (forward declarations)."""
    tag: str
    union: bool = False
    fields: list[tuple[str, CType]] = field(default_factory=list)
    complete: bool = False
    offsets: dict[str, int] = field(default_factory=dict)
    size: int = 0
    align: int = 1
    uid: int = 0

    def key(self):
        return f"{'union' if self.union else 'struct'} {self.tag}"

    def complete_with(self, fields: list[tuple[str, CType]], packed: bool = False) -> None:
        self.fields, self.complete, off, align = fields, True, 0, 1
        for name, ftype in fields:
            falign = 1 if packed else max(1, ftype.align)
            align = max(align, falign)
            if self.union:
                self.offsets[name] = 0
                off = max(off, ftype.size)
            else:
                off = (off + falign - 1) // falign * falign
                self.offsets[name] = off
                off += ftype.size
        self.align = align
        self.size = (off + align - 1) // align * align
        _register(self)

    def __setstate__(self, state):
        self.__dict__.update(state)     # unpickled IR (workers) registers its structs too
        if self.complete:
            _register(self)

    def field_type(self, name: str) -> CType | None:
        for fname, ftype in self.fields:
            if fname == name:
                return ftype
        return None

    def __hash__(self):
        return id(self)


@dataclass(frozen=True, eq=True)
class FuncT(CType):
    ret: CType
    params: tuple[CType, ...]
    variadic: bool = False
    noreturn: bool = False
    size: int = 1
    align: int = 1
    # Per parameter, whether it points to const (`const void *`): not part of the type's
    # identity, as C's qualifiers are not for calls and casts here.
    readonly: tuple[bool, ...] = field(default=(), compare=False)

    def key(self):
        return f"fn({','.join(p.key() for p in self.params)})->{self.ret.key()}"


VOID = VoidT()
BOOL = IntT(8, False, True)
CHAR = IntT(8, True)
UCHAR = IntT(8, False)
SHORT = IntT(16, True)
USHORT = IntT(16, False)
INT = IntT(32, True)
UINT = IntT(32, False)
LONG = IntT(64, True)
ULONG = IntT(64, False)
INT128 = IntT(128, True)
UINT128 = IntT(128, False)
DOUBLE = FloatT(64)
SIZE_T = ULONG
VOIDP = PtrT(VOID)

# Every spelling of an arithmetic base type, after sorting its words, to its type.
_BASE = {
    ("void",): VOID, ("_Bool",): BOOL, ("bool",): BOOL,
    ("char",): CHAR, ("char", "signed"): CHAR, ("char", "unsigned"): UCHAR,
    ("short",): SHORT, ("int", "short"): SHORT, ("short", "signed"): SHORT,
    ("int", "short", "signed"): SHORT, ("short", "unsigned"): USHORT,
    ("int", "short", "unsigned"): USHORT,
    ("int",): INT, ("signed",): INT, ("int", "signed"): INT, ("unsigned",): UINT,
    ("int", "unsigned"): UINT,
    ("long",): LONG, ("int", "long"): LONG, ("long", "signed"): LONG,
    ("int", "long", "signed"): LONG, ("long", "unsigned"): ULONG, ("int", "long", "unsigned"): ULONG,
    ("long", "long"): LONG, ("int", "long", "long"): LONG, ("long", "long", "signed"): LONG,
    ("int", "long", "long", "signed"): LONG, ("long", "long", "unsigned"): ULONG,
    ("int", "long", "long", "unsigned"): ULONG,
    ("__int128",): INT128, ("__int128", "signed"): INT128, ("__int128", "unsigned"): UINT128,
    ("__int128_t",): INT128, ("__uint128_t",): UINT128,
    ("float",): FloatT(32), ("double",): DOUBLE, ("double", "long"): FloatT(80),
    ("_Float16",): FloatT(16), ("__fp16",): FloatT(16), ("__bf16",): FloatT(16),
    ("_Float32",): FloatT(32), ("_Float64",): DOUBLE, ("_Float32x",): DOUBLE,
    ("_Float64x",): FloatT(80), ("__float80",): FloatT(80), ("_Float128",): FloatT(128),
    ("__float128",): FloatT(128), ("_Float128x",): FloatT(128), ("_Decimal32",): FloatT(32),
    ("_Decimal64",): DOUBLE, ("_Decimal128",): FloatT(128),
    ("__builtin_va_list",): PtrT(VOID), ("__gnuc_va_list",): PtrT(VOID),
}
_IGNORED_WORDS = {"_Complex", "__complex__", "_Imaginary"}


def base_type(names: list[str]) -> CType | None:
    words = tuple(sorted(n for n in names if n not in _IGNORED_WORDS))
    if any(n in ("_Complex", "__complex__") for n in names):
        return FloatT(128)  # complex values are unconstrained bits of the right size
    return _BASE.get(words)


def is_int(t: CType) -> bool:
    return isinstance(t, IntT)


def is_ptr(t: CType) -> bool:
    return isinstance(t, PtrT)


def is_scalar(t: CType) -> bool:
    return isinstance(t, (IntT, PtrT, FloatT))


def is_aggregate(t: CType) -> bool:
    return isinstance(t, (StructT, ArrT))


def promote(t: CType) -> CType:
    """C's integer promotions."""
    if isinstance(t, IntT) and t.bits < 32:
        return INT
    return t


def usual_arith(a: CType, b: CType) -> CType:
    """C's usual arithmetic conversions (LP64)."""
    if isinstance(a, FloatT) or isinstance(b, FloatT):
        fa = a.bits if isinstance(a, FloatT) else 0
        fb = b.bits if isinstance(b, FloatT) else 0
        return FloatT(max(fa, fb))
    a, b = promote(a), promote(b)
    if not isinstance(a, IntT) or not isinstance(b, IntT):
        return LONG
    if a == b:
        return a
    if a.signed == b.signed:
        return a if a.bits >= b.bits else b
    uns, sig = (a, b) if not a.signed else (b, a)
    if uns.bits >= sig.bits:
        return uns
    return sig  # the signed type is wider and can hold every unsigned value (LP64)


def decay(t: CType) -> CType:
    """Arrays decay to pointers to their first element, functions to function pointers."""
    if isinstance(t, ArrT):
        return PtrT(t.elem)
    if isinstance(t, FuncT):
        return PtrT(t)
    return t


def compatible(a: CType, b: CType) -> bool:
    return a is b or a.key() == b.key()


def points_to(t, target) -> bool:
    """Whether `t` is a pointer to the type `target` (a list link: a pointer field to the
    struct it is a field of)."""
    return isinstance(t, PtrT) and t.target is not None and target is not None and \
        t.target.key() == target.key()
