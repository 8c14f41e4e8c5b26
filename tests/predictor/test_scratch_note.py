"""predictor/scratch.py: the scratch ROCm 6.3's runtime gives a launch, sized as ROCr sizes it,
and the note a prediction carries when that scratch is over the runtime's single limit (every
launch then allocates it anew on the leaderboard's runners)."""
from __future__ import annotations

from predictor import calibration, scratch


def test_the_device_needs_a_lane_size_for_every_wave_slot_of_320_cus():
    # 224 bytes a lane x 64 lanes x 32 wave slots x 304 CUs counted as 320 = the 140 MiB limit
    assert scratch.device_scratch_bytes(224) == calibration()["runtime"]["scratch_single_limit_bytes"]["value"]
    assert scratch.device_scratch_bytes(225) == scratch.device_scratch_bytes(240)  # lanes round to 16 bytes
    assert scratch.device_scratch_bytes(0) == 0


def test_scratch_up_to_the_limit_stays_on_the_queue_and_carries_no_note():
    assert scratch.largest_kept_bytes_per_lane() == 224
    assert scratch.use_once_note({"scratch_bytes_per_lane": 224}) is None
    assert scratch.use_once_note({"scratch_bytes_per_lane": 0}) is None
    assert scratch.use_once_note({}) is None  # a timing without the field: no scratch


def test_scratch_over_the_limit_is_noted_with_its_size_and_what_avoids_it():
    note = scratch.use_once_note({"scratch_bytes_per_lane": 1000})  # 1008 a lane once rounded
    assert note is not None
    assert "1000 bytes a lane is 630 MiB" in note and "140 MiB" in note
    assert "not in the predicted time" in note and "at most 224 bytes a lane" in note
