"""Cooperative groups tiles compile in the report with the members current HIP has and Debian's
HIP 5.2 headers lack: thread_block_tile::meta_group_rank() and meta_group_size()."""

from pathlib import Path

from reports.offline import report

DATA = Path(__file__).parent / "data"


def test_tile_meta_group_members_compile():
    kernels = report(DATA / "cooperative_groups_submission.py")
    assert sorted(kernel.name for kernel in kernels) == ["erased_tile_kernel", "tile_rank_kernel"]
