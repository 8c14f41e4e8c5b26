"""The bot's pre-flight: what the leaderboard refuses before it runs anything, with its own
messages, locally and through eval/run.py."""
from pathlib import Path

import pytest

from eval import preflight

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "examples" / "reference_submission.py"
MUST_FAIL = Path(__file__).parent / "must_fail"
WORD_MESSAGE = preflight.STREAM_WORD[1]


@pytest.mark.parametrize("content,status,message", [
    (b"", 400, "Empty file submitted. Please provide a file with code."),
    (b"#" * 1_000_001, 413, "Submission file is too large (limit: 1MB)."),
    (b"x = '\xff'\n", 400, "Failed to decode submission file content as UTF-8."),
    (b"# launches on the default STREAM\n", 500, WORD_MESSAGE),
    (b"s = torch.cuda.current_stream()\n", 500, WORD_MESSAGE),
    (b"hipStream_t q;\n", 500, WORD_MESSAGE),
])
def test_api_refuses_as_the_bot_does(content, status, message):
    refusal = preflight.api_refusal(content)
    assert (refusal.status, refusal.message) == (status, message)


def test_api_accepts_a_file_of_exactly_one_megabyte_without_the_word():
    assert preflight.api_refusal(b"#" * 1_000_000) is None
    assert preflight.api_refusal("# façade, upstairs-free\n".encode()) is None


def test_popcorn_shows_a_refusal_as_its_cli_does():
    refusal = preflight.api_refusal(b"stream")
    assert refusal.popcorn() == ("Application error: Server returned status 500 Internal Server Error: "
                                 + WORD_MESSAGE)


def test_kernelguard_flags_a_result_cache_and_guards_only_the_modes_the_bot_guards():
    verdict = preflight.check(MUST_FAIL / "cached.py")
    assert verdict.classification == "hacked" and verdict.api is None
    assert verdict.refusal("test") is None
    for mode in ("benchmark", "leaderboard", "profile", "ranked"):
        refusal = verdict.refusal(mode)
        assert refusal.status == 400
        assert refusal.message == ("Submission rejected by KernelGuard pre-check (high_critical). Matched rules: "
                                   "LAST_CALL_REPLAY, OUTPUT_REPLAY_CACHE, TRUSTED_MODULE_IMPORT.")


def test_kernelguard_passes_the_reference():
    verdict = preflight.check(REFERENCE)
    assert verdict.classification in ("valid", "low_confidence") and verdict.refusal("ranked") is None


def word_file(tmp_path):
    path = tmp_path / "side_queue.py"
    path.write_text(REFERENCE.read_text() + "\n# runs on the current Stream\n")
    return path


def test_a_file_with_the_word_fails_every_case_with_the_bots_message(run_leaderboard, tmp_path):
    status, rows, out, _ = run_leaderboard("test", "--shapes", "0", "4", "--submission", str(word_file(tmp_path)),
                                           "--popcorn")
    assert status == 1 and len(rows) == 2
    assert all(not r["passed"] and r["error"] == WORD_MESSAGE for r in rows)
    assert "Server returned status 500 Internal Server Error: Your code contains work on another stream" in out
    assert "refused by the pre-flight, nothing ran" in out


def test_skip_preflight_runs_it_anyway_and_records_kernelguard(run_leaderboard, tmp_path):
    status, rows, out, _ = run_leaderboard("test", "--shapes", "0", "--submission", str(word_file(tmp_path)),
                                           "--skip-preflight")
    assert status == 0 and rows[0]["passed"] and rows[0]["kernelguard"] in preflight.CLASSES
    assert "REFUSED for test" in out and "running anyway" in out


def test_kernelguard_refusal_fails_a_guarded_mode_before_it_runs(run_leaderboard):
    status, rows, _, err = run_leaderboard("leaderboard", "--shapes", "64,64,128", "--submission",
                                           str(MUST_FAIL / "cached.py"))
    assert status == 1 and rows[0]["kernelguard"] == "hacked"
    assert rows[0]["error"].startswith("Submission rejected by KernelGuard pre-check (high_critical)")
    assert "[cached.py leaderboard]" not in err  # no worker ran


def test_preflight_only_runs_nothing(run_leaderboard, tmp_path):
    status, rows, out, _ = run_leaderboard("ranked", "--preflight-only", "--submission", str(REFERENCE))
    assert status == 0 and not rows and "reference_submission.py: accepted for ranked" in out
    status, rows, out, _ = run_leaderboard("ranked", "--preflight-only", "--popcorn",
                                           "--submission", str(word_file(tmp_path)))
    assert status == 1 and not rows and "Application error: Server returned status 500" in out
