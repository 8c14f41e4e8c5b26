"""toolchain.pch.compile_with, the one fallback both engines use: a PCH clang calls stale is
dropped and the compile runs without it; any other failure is the user's and comes back as is."""
from __future__ import annotations

import pytest

from toolchain.pch import compile_with


def test_a_stale_pch_is_removed_and_the_compile_runs_without_it(tmp_path):
    pch = tmp_path / "prelude.pch"
    pch.write_bytes(b"old")
    calls = []

    def compile(flags):
        calls.append(flags)
        if flags:
            raise RuntimeError(f"fatal error: file 'x.h' has been modified since the precompiled header '{pch}' was built")
        return "built"

    assert compile_with(pch, compile) == "built"
    assert calls == [["-include-pch", str(pch)], []] and not pch.exists()


def test_a_users_error_naming_the_pch_on_its_command_line_is_raised_and_the_pch_kept(tmp_path):
    pch = tmp_path / "prelude.pch"
    pch.write_bytes(b"good")

    def compile(flags):
        raise RuntimeError(f"clang++-19 {' '.join(flags)} -c main.cpp\nmain.cpp:3:5: error: use of undeclared identifier 'x'")

    with pytest.raises(RuntimeError, match="undeclared identifier"):
        compile_with(pch, compile)
    assert pch.exists()


def test_without_a_pch_the_compile_gets_no_extra_flags():
    assert compile_with(None, lambda flags: flags) == []
