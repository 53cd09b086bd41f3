"""The flows of bench/flowsuite.py: how a flaw's source and sink are put together. Each flow
gives a case's files ([(suffix, C text)]) and the names of its good functions. Functions are
`bad`, `goodG2B`, `goodB2G` (with 1, 2 for the conditional forms); a helper is named for its
owner (`goodB2GSink`), with `__<id>` when other files see it."""
from __future__ import annotations

import zlib

HEAD = '#include "support.h"\n'
STATICS = """\
static const int STATIC_CONST_TRUE = 1, STATIC_CONST_FALSE = 0, STATIC_CONST_FIVE = 5;
static int staticTrue = 1, staticFalse = 0, staticFive = 5;
static int staticReturnsTrue(void)
{
    return 1;
}
static int staticReturnsFalse(void)
{
    return 0;
}
"""


def _fn(sig, body):
    return f"{sig}\n{{\n{body}}}\n"


def _ind(code, n=1):
    return "".join("    " * n + line + "\n" for line in code.splitlines() if line.strip())


def _uid(case):
    return f"{zlib.crc32(case.encode()):08x}"


def _variants(flaw):
    """(owner, source code, sink code) for bad and each good that exists for the flaw."""
    out = [("bad", flaw["bad_src"], flaw["bad_sink"])]
    if flaw["good_src"] is not None:
        out.append(("goodG2B", flaw["good_src"], flaw["bad_sink"]))
    out.append(("goodB2G", flaw["bad_src"], flaw["good_sink"]))
    return out


def _decl(flaw):
    return f"{flaw['type']} data = {flaw['init']};"


# -- one function --------------------------------------------------------------------------------
def straight(case, flaw):
    fns = [_fn(f"void {o}(void)", _ind(f"{_decl(flaw)}\n{src}\n{sink}"))
           for o, src, sink in _variants(flaw)]
    return [("", HEAD + "\n".join(fns))], [o for o, _, _ in _variants(flaw)[1:]]


def conditional(true, false):
    """Source and sink each under `if (true)`; goods also put the bad code in the branch
    `false` never takes."""
    def flow(case, flaw):
        fns, goods = [], []
        for o, src, sink in _variants(flaw):
            fns.append(_fn(f"void {o}(void)", _ind(
                f"{_decl(flaw)}\nif ({true})\n{{\n{_ind(src)}}}\nif ({true})\n{{\n{_ind(sink)}}}")))
            if o != "bad":
                goods.append(o)
        bad_src, bad_sink = flaw["bad_src"], flaw["bad_sink"]
        if flaw["good_src"] is not None:
            fns.append(_fn("void goodG2B1(void)", _ind(
                f"{_decl(flaw)}\nif ({false})\n{{\n{_ind(bad_src)}}}\nelse\n{{\n"
                f"{_ind(flaw['good_src'])}}}\nif ({true})\n{{\n{_ind(bad_sink)}}}")))
            goods.append("goodG2B1")
        fns.append(_fn("void goodB2G1(void)", _ind(
            f"{_decl(flaw)}\nif ({true})\n{{\n{_ind(bad_src)}}}\nif ({false})\n{{\n"
            f"{_ind(bad_sink)}}}\nelse\n{{\n{_ind(flaw['good_sink'])}}}")))
        goods.append("goodB2G1")
        return [("", HEAD + STATICS + "\n".join(fns))], goods
    return flow


def either(case, flaw):
    """A branch nobody can predict: bad in both arms, good in both arms."""
    fns = []
    for o, src, sink in _variants(flaw):
        fns.append(_fn(f"void {o}(void)", _ind(
            f"{_decl(flaw)}\nif (globalReturnsTrueOrFalse())\n{{\n{_ind(src)}}}\nelse\n{{\n"
            f"{_ind(src)}}}\nif (globalReturnsTrueOrFalse())\n{{\n{_ind(sink)}}}\nelse\n{{\n"
            f"{_ind(sink)}}}")))
    return [("", HEAD + "\n".join(fns))], [o for o, _, _ in _variants(flaw)[1:]]


def shaped(form):
    """Source and sink each inside a statement form: `form(code)` gives the statement."""
    def flow(case, flaw):
        fns = [_fn(f"void {o}(void)", _ind(f"int i = 0, k = 6;\n{_decl(flaw)}\n{form(src)}\n"
                                           f"{form(sink)}\n(void)i; (void)k;"))
               for o, src, sink in _variants(flaw)]
        return [("", HEAD + "\n".join(fns))], [o for o, _, _ in _variants(flaw)[1:]]
    return flow


def gotos(case, flaw):
    fns = [_fn(f"void {o}(void)", _ind(f"{_decl(flaw)}\ngoto source;\nsource:\n{src}\n"
                                       f"goto sink;\nsink:\n{sink}"))
           for o, src, sink in _variants(flaw)]
    return [("", HEAD + "\n".join(fns))], [o for o, _, _ in _variants(flaw)[1:]]


def copied(case, flaw):
    fns = [_fn(f"void {o}(void)", _ind(
        f"{_decl(flaw)}\n{src}\n{{\n    {flaw['type']} dataCopy = data;\n"
        f"    {flaw['type']} data = dataCopy;\n{_ind(sink)}}}"))
        for o, src, sink in _variants(flaw)]
    return [("", HEAD + "\n".join(fns))], [o for o, _, _ in _variants(flaw)[1:]]


def through_pointers(case, flaw):
    t = flaw["type"]
    fns = [_fn(f"void {o}(void)", _ind(
        f"{_decl(flaw)}\n{t} *dataPtr1 = &data;\n{t} *dataPtr2 = &data;\n"
        f"{{\n    {t} data = *dataPtr1;\n{_ind(src)}    *dataPtr1 = data;\n}}\n"
        f"{{\n    {t} data = *dataPtr2;\n{_ind(sink)}}}"))
        for o, src, sink in _variants(flaw)]
    return [("", HEAD + "\n".join(fns))], [o for o, _, _ in _variants(flaw)[1:]]


def through_union(case, flaw):
    t = flaw["type"]
    fns = [_fn(f"void {o}(void)", _ind(
        f"{_decl(flaw)}\nunion {{ {t} first; {t} second; }} u;\n{src}\nu.first = data;\n"
        f"{{\n    {t} data = u.second;\n{_ind(sink)}}}"))
        for o, src, sink in _variants(flaw)]
    return [("", HEAD + "\n".join(fns))], [o for o, _, _ in _variants(flaw)[1:]]


# -- helpers in the same file --------------------------------------------------------------------
def helper(kind):
    """kind: sink (data passed), source (returned), fnptr, static (a static global), ptr, void,
    array, struct, flag (a static flag the sink tests)."""
    def flow(case, flaw):
        t, parts = flaw["type"], []
        if kind == "struct":
            parts.append(f"typedef struct {{ {t} first; }} holder_t;\n")
        for o, src, sink in _variants(flaw):
            parts.append(_helper_pair(kind, o, t, _decl(flaw), src, sink))
        return [("", HEAD + "\n".join(parts))], [o for o, _, _ in _variants(flaw)[1:]]
    return flow


def _helper_pair(kind, o, t, decl, src, sink):
    if kind == "source":
        return _fn(f"static {t} {o}Source({t} data)", _ind(f"{src}\nreturn data;")) + \
            _fn(f"void {o}(void)", _ind(f"{decl}\ndata = {o}Source(data);\n{sink}"))
    sig, call, pre = {
        "sink": (f"({t} data)", f"{o}Sink(data);", ""),
        "fnptr": (f"({t} data)", f"void (*funcPtr)({t}) = {o}Sink;\nfuncPtr(data);", ""),
        "static": ("(void)", f"{o}Data = data;\n{o}Sink();", f"static {t} {o}Data;\n"),
        "ptr": (f"({t} *dataPtr)", f"{o}Sink(&data);", ""),
        "void": ("(void *dataVoidPtr)", f"{o}Sink(&data);", ""),
        "array": (f"({t} dataArray[])", f"{{\n    {t} dataArray[5];\n    dataArray[2] = data;\n"
                                        f"    {o}Sink(dataArray);\n}}", ""),
        "struct": ("(holder_t holder)", f"{{\n    holder_t holder;\n    holder.first = data;\n"
                                       f"    {o}Sink(holder);\n}}", ""),
        "flag": (f"({t} data)", f"{o}Static = 1;\n{o}Sink(data);", f"static int {o}Static = 0;\n"),
    }[kind]
    get = {"static": f"{t} data = {o}Data;", "ptr": f"{t} data = *dataPtr;",
           "void": f"{t} *dataPtr = ({t} *)dataVoidPtr;\n{t} data = *dataPtr;",
           "array": f"{t} data = dataArray[2];", "struct": f"{t} data = holder.first;"}.get(kind, "")
    body = f"if ({o}Static)\n{{\n{_ind(sink)}}}" if kind == "flag" else sink
    return pre + _fn(f"static void {o}Sink{sig}", _ind(f"{get}\n{body}")) + \
        _fn(f"void {o}(void)", _ind(f"{decl}\n{src}\n{call}"))


# -- other files ---------------------------------------------------------------------------------
def other_file(kind, depth=1):
    """kind: sink (in the next file, through `depth` files), source, fnptr, global (data in a
    global of the case), flag (a global flag set here, tested there)."""
    def flow(case, flaw):
        t, u = flaw["type"], _uid(case)
        a, b = [HEAD], [HEAD]
        extra = [[HEAD] for _ in range(depth - 1)]
        for o, src, sink in _variants(flaw):
            decl = _decl(flaw)
            if kind == "source":
                a.append(f"{t} {o}Source__{u}({t} data);\n" + _fn(
                    f"void {o}(void)", _ind(f"{decl}\ndata = {o}Source__{u}(data);\n{sink}")))
                b.append(_fn(f"{t} {o}Source__{u}({t} data)", _ind(f"{src}\nreturn data;")))
                continue
            if kind == "global":
                a.append(f"{t} {o}Data__{u};\nvoid {o}Sink__{u}(void);\n" + _fn(
                    f"void {o}(void)", _ind(f"{decl}\n{src}\n{o}Data__{u} = data;\n"
                                            f"{o}Sink__{u}();")))
                b.append(f"extern {t} {o}Data__{u};\n" + _fn(
                    f"void {o}Sink__{u}(void)", _ind(f"{t} data = {o}Data__{u};\n{sink}")))
                continue
            if kind == "flag":
                a.append(f"int {o}Global__{u} = 0;\nvoid {o}Sink__{u}({t} data);\n" + _fn(
                    f"void {o}(void)", _ind(f"{decl}\n{src}\n{o}Global__{u} = 1;\n"
                                            f"{o}Sink__{u}(data);")))
                b.append(f"extern int {o}Global__{u};\n" + _fn(
                    f"void {o}Sink__{u}({t} data)", _ind(f"if ({o}Global__{u})\n{{\n{_ind(sink)}}}")))
                continue
            call = f"void (*funcPtr)({t}) = {o}Sink__{u};\nfuncPtr(data);" if kind == "fnptr" \
                else f"{o}Sink__{u}(data);"
            a.append(f"void {o}Sink__{u}({t} data);\n" + _fn(
                f"void {o}(void)", _ind(f"{decl}\n{src}\n{call}")))
            names = [f"{o}Sink__{u}"] + [f"{o}Sink_{chr(98 + k)}__{u}" for k in range(depth - 1)]
            files = [b] + extra
            for k, fl in enumerate(files):
                last = k == len(files) - 1
                body = sink if last else f"{names[k + 1]}(data);"
                proto = "" if last else f"void {names[k + 1]}({t} data);\n"
                fl.append(proto + _fn(f"void {names[k]}({t} data)", _ind(body)))
        files = [("_a", "\n".join(a)), ("_b", "\n".join(b))] + \
            [(f"_{chr(99 + k)}", "\n".join(e)) for k, e in enumerate(extra)]
        return files, [o for o, _, _ in _variants(flaw)[1:]]
    return flow


FLOWS = {
    "01_straight": straight,
    "02_if_literal": conditional("1", "0"),
    "03_if_const_eq": conditional("5 == 5", "5 != 5"),
    "04_static_const": conditional("STATIC_CONST_TRUE", "STATIC_CONST_FALSE"),
    "05_static_var": conditional("staticTrue", "staticFalse"),
    "06_static_const_five": conditional("STATIC_CONST_FIVE == 5", "STATIC_CONST_FIVE != 5"),
    "07_static_five": conditional("staticFive == 5", "staticFive != 5"),
    "08_static_fn": conditional("staticReturnsTrue()", "staticReturnsFalse()"),
    "09_global_const": conditional("GLOBAL_CONST_TRUE", "GLOBAL_CONST_FALSE"),
    "10_global_var": conditional("globalTrue", "globalFalse"),
    "11_global_fn": conditional("globalReturnsTrue()", "globalReturnsFalse()"),
    "12_either": either,
    "13_global_const_five": conditional("GLOBAL_CONST_FIVE == 5", "GLOBAL_CONST_FIVE != 5"),
    "14_global_five": conditional("globalFive == 5", "globalFive != 5"),
    "15_switch": shaped(lambda c: f"switch (k)\n{{\ncase 6:\n{_ind(c)}    break;\ndefault:\n"
                                  f"    printLine(\"benign\");\n    break;\n}}"),
    "16_while_break": shaped(lambda c: f"while (1)\n{{\n{_ind(c)}    break;\n}}"),
    "17_for_once": shaped(lambda c: f"for (i = 0; i < 1; i++)\n{{\n{_ind(c)}}}"),
    "18_goto": gotos,
    "21_static_flag": helper("flag"),
    "22_global_flag": other_file("flag"),
    "31_copy": copied,
    "32_pointers": through_pointers,
    "34_union": through_union,
    "41_sink": helper("sink"),
    "42_source": helper("source"),
    "44_function_pointer": helper("fnptr"),
    "45_static_data": helper("static"),
    "51_sink_file": other_file("sink"),
    "52_sink_chain3": other_file("sink", 2),
    "54_sink_chain5": other_file("sink", 4),
    "61_source_file": other_file("source"),
    "63_pointer": helper("ptr"),
    "64_void_pointer": helper("void"),
    "65_function_pointer_file": other_file("fnptr"),
    "66_array": helper("array"),
    "67_struct": helper("struct"),
    "68_global_data": other_file("global"),
}
