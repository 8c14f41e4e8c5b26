"""Every command the README and docs/ show runs as written: each one's arguments go through its
own program's parser (flags, choices and values as the program reads them, stopped before it
does any work), and the cheap ones run whole. A synopsis (`[--flag]`, `a|b`) is not a command."""
from __future__ import annotations

import argparse
import re
import runpy
import shlex
import sys

import pytest

from tests.conftest import REPO

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
RUN_WHOLE = {"python eval/run.py ranked --preflight-only --submission submission.py"}


def shown_commands() -> list[tuple[str, str]]:
    """(page, command) for each `python ...` line of the pages' shell blocks, comments dropped and
    continued lines joined."""
    found = []
    for page in DOCS:
        for block in re.findall(r"```(?:bash|sh)\n(.*?)```", page.read_text(), re.S):
            for line in block.replace("\\\n", " ").splitlines():
                command = shlex.split(line, comments=True)
                if command[:1] == ["python"] and not any(re.search(r"[\[|]", word) for word in command):
                    found.append((page.name, shlex.join(command)))
    return found


class Parsed(Exception):
    pass


@pytest.fixture
def parse_only(monkeypatch):
    """Runs a command in this process up to its parser's verdict: Parsed when its arguments parse,
    SystemExit (with argparse's message on stderr) when they do not."""
    parse = argparse.ArgumentParser.parse_args

    def parse_then_stop(self, *args, **kwargs):
        parse(self, *args, **kwargs)
        raise Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)

    def run(command: str) -> None:
        words = shlex.split(command)[1:]
        if words[0] == "-m":
            monkeypatch.setattr(sys, "argv", words[1:])
            runpy.run_module(words[1], run_name="__main__", alter_sys=True)
        else:
            monkeypatch.setattr(sys, "argv", words)
            runpy.run_path(str(REPO / words[0]), run_name="__main__")
    return run


def test_the_pages_show_commands_and_every_program_is_covered():
    commands = [command for _, command in shown_commands()]
    assert len(commands) >= 20, commands
    for program in ("eval/run.py", "reports/compare.py", "eval.batch", "reports.offline", "predictor.calibrate",
                    "reports.validation", "predictor.microbench", "engines.isa.device_code"):
        assert any(program in command for command in commands), program
    assert RUN_WHOLE <= set(commands)


# runpy warns when it runs a module an earlier command (or this process) already imported
@pytest.mark.filterwarnings("ignore:.*found in sys.modules after import of package:RuntimeWarning")
@pytest.mark.parametrize("page,command", shown_commands(), ids=[c for _, c in shown_commands()])
def test_a_shown_command_parses_as_written(parse_only, monkeypatch, page, command):
    monkeypatch.chdir(REPO)
    with pytest.raises(Parsed):
        parse_only(command)


def test_a_misspelt_flag_would_be_caught(parse_only, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    with pytest.raises(SystemExit):
        parse_only("python eval/run.py test --submision my.py")
    assert "unknown flag --submision: did you mean --submission?" in capsys.readouterr().err


@pytest.mark.parametrize("command", sorted(RUN_WHOLE))
def test_a_cheap_shown_command_runs_whole(run_leaderboard, command):
    status, _, out, err = run_leaderboard(*shlex.split(command)[2:])
    assert status == 0, out + err
