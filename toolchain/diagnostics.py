"""The one compiler error a user needs from a failed build's output, and where the rest went.

A build's output can be pages long: warnings, include stacks, template backtraces, the build
tool's command lines. `first_error` picks clang's first error and moves it to the user's own
line: when the error sits in a header (ours, HIP's, torch's), the first note of its backtrace
that points into the user's file ("in instantiation of ... requested here") gives the line.
Both engines and the offline report use it for their build failures.
"""
from __future__ import annotations

import re
import sysconfig
from pathlib import Path

from toolchain import REPO_ROOT, host_api
from toolchain.headers import GENERATED_ROOT, INCLUDE_DIR, STANDIN_DIR

MAX_LINE = 200  # characters of one line of a failure message; the full text goes to a log file
_DIAGNOSTIC = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<kind>fatal error|error|warning|note): "
                         r"(?P<text>.*)$")
_CODE = re.compile(r"^\s*\d+\s*\|(?P<code>.*)$")
_INCLUDED_FROM = re.compile(r"^In file included from (?P<file>[^:]+):(?P<line>\d+)[:,]")
_INCOMPLETE_STANDIN = re.compile(r"incomplete type '(\w+)' named in nested name specifier")


# The clone's folder as the engines' line tables name it (debug_prefix_maps), so a build made in
# one clone is the same build in every other.
DEBUG_REPO_ROOT = "/amd-fp8-mm"
SOURCE_ENGINE_INCLUDE = REPO_ROOT / "engines" / "source" / "include"


def keyed_name(folder: Path) -> str:
    """`folder` of this clone as line tables name it."""
    return f"{DEBUG_REPO_ROOT}/{folder.relative_to(REPO_ROOT)}"


def debug_prefix_maps(*folders: Path) -> list[str]:
    """The flags that name our header `folders` in line tables without this clone's path."""
    return [f"-fdebug-prefix-map={folder}={keyed_name(folder)}" for folder in folders]


def system_prefixes() -> tuple[str, ...]:
    """Folders whose files are never the submission's: the system's (the C++ library, HIP,
    ROCm, Python's packages such as torch) and the headers of our toolchain and engines. The
    one definition: the engines' failure lines (the ISA engine's core is handed it) use it too."""
    paths = sysconfig.get_paths()
    ours = [INCLUDE_DIR, SOURCE_ENGINE_INCLUDE, GENERATED_ROOT]
    return ("/usr/", "/opt/rocm", *{paths[key] for key in ("stdlib", "purelib", "platlib", "include")},
            *map(str, ours), keyed_name(INCLUDE_DIR), keyed_name(SOURCE_ENGINE_INCLUDE))


def is_user_file(path: str) -> bool:
    """A file of the submission's (its sources, its own include folders), not a header of the
    toolchain, the engines, torch or the system."""
    return not path.startswith(system_prefixes())


def short(text: str, limit: int = MAX_LINE) -> str:
    return text if len(text) <= limit else text[:limit - 4] + " ..."


def first_error(output: str) -> str | None:
    """clang's first error, at the user's line when the backtrace reaches one, with that line's
    code: two or three lines, each at most MAX_LINE characters; None when there is no error."""
    lines = output.splitlines()
    diagnostics = [(i, m) for i, line in enumerate(lines) if (m := _DIAGNOSTIC.match(line.strip()))]
    start = next((k for k, (_, m) in enumerate(diagnostics) if m["kind"] in ("error", "fatal error")), None)
    if start is None:
        plain = next((line.strip() for line in lines if re.search(r"\berror\b", line, re.IGNORECASE)), None)
        return short(plain) if plain else None
    index, error = diagnostics[start]
    site_index, site = index, error
    if not is_user_file(error["file"]):
        for i, note in diagnostics[start + 1:]:
            if note["kind"] != "note":
                break
            if is_user_file(note["file"]):
                site_index, site = i, note
                break
    include, included = _user_include(lines, index) if site is error else (None, None)
    where = f"{Path(site['file']).name}:{site['line']}:{site['col']}" if include is None else include
    text = f"{where}: error: {error['text']}"
    if site is not error or include is not None:
        text += f" (in {Path(error['file']).name}:{error['line']})"
    out = [short(text)]
    code = _CODE.match(lines[site_index + 1]) if site_index + 1 < len(lines) and include is None else None
    if code:
        out.append(short(f"    {site['line']} | {code['code'].strip()}"))
        hint = _standin_hint(error["text"], code["code"], int(site["col"]), lines[site_index + 1])
        if hint:
            out.append(short(hint))
    hint = host_api.hint(error["text"], included)
    if hint:
        out.append(short(hint))
    return "\n".join(out)


def _user_include(lines: list[str], index: int) -> tuple[str | None, str | None]:
    """For an error inside a header: the user's own #include that led there ("file:line") and
    the header it named (its path under an include folder), from clang's "In file included
    from" lines above the error (outermost first); (None, None) when none is the user's."""
    chain = []
    for line in reversed(lines[:index]):
        match = _INCLUDED_FROM.match(line.strip())
        if match is None:
            break
        chain.insert(0, (match["file"], match["line"]))
    users = [k for k, (file, _) in enumerate(chain) if is_user_file(file)]
    if not users:
        return None, None
    k = users[-1]
    file, line = chain[k]
    inner = chain[k + 1][0] if k + 1 < len(chain) else None
    return f"{Path(file).name}:{line}", inner.rsplit("/include/", 1)[-1] if inner else None


def _standin_hint(message: str, code: str, column: int, code_line: str) -> str | None:
    """Names the symbol a stand-in library (toolchain/include/standins) cannot give."""
    match = _INCOMPLETE_STANDIN.search(message)
    if not match or not (STANDIN_DIR / match[1]).is_dir():
        return None
    bar = code_line.index("|") + 1
    used = re.match(r"[\w:]+", code_line[bar + column:])  # NOTE: clang puts one space after the bar
    symbol = used[0] if used and used[0].startswith(match[1] + "::") else f"{match[1]}::..."
    return (f"{symbol} is from {match[1]}, which cannot be installed here: "
            f"toolchain/include/standins/{match[1]} is an empty stand-in")


def write_log(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def calling_file() -> Path | None:
    """The .py that called a build (load_inline): the first frame outside the harness, the
    engines, the standard library and installed packages (torch, importlib, a task runner such
    as Ray); builds name the user's sources after it."""
    import sys
    import sysconfig

    installed = {sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib")}
    skipped = tuple(str(REPO_ROOT / part) for part in ("eval", "predictor", "reports", "engines", "toolchain"))
    skipped += tuple(sorted(installed))
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.endswith(".py") and not filename.startswith(skipped) and Path(filename).is_file():
            return Path(filename)
        frame = frame.f_back
    return None


def source_label(origin: Path | None, text: str, kind: str, fallback: str) -> tuple[str, int]:
    """(file name, first line) that a build's diagnostics should give one source string: the
    calling file and the string's line there when it is a literal of that file, else
    `<file>[cuda_sources]` counting lines in the string (compressed, templated, read from
    elsewhere); `fallback` without a calling file."""
    if origin is None:
        return fallback, 1
    try:
        found = origin.read_text().find(text) if text.strip() else -1
    except (OSError, UnicodeDecodeError):
        found = -1
    if found >= 0:
        return str(origin), origin.read_text().count("\n", 0, found) + 1
    return f"{origin}[{kind}]", 1
