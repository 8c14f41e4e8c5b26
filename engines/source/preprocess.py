"""Source rewriting that turns HIP device code into host C++ for the emulator's headers.

Three rewrites, each keeping line numbers so compiler messages point at the user's lines:
  kernel<<<grid, block, shmem, stream>>>(args)  ->  ::emu::Launcher(grid, block, shmem, stream)(kernel, args)
  __shared__ T name[N];  (in a function)        ->  auto& name = ::emu::lds_var<T[N]>([]{});
  extern __shared__ T name[];                   ->  T* const name = ::emu::dynamic_lds<T>();
asm labels and inline assembly (engines/source/asm_rewrite.py), a source's own PYBIND11_MODULE
(becomes a function the emulator's module calls), a scan that rejects what the emulator cannot
run (MODE register access) with the construct and line, and stubs for builtins it does not
implement (they fail when called, naming builtin and line).
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

from engines.source.asm_rewrite import TYPE_WORDS, rewrite_asm
from engines.source.errors import EmulatorBuildError
from toolchain.cpp_text import host_view, mask_comments_and_strings

INCLUDE_DIR = Path(__file__).resolve().parent / "include"


def line_of(src: str, pos: int) -> int:
    return src.count("\n", 0, pos) + 1


def fail(filename: str, src: str, pos: int, message: str) -> None:
    raise EmulatorBuildError(f"{filename}:{line_of(src, pos)}: {message}")


def matching(masked: str, pos: int, open_ch: str, close_ch: str) -> int:
    """Index just past the bracket closing the one at pos."""
    depth = 0
    for i in range(pos, len(masked)):
        if masked[i] == open_ch:
            depth += 1
        elif masked[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


@functools.lru_cache(maxsize=1)
def emulated_builtins() -> frozenset[str]:
    """Every __builtin_amdgcn_* name the headers define (read from the headers themselves)."""
    names: set[str] = set()
    for header in (INCLUDE_DIR / "emu").glob("*.h"):
        text = header.read_text()
        names.update(re.findall(r"\b(__builtin_amdgcn_\w+)\s*\(", text))
        for m, k, a, b in re.findall(r"EMU_MFMA_F8\((\d+), (\d+), (\w+), (\w+)", text):
            names.add(f"__builtin_amdgcn_mfma_f32_{m}x{m}x{k}_{a}_{b}")
        names.update("__builtin_amdgcn_" + x for x in re.findall(r"EMU_MFMA_16BIT\((\w+),", text))
        for bits in re.findall(r"EMU_BUFFER_OPS\((\d+),", text):
            names.update({f"__builtin_amdgcn_raw_buffer_load_b{bits}", f"__builtin_amdgcn_raw_buffer_store_b{bits}"})
    return frozenset(names)


UNSUPPORTED = [
    (re.compile(r"\b(__builtin_amdgcn_s_setreg|__builtin_amdgcn_s_getreg)\b"), "{0} (MODE register access) is not emulated"),
]


def reject_unsupported(src: str, masked: str, filename: str) -> None:
    for pattern, message in UNSUPPORTED:
        target = src if "include" in pattern.pattern else masked
        m = pattern.search(target)
        if m:
            fail(filename, src, m.start(), message.format(m.group(1)))


def stub_unsupported_builtins(src: str, masked: str, filename: str) -> str:
    """Each __builtin_amdgcn_* the emulator does not implement becomes a stub that fails when called,
    naming the builtin and its line: code that never runs (another target's fallback) still builds."""
    known = emulated_builtins()
    edits = []
    for m in re.finditer(r"\b__builtin_amdgcn_\w+", masked):
        if m.group(0) not in known and not masked[m.end():].lstrip().startswith("##"):
            edits.append((m.start(), m.end(),
                          f'::emu::NotEmulated{{"{m.group(0)}", "{filename}", {line_of(src, m.start())}}}'))
    for a, b, text in reversed(edits):
        src = src[:a] + text + src[b:]
    return src


_NOT_A_KERNEL_NAME = {"__launch_bounds__", "__attribute__", "alignas", "__declspec", "decltype"}


def _parameter_name(declaration: str) -> str:
    """`const float* __restrict__ a` -> `a`; "" for an unnamed parameter (`float*`, `int`)."""
    text = re.sub(r"\[[^\]]*\]\s*$", "", declaration.split("=")[0]).strip()
    tokens = re.findall(r"\w+", re.sub(r"<[^<>]*>", " ", text))
    if len(tokens) < 2 or not re.search(r"\w$", text) or tokens[-1] in TYPE_WORDS:
        return ""
    return tokens[-1]


def kernel_parameters(masked: str) -> dict[str, str]:
    """Each __global__ function's parameter names, comma-separated ("" for an unnamed one), by the
    function's name; a name defined with different parameter lists is left out."""
    found: dict[str, set[str]] = {}
    for m in re.finditer(r"\b__global__\b", masked):
        pos = m.end()
        while (name := re.compile(r"\b(\w+)\s*\(").search(masked, pos)) is not None:
            close = matching(masked, name.end() - 1, "(", ")")
            if close < 0:
                break
            if name[1] in _NOT_A_KERNEL_NAME:
                pos = close
                continue
            params = masked[name.end():close - 1]
            names = [_parameter_name(p) for p in split_top_level(params)] if params.strip() not in ("", "void") else []
            found.setdefault(name[1], set()).add(",".join(names))
            break
    return {name: lists.pop() for name, lists in found.items() if len(lists) == 1}


def rewrite_launches(src: str, masked: str, filename: str) -> str:
    """kernel<<<cfg>>>(args) -> ::emu::Launcher(cfg)(kernel, args), right to left; the launch
    carries the kernel's name and, when this source defines it, its parameters' names."""
    parameters = kernel_parameters(masked)
    edits = []
    for m in re.finditer(r"<<<", masked):
        start = m.start()
        j = start
        while j > 0 and masked[j - 1].isspace():
            j -= 1
        # the kernel name: identifiers, '::' and balanced template arguments
        depth, k = 0, j
        while k > 0:
            c = masked[k - 1]
            if c == ">":
                depth += 1
            elif c == "<" and depth:
                depth -= 1
            elif not (depth or c.isalnum() or c in "_:"):
                break
            k -= 1
        kernel = src[k:j].strip()
        close = masked.find(">>>", start)
        if not kernel or close < 0:
            fail(filename, src, start, "cannot parse this <<<...>>> launch")
        config = src[start + 3:close]
        p = close + 3
        while p < len(masked) and masked[p].isspace():
            p += 1
        if p >= len(masked) or masked[p] != "(":
            fail(filename, src, start, "expected '(' after <<<...>>>")
        end = matching(masked, p, "(", ")")
        args = src[p + 1:end - 1]
        label = " ".join(kernel.split()).replace('"', '\\"')
        names = parameters.get(re.sub(r"<.*", "", label).split("::")[-1].strip())
        named = f'"{label}", "{names}"' if names else f'"{label}"'
        gap = "\n" * src.count("\n", j, start)  # keeps the line numbers of what follows
        call = f'::emu::Launcher({config}).named({named})({kernel}{gap}{", " + args if args.strip() else ""})'
        edits.append((k, end, call))
    for a, b, text in reversed(edits):
        src = src[:a] + text + src[b:]
    return src


def namespace_scope(masked: str, pos: int) -> bool:
    """True if pos is outside every function/class body (only namespace or extern "C" braces)."""
    stack: list[bool] = []
    last = 0
    for m in re.finditer(r"[{};]", masked[:pos]):
        if m.group(0) == "{":
            head = masked[last:m.start()]
            stack.append(bool(re.search(r'\bnamespace\b|\bextern\s*"\s*"\s*$', head)))
        elif m.group(0) == "}" and stack:
            stack.pop()
        last = m.end()
    return all(stack)


ATTRIBUTES = re.compile(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)|alignas\s*\([^()]*\)|\b(static|extern|__shared__)\b")


def split_top_level(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for c in text:
        depth += c in "([<{"
        depth -= c in ")]>}"
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    return parts + [cur]


def only_stored_to(masked: str, end: int, name: str) -> bool:
    """True if every use of the array `name` declared just before `end`, up to the end of its block,
    is a plain store `name[i]...[j] = v` (never read, address never taken)."""
    depth, stop = 0, len(masked)
    for i in range(end, len(masked)):
        depth += masked[i] == "{"
        depth -= masked[i] == "}"
        if depth < 0:
            stop = i
            break
    scope = masked[:stop]
    for m in re.finditer(r"\b%s\b" % re.escape(name), scope[end:]):
        a = end + m.start()
        if re.search(r"(\.|->|::)\s*$", scope[max(0, a - 8):a]):
            return False  # a member of the same name: leave it to the ordinary rules
        j = a + len(name)
        indexed = False
        while True:
            while j < stop and scope[j].isspace():
                j += 1
            if j < stop and scope[j] == "[":
                j = matching(scope, j, "[", "]")
                if j < 0:
                    return False
                indexed = True
            else:
                break
        if not (indexed and scope.startswith("=", j) and not scope.startswith("==", j)):
            return False
    return True


def rewrite_one_shared(src: str, masked: str, filename: str, start: int, end: int) -> str:
    """The replacement for the declaration statement src[start:end] (without its ';')."""
    decl = src[start:end]
    is_extern = re.search(r"\bextern\b", masked[start:end]) is not None
    body = ATTRIBUTES.sub(" ", decl)
    pieces = split_top_level(body)
    first = re.match(r"^\s*(.*?)\s*\b(\w+)\s*((?:\[[^\]]*\]\s*)*)$", pieces[0], re.S)
    if not first or not first.group(1).strip():
        fail(filename, src, start, f"cannot parse this __shared__ declaration: {decl.strip()}")
    type_name = first.group(1).strip()
    declarators = [(first.group(2), first.group(3))]
    for piece in pieces[1:]:
        m = re.match(r"^\s*(\w+)\s*((?:\[[^\]]*\]\s*)*)$", piece)
        if not m:
            fail(filename, src, start, f"cannot parse this __shared__ declaration: {decl.strip()}")
        declarators.append((m.group(1), m.group(2)))
    at_namespace = namespace_scope(masked, start)
    line = line_of(src, end)
    out = []
    for name, dims in declarators:
        dims = re.sub(r"\s+", "", dims)
        if is_extern:
            if dims != "[]":
                fail(filename, src, start, "extern __shared__ must be an unsized array")
            if at_namespace:
                out.append(f'\n#define {name} (::emu::dynamic_lds<{type_name}>())\n#line {line} "{filename}"\n')
            else:
                out.append(f"{type_name}* const {name} = ::emu::dynamic_lds<{type_name}>();")
        elif at_namespace:
            tag = f"emu_lds_tag_{name}"
            out.append(f'struct {tag} {{}};\n#define {name} (::emu::lds_var<{type_name}{dims}>({tag}{{}}))\n'
                       f'#line {line} "{filename}"\n')
        elif dims and only_stored_to(masked, end, name):
            # NOTE: the gfx942 compile deletes a __shared__ array that is only ever stored to, so it
            # does not count against the 64 KiB; neither does it here (scratch memory outside the LDS).
            out.append(f"auto& {name} = ::emu::unused_lds_var<{type_name}{dims}>([] {{}});")
        else:
            out.append(f"auto& {name} = ::emu::lds_var<{type_name}{dims}>([] {{}});")
    # keep every newline of the original declaration so later lines keep their numbers
    return " ".join(out) + "\n" * decl.count("\n")


def rewrite_shared(src: str, masked: str, filename: str) -> str:
    edits = []
    for m in re.finditer(r"\b__shared__\b", masked):
        start = max(masked.rfind(c, 0, m.start()) for c in ";{}") + 1
        if masked[start:m.start()].strip().startswith("#"):  # a macro definition mentioning __shared__
            continue
        while start < m.start() and masked[start].isspace():
            start += 1
        end = masked.find(";", m.end())
        if end < 0:
            fail(filename, src, m.start(), "unsupported use of __shared__ (only variable declarations are emulated)")
        if edits and edits[-1][0] == start:
            continue  # several __shared__ in one statement
        edits.append((start, end, rewrite_one_shared(src, masked, filename, start, end)))
    for a, b, text in reversed(edits):
        src = src[:a] + text + src[b:]
    return src


def preprocess(src: str, filename: str) -> str:
    """The emulator's host-C++ version of one HIP source, line numbers preserved."""
    masked = mask_comments_and_strings(src)
    reject_unsupported(src, masked, filename)
    src = rewrite_asm(src, masked, filename, emulated_builtins())
    src = stub_unsupported_builtins(src, mask_comments_and_strings(src), filename)
    masked = mask_comments_and_strings(src)
    src = rewrite_launches(src, masked, filename)
    masked = mask_comments_and_strings(src)
    src = rewrite_shared(src, masked, filename)
    masked = mask_comments_and_strings(src)
    src = rewrite_module_definition(src, masked, filename)
    src = host_view(src)
    return f'#line 1 "{filename}"\n' + src


def device_pass(text: str) -> str:
    """A preprocessed HIP source as hipcc's device pass sees it (build.py wraps each HIP source)."""
    # NOTE: hipcc compiles a HIP source twice; the device pass defines __HIP_DEVICE_COMPILE__ and
    # __AMDGCN__ and is the one whose code runs in kernels. The emulator has one pass for host and
    # device code, so the HIP source text sees the device pass's macros (code guarded by them is what
    # gfx942 runs); the C++ sources, torch's and the emulator's headers (included before) do not.
    # Host code in a HIP source inside `#ifndef __HIP_DEVICE_COMPILE__` is therefore not seen.
    return ("#define __HIP_DEVICE_COMPILE__ 1\n#define __AMDGCN__ 1\n" + text +
            "\n#undef __HIP_DEVICE_COMPILE__\n#undef __AMDGCN__\n")


MODULE_DEFINITION = re.compile(r"\bPYBIND11_MODULE\s*\(\s*[^,()]+,\s*(\w+)\s*(?:,[^()]*(?:\([^()]*\))?)?\)")


def module_init_name(filename: str) -> str:
    return "emu_user_module_" + re.sub(r"\W", "_", filename)


def rewrite_module_definition(src: str, masked: str, filename: str) -> str:
    """A source's own PYBIND11_MODULE(name, m) { ... } becomes a function the emulator's module calls."""
    m = MODULE_DEFINITION.search(masked)
    if not m:
        return src
    return src[:m.start()] + f"void {module_init_name(filename)}(pybind11::module_& {m.group(1)})" + src[m.end():]
