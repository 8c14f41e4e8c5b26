"""The command lines' parser: argparse with errors a new user can act on, each one line and exit
status 2 as argparse's. A misspelt flag is named with the nearest real one; a file left where no
argument takes it is named with the flag that does."""
from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path


class Parser(argparse.ArgumentParser):
    """argparse.ArgumentParser; `file_flag`: the flag a stray file among the arguments belongs to."""

    def __init__(self, *args, file_flag: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.file_flag = file_flag

    def parse_known_args(self, args=None, namespace=None):
        # NOTE: parse_args calls this; overriding parse_args instead would hide it from
        # tests/test_docs_commands.py, which stops each program right after its parser.
        args = sys.argv[1:] if args is None else list(args)
        for word in args[:args.index("--")] if "--" in args else args:
            unknown = self.unknown_flag(word)
            if unknown:
                self.error(unknown)
        namespace, extras = super().parse_known_args(args, namespace)
        stray = next((word for word in extras if looks_like_file(word)), None)
        if stray and self.file_flag:
            self.error(f"unrecognized argument {stray}: did you mean {self.file_flag} {stray}?")
        return namespace, extras

    def unknown_flag(self, word: str) -> str:
        """Why `word` is a flag this parser lacks, with the nearest it has; '' for anything else
        (a flag it has, a prefix argparse completes or finds ambiguous, a value)."""
        if not word.startswith("--"):
            return ""
        name = word.split("=", 1)[0]
        flags = [flag for action in self._actions for flag in action.option_strings if flag.startswith("--")]
        if name in flags or (self.allow_abbrev and any(flag.startswith(name) for flag in flags)):
            return ""
        close = difflib.get_close_matches(name, flags, n=1)
        return f"unknown flag {name}" + (f": did you mean {close[0]}?" if close else f"; {self.prog} --help lists them")

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\n")


def looks_like_file(word: str) -> bool:
    """Whether a command-line word names a submission file: a .py name, or a file that exists."""
    return word.endswith(".py") or Path(word).is_file()
