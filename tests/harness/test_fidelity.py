"""eval.fidelity prints every round's per-case means for both evaluators, not only medians."""
from eval import fidelity, timing
from eval.device import DeviceInfo
from reference import contract

H200 = DeviceInfo("cuda", "NVIDIA H200", "sm_90", "2.11", "", "13.0")


def test_each_rounds_means_are_printed_in_running_order_with_the_first_marked():
    rounds = [{"published": [275.0, None], "harness": [280.1, 330.0]},
              {"harness": [501.0, 512.0], "published": [290.0, 300.0]}]
    lines = fidelity.round_lines("reference_submission (benchmark)", [0, 3], rounds)
    body = [line.split() for line in lines[2:]]
    assert body == [["1", "published*", "275.0", "-"], ["1", "harness", "280.1", "330.0"],
                    ["2", "harness*", "501.0", "512.0"], ["2", "published", "290.0", "300.0"]]
    assert lines[1].split() == ["round", "evaluator", "case", "0", "case", "3"]


def test_a_harness_only_reading_marks_no_evaluator_as_first():
    lines = fidelity.round_lines("x (benchmark)", [8], [{"harness": [270.0]}, {"harness": [455.5]}])
    assert [line.split() for line in lines[2:]] == [["1", "harness", "270.0"], ["2", "harness", "455.5"]]
    assert "ran first" not in lines[0]


def test_main_shows_a_bimodal_harness_beside_its_median(monkeypatch, tmp_path, capsys):
    (tmp_path / "eval.py").write_text("")
    harness = iter([[280.0, 300.0], [520.0, 540.0], [282.0, 302.0]])
    published = iter([[279.0, 301.0], [281.0, 299.0], [280.0, 300.0]])
    monkeypatch.setattr(fidelity.floor, "measure", lambda method: (H200, [
        (case, timing.stats([3e3, 3e3, 3e3])) for case in contract.cases("benchmarks")]))
    monkeypatch.setattr(fidelity, "harness_means", lambda submission, mode, cases: next(harness))
    monkeypatch.setattr(fidelity, "published_means", lambda evaluator, submission, mode, cases: next(published))
    assert fidelity.main(["--published", str(tmp_path), "--submission", "examples/reference_submission.py",
                          "--shapes", "0", "3", "--rounds", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    rounds = [line.split() for line in out if line.split()[:1] in (["1"], ["2"], ["3"])]
    assert rounds == [["1", "published*", "279.0", "301.0"], ["1", "harness", "280.0", "300.0"],
                      ["2", "harness*", "520.0", "540.0"], ["2", "published", "281.0", "299.0"],
                      ["3", "published*", "280.0", "300.0"], ["3", "harness", "282.0", "302.0"]]
    table = [line.split() for line in out if line.split()[:2] in (["reference_submission", "0"],
                                                                  ["reference_submission", "3"])]
    assert table == [["reference_submission", "0", "282.0", "280.0", "1.007"],
                     ["reference_submission", "3", "302.0", "300.0", "1.007"]]
