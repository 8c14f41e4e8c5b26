"""What the emulator does with `asm` in a HIP source, line numbers preserved.

Two different things share the keyword:
  * a declaration bound to an LLVM intrinsic by its assembler label (CK style)
        __device__ int32x4_t load(int32x4_t rsrc, int voff, int soff, int aux) __asm("llvm.amdgcn.raw.buffer.load.v4i32");
    becomes a definition that calls the emulator's version of that intrinsic
    (include/emu/llvm_intrinsics.h); an intrinsic it does not know fails when called, naming
    the declaration's line;
  * an inline assembly statement `asm volatile("..." : outputs : inputs : clobbers);`
    Scheduling-only instructions (s_waitcnt, s_nop, s_setprio, sched_barrier, an empty
    template) are no-ops, `s_barrier` is a workgroup barrier; anything else becomes a call that
    fails at run time naming the line, so a helper that is never called costs nothing.
"""
from __future__ import annotations

import re

from engines.source.errors import EmulatorBuildError

ASM_KEYWORD = re.compile(r"\b(asm|__asm__|__asm)\b")
ASM_QUALIFIER = re.compile(r"\s*\b(volatile|__volatile__|__volatile|inline|goto)\b")
STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
LEADING_STRINGS = re.compile(r'(?:\s*"(?:[^"\\\n]|\\.)*")*')
# Instructions that only order or pace execution: nothing to do in a sequential emulator.
SCHEDULING_ONLY = {"s_nop", "s_waitcnt", "s_waitcnt_vmcnt", "s_waitcnt_lgkmcnt", "s_waitcnt_expcnt",
                   "s_waitcnt_vscnt", "s_setprio", "s_sleep", "s_sched_barrier", "s_icache_inv",
                   "buffer_wbinvl1", "buffer_wbinvl1_vol", "buffer_wbl2", "buffer_inv", "s_dcache_wb",
                   "s_dcache_inv", "v_nop"}
BARRIER = "s_barrier"
COUNTERS = {"s_memtime": "__builtin_amdgcn_s_memtime", "s_memrealtime": "__builtin_amdgcn_s_memrealtime"}
TYPE_WORDS = {"int", "unsigned", "signed", "long", "short", "char", "float", "double", "bool", "void", "const",
              "volatile", "_Float16", "__fp16", "__bf16", "auto", "struct", "typename", "__restrict__",
              "__restrict", "restrict"}

# llvm.amdgcn.<family>.<type suffix>: the emulator helper that implements the family.
LLVM_FAMILIES = [
    (re.compile(r"llvm\.amdgcn\.raw(?:\.ptr)?\.buffer\.load\.lds$"), "raw_buffer_load_lds"),
    (re.compile(r"llvm\.amdgcn\.struct(?:\.ptr)?\.buffer\.load\.lds$"), "struct_buffer_load_lds"),
    (re.compile(r"llvm\.amdgcn\.raw(?:\.ptr)?\.buffer\.load(?:\.format)?(?:\.(\w+))?$"), "raw_buffer_load"),
    (re.compile(r"llvm\.amdgcn\.raw(?:\.ptr)?\.buffer\.store(?:\.format)?(?:\.(\w+))?$"), "raw_buffer_store"),
    (re.compile(r"llvm\.amdgcn\.struct(?:\.ptr)?\.buffer\.load(?:\.format)?(?:\.(\w+))?$"), "struct_buffer_load"),
    (re.compile(r"llvm\.amdgcn\.struct(?:\.ptr)?\.buffer\.store(?:\.format)?(?:\.(\w+))?$"), "struct_buffer_store"),
    (re.compile(r"llvm\.amdgcn\.raw(?:\.ptr)?\.buffer\.atomic\.(\w+?)(?:\.(?:[vif]\d+)+)?$"), "raw_buffer_atomic"),
    (re.compile(r"llvm\.amdgcn\.s\.barrier$"), "barrier"),
    (re.compile(r"llvm\.amdgcn\.(?:s\.waitcnt|s\.nop|s\.sleep|s\.setprio|sched\.barrier|sched\.group\.barrier"
                r"|iglp\.opt|s\.dcache\.wb|buffer\.wbinvl1)(?:\.\w+)?$"), "no_op"),
]
TYPE_SUFFIX = re.compile(r"^(?:v(\d+))?([if])(\d+)$")


def _line(src: str, pos: int) -> int:
    return src.count("\n", 0, pos) + 1


def _fail(filename: str, src: str, pos: int, message: str) -> None:
    raise EmulatorBuildError(f"{filename}:{_line(src, pos)}: {message}")


def _closing(masked: str, pos: int) -> int:
    """Index just past the parenthesis that closes the one at pos."""
    depth = 0
    for i in range(pos, len(masked)):
        depth += masked[i] == "("
        depth -= masked[i] == ")"
        if depth == 0:
            return i + 1
    return -1


def _split_top(text: str, masked: str, sep: str) -> list[str]:
    """text split at `sep` outside brackets (masked: the same text with literals blanked)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(masked):
        depth += c in "([{<"
        depth -= c in ")]}>"
        if c == sep and depth == 0 and not (sep == ":" and (masked[i + 1:i + 2] == ":" or masked[i - 1:i] == ":")):
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


def _template(text: str) -> str:
    """The assembler template: the concatenated string literals, escapes decoded."""
    raw = "".join(m.group(1) for m in STRING.finditer(text))
    return raw.replace("\\n", "\n").replace("\\t", "\t").replace('\\"', '"').replace("\\\\", "\\")


def _mnemonics(template: str) -> list[str]:
    out = []
    for line in re.split(r"[\n;]", re.sub(r"//[^\n]*", "", template)):
        line = line.strip()
        if line and not line.startswith(("#", ".")):
            out.append(line.split()[0])
    return out


def _statement_replacement(src: str, masked: str, filename: str, start: int, end: int) -> str:
    inner = src[src.index("(", start) + 1:end - 1]
    template = _template(LEADING_STRINGS.match(inner).group(0))
    mnemonics = _mnemonics(template)
    newlines = "\n" * src.count("\n", start, end)
    if all(m in SCHEDULING_ONLY or m == BARRIER for m in mnemonics):
        barriers = sum(m == BARRIER for m in mnemonics)
        return ("(" + ", ".join(["__syncthreads()"] * barriers) + ")" if barriers else "((void)0)") + newlines
    counters = [m for m in mnemonics if m in COUNTERS]
    if len(counters) == 1 and all(m in SCHEDULING_ONLY or m in COUNTERS for m in mnemonics):
        output = re.match(r'\s*"=&?\w+"\s*\((.*)\)\s*$', inner[len(LEADING_STRINGS.match(inner).group(0)):]
                          .split(":")[1] if inner.count(":") >= 1 else "", re.S)
        if output:  # a debug clock read: the host counter (see amdgcn.h)
            return f"(({output.group(1)}) = {COUNTERS[counters[0]]}())" + newlines
    first = mnemonics[0] if mnemonics else ""
    text = " ".join(template.split())[:60].replace("\\", "\\\\").replace('"', '\\"')
    return f'::emu::inline_asm_reached("{filename}", {_line(src, start)}, "{text}", "{first}")' + newlines


def _statement_start(masked: str, pos: int) -> int:
    """Start of the declaration that ends at pos: after the previous ; { } or preprocessor line."""
    start = max(masked.rfind(c, 0, pos) for c in ";{}") + 1
    lines = list(re.finditer(r"^[ \t]*#[^\n]*(?:\\\n[^\n]*)*\n", masked[start:pos], re.M))
    if lines:
        start += lines[-1].end()
    while start < pos and masked[start].isspace():
        start += 1
    return start


def _name_params(params: str, params_masked: str) -> tuple[str, int]:
    """The parameter list with every parameter named p0, p1, ... (defaults kept)."""
    if not params.strip() or params.strip() == "void":
        return params, 0
    out = []
    pieces = _split_top(params, params_masked, ",")
    for i, piece in enumerate(pieces):
        decl, default = (piece.split("=", 1) + [None])[:2]
        decl = decl.rstrip()
        words = re.findall(r"[A-Za-z_]\w*", re.sub(r"__attribute__\s*\(\(.*?\)\)", "", decl))
        last = re.search(r"([A-Za-z_]\w*)\s*$", decl)
        named = last and len(words) >= 2 and words[-1] not in TYPE_WORDS and not decl.rstrip().endswith(("*", "&"))
        decl = decl[:last.start(1)] + f"p{i}" if named else decl + f" p{i}"
        out.append(decl + (" =" + default if default is not None else ""))
    return ",".join(out), len(pieces)


def _intrinsic_call(label: str, count: int, filename: str, line: int, builtins: frozenset[str]) -> str:
    args = ", ".join(f"p{i}" for i in range(count))
    for pattern, helper in LLVM_FAMILIES:
        m = pattern.match(label)
        if not m:
            continue
        if helper == "no_op":
            return "{ }"
        if helper == "barrier":
            return "{ __syncthreads(); }"
        if helper.endswith("_lds"):
            return f"{{ ::emu::llvm::{helper}({args}); }}"
        if helper == "raw_buffer_atomic":
            return f'{{ return ::emu::llvm::raw_buffer_atomic("{m.group(1)}", {args}); }}'
        width = 0
        suffix = TYPE_SUFFIX.match(m.group(1) or "")
        if suffix:
            width = int(suffix.group(1) or 1) * int(suffix.group(3)) // 8
        return f"{{ return ::emu::llvm::{helper}<{width}>({args}); }}"
    # llvm.amdgcn.x.y[.type] with an emulated __builtin_amdgcn_x_y: forward to it
    parts = label.split(".")
    for n in (len(parts), len(parts) - 1):
        builtin = "__builtin_amdgcn_" + "_".join(parts[2:n])
        if label.startswith("llvm.amdgcn.") and builtin in builtins:
            return f"{{ return {builtin}({args}); }}"
    return f'{{ ::emu::llvm::not_emulated("{label}", "{filename}", {line}); }}'


def _label_replacement(src: str, masked: str, filename: str, start: int, asm_pos: int, end: int, label: str,
                       builtins: frozenset[str]) -> str:
    decl, decl_masked = src[start:asm_pos], masked[start:asm_pos]
    close = decl_masked.rstrip()
    while close and not close.endswith(")"):  # const, noexcept, attributes after the parameter list
        m = re.search(r"(\b\w+|__attribute__\s*\(\(.*\)\))\s*$", close)
        if not m:
            break
        close = close[:m.start()].rstrip()
    if not close.endswith(")"):
        _fail(filename, src, asm_pos, f"cannot parse the declaration bound to {label}")
    depth, i = 0, len(close) - 1
    while i >= 0:
        depth += close[i] == ")"
        depth -= close[i] == "("
        if depth == 0:
            break
        i -= 1
    head, params = decl[:i], decl[i + 1:len(close) - 1]
    named, count = _name_params(params, decl_masked[i + 1:len(close) - 1])
    head = re.sub(r"\bextern\b", "", head)
    head = head if re.search(r"\binline\b", head) else "inline " + head
    body = _intrinsic_call(label, count, filename, _line(src, asm_pos), builtins)
    return f"{head}({named}) {body}" + "\n" * src.count("\n", len(close) + start, end)


def rewrite_asm(src: str, masked: str, filename: str, builtins: frozenset[str]) -> str:
    """src with every asm label declaration and inline assembly statement rewritten (see above)."""
    edits = []
    for m in ASM_KEYWORD.finditer(masked):
        p = m.end()
        while (q := ASM_QUALIFIER.match(masked, p)):
            p = q.end()
        while p < len(masked) and masked[p].isspace():
            p += 1
        if p >= len(masked) or masked[p] != "(":
            _fail(filename, src, m.start(), f"cannot parse this {m.group(1)}")
        end = _closing(masked, p)
        if end < 0:
            _fail(filename, src, m.start(), f"unbalanced parentheses after {m.group(1)}")
        inner_masked = masked[p + 1:end - 1]
        template = _template(src[p + 1:end - 1])
        before = masked[:m.start()].rstrip()
        is_label = (":" not in inner_masked and p == masked.index("(", m.end()) and template
                    and not re.search(r"\s", template) and before.endswith(")")
                    and masked[end:].lstrip()[:1] in (";", "{", "_"))
        if is_label:
            stmt = _statement_start(masked, m.start())
            semi = masked.find(";", end)
            edits.append((stmt, semi, _label_replacement(src, masked, filename, stmt, m.start(), semi, template,
                                                         builtins)))
        else:
            edits.append((m.start(), end, _statement_replacement(src, masked, filename, m.start(), end)))
    for a, b, text in reversed(edits):
        src = src[:a] + text + src[b:]
    return src
