"""The leaderboard's gates before anything runs: what GPU MODE's bot refuses at upload.

Facts from the public kernelbot (mid-2026), restated here, not copied:
  - its API (src/kernelbot/api/api_utils.py) refuses an empty file (HTTP 400), a file of
    more than 1,000,000 bytes (413), one that does not decode as UTF-8 (400), and any file
    whose text contains "stream" in any case (500), each with a fixed message;
  - before a benchmark, profile or leaderboard run it runs KernelGuard, the rule-based hack
    detector published on PyPI as `kernelguard` (pinned 0.3.1), as a command fed the code on
    stdin with --api-mode, and refuses a file whose JSON result says should_filter (HTTP 400,
    src/libkernelbot/kernelguard.py). A test-mode submission is not checked by it.
The popcorn CLI shows a refusal as "Server returned status <code> <reason>: <message>".
"""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MAX_BYTES = 1_000_000
KERNELGUARD = "kernelguard==0.3.1"  # the bot's pin; pyproject.toml installs the same
GUARDED_MODES = frozenset({"benchmark", "leaderboard", "profile", "ranked"})
KERNELGUARD_TIMEOUT_S = 300  # the bot's default
CLASSES = ("valid", "low_confidence", "suspicious", "hacked")  # KernelGuard 0.3.1's classifications

EMPTY = (400, "Empty file submitted. Please provide a file with code.")
TOO_LARGE = (413, "Submission file is too large (limit: 1MB).")
NOT_UTF8 = (400, "Failed to decode submission file content as UTF-8.")
STREAM_WORD = (500, "Your code contains work on another stream. This is not allowed and may result in your "
                    "disqualification. If you think this is a mistake, please contact us.")
_REASONS = {400: "Bad Request", 413: "Payload Too Large", 500: "Internal Server Error"}


@dataclass(frozen=True)
class Refusal:
    status: int   # the HTTP status the bot answers with
    message: str  # the bot's own message

    def popcorn(self) -> str:
        """The line the popcorn CLI prints for this refusal."""
        return f"Application error: Server returned status {self.status} {_REASONS[self.status]}: {self.message}"


@dataclass(frozen=True)
class Verdict:
    """The pre-flight of one file: the API's refusal (every mode), KernelGuard's result."""

    api: Refusal | None
    guard: dict | None       # KernelGuard's JSON result; None when it did not run
    guard_note: str = ""     # why it did not run

    @property
    def classification(self) -> str | None:
        return self.guard.get("classification") if self.guard else None

    def refusal(self, mode: str) -> Refusal | None:
        """What the bot answers a submission of this file in `mode` with; None: accepted."""
        if self.api:
            return self.api
        if mode in GUARDED_MODES and self.guard and self.guard.get("should_filter"):
            return Refusal(400, _guard_message(self.guard))
        return None

    def summary(self, mode: str) -> str:
        refused = self.refusal(mode)
        if self.guard:
            rules = sorted({str(p.get("pattern")) for p in self.guard.get("matched_patterns", [])})
            guard = f"KernelGuard {self.classification}" + (f" ({', '.join(rules)})" if rules else "")
        else:
            guard = f"KernelGuard not run: {self.guard_note}"
        return f"{'REFUSED' if refused else 'accepted'} for {mode}; {guard}" + (
            f"\n      {refused.message}" if refused else "")


def _guard_message(result: dict) -> str:
    """The bot's rejection text for a KernelGuard result that says should_filter."""
    patterns = sorted({str(p.get("pattern", "unknown")) for p in result.get("matched_patterns", [])
                       if isinstance(p, dict)})
    reason = result.get("filter_reason") or result.get("classification", "unknown")
    text = f"Submission rejected by KernelGuard pre-check ({reason})"
    return text + (f". Matched rules: {', '.join(patterns)}" if patterns else "") + "."


def api_refusal(content: bytes) -> Refusal | None:
    """The API's checks, in its order: empty, size, UTF-8, the word."""
    if not content:
        return Refusal(*EMPTY)
    if len(content) > MAX_BYTES:
        return Refusal(*TOO_LARGE)
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return Refusal(*NOT_UTF8)
    if "stream" in text.lower():
        return Refusal(*STREAM_WORD)
    return None


def kernelguard(code: str) -> tuple[dict | None, str]:
    """KernelGuard's result for `code`, run as the bot runs it (the package's command, code
    on stdin, --api-mode); (None, why) when it cannot run here."""
    try:
        proc = subprocess.run([sys.executable, "-m", "kernelguard", "--api-mode"], input=code, text=True,
                              capture_output=True, timeout=KERNELGUARD_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return None, f"it ran past {KERNELGUARD_TIMEOUT_S} s"
    if proc.returncode != 0:
        if "No module named kernelguard" in proc.stderr:
            return None, (f"{KERNELGUARD} is not installed (make setup installs it; it needs Python 3.11+, "
                          f"this is {sys.version_info.major}.{sys.version_info.minor})")
        return None, f"it exited with status {proc.returncode}: {' '.join(proc.stderr.split())[-300:]}"
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    try:
        result = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        result = None
    if not isinstance(result, dict) or result.get("classification") not in CLASSES:
        return None, f"it printed no result this harness understands: {proc.stdout[-300:]!r}"
    return result, ""


def check(path: Path) -> Verdict:
    """The pre-flight of one submission file."""
    content = path.read_bytes()
    try:
        code = content.decode("utf-8")
    except UnicodeDecodeError:
        return Verdict(api_refusal(content), None, "the file is not UTF-8")
    if not code:
        return Verdict(api_refusal(content), None, "the file is empty")
    guard, note = kernelguard(code)
    return Verdict(api_refusal(content), guard, note)
