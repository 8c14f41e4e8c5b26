"""Times below the device's speed of light are not results (eval/roofline.py)."""
import pytest

from eval import roofline, timing
from eval.device import DeviceInfo
from eval.judge import Listener
from eval.verdict import Checker
from reference.contract import Case

CASE = Case(1024, 4608, 7168, 7531)   # 67.6 GFLOP: 34.2 us at an H200's 1979 TFLOP/s
H200 = DeviceInfo("cuda", "NVIDIA H200", "sm_90", "2.11", "", "13.0")


@pytest.mark.parametrize("name,peak", [
    ("NVIDIA H200", 1.979e15), ("NVIDIA H100 80GB HBM3", 1.979e15), ("AMD Instinct MI300X", 2.6149e15),
    ("NVIDIA A100-SXM4-80GB", 0.624e15), ("NVIDIA L40S", 0.733e15), ("NVIDIA L4", 0.2425e15),
    ("Some Future GPU", None),
])
def test_the_peak_comes_from_the_device_name(name, peak):
    assert roofline.peak_ops_per_s(name) == peak


def listener(stage: str, device: DeviceInfo, predicted: bool = False) -> Listener:
    return Listener(stage, [(5, CASE)], {"mode": stage}, Checker(stage, [CASE], device.kind, predicted), None, device)


def timed_row(mean_us: float) -> dict:
    return {**CASE.args, "passed": 1, "error": "", "message": "", "mean_us": mean_us, "runs": 10}


def test_a_leaderboard_mean_below_the_gpus_floor_fails_with_the_reason():
    lb = listener("leaderboard", H200)
    lb.stats[0] = timing.stats([20e3] * 10)
    row = timed_row(20.0)
    lb.speed_of_light(0, row)
    assert row["passed"] == 0 and row["mean_us"] is None and 0 not in lb.stats
    assert row["error"].startswith("a mean of 20 us is below the NVIDIA H200's speed of light for 1024x4608x7168 "
                                   "(34.2 us")


def test_a_mean_above_the_floor_and_an_unknown_device_pass():
    row = timed_row(40.0)
    listener("leaderboard", H200).speed_of_light(0, row)
    assert row["passed"] == 1
    row = timed_row(1.0)
    listener("leaderboard", DeviceInfo("cuda", "Some Future GPU", "sm_200", "", "", "")).speed_of_light(0, row)
    assert row["passed"] == 1


def test_benchmark_mode_notes_it_per_input_work_may_be_cached_there():
    bench = listener("benchmark", H200)
    row = timed_row(20.0)
    bench.speed_of_light(0, row)
    assert row["passed"] == 1 and bench.texts[0].startswith("note, case 5: a mean of 20 us is below")


def test_a_prediction_below_the_mi300xs_floor_is_called_a_model_error():
    cpu = DeviceInfo("cpu", "cpu", "cpu", "", "", "")
    predicted = listener("leaderboard", cpu, predicted=True)
    row = timed_row(10.0)   # the MI300X floor of this case: 25.9 us
    predicted.speed_of_light(0, row)
    assert row["passed"] == 1 and "an error of the timing model" in predicted.texts[0]
    assert "AMD Instinct MI300X" in predicted.texts[0]
    on_cpu = listener("leaderboard", cpu)
    on_cpu.speed_of_light(0, row)
    assert not on_cpu.texts   # an emulator's CPU time has no floor
