"""CI gate: every kernel file, the packed submission and HIP-carrying examples compile for
gfx942 without scratch (spills or private arrays) and with LDS within 64 KiB.

Files are found at collection time, so new kernels/*.hip join the gate without edits here."""

import pytest

import machine
from reports.offline import default_files, report
from toolchain import REPO_ROOT

FILES = default_files(with_examples=True)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(REPO_ROOT)) for p in FILES])
def test_compiles_without_spills_within_lds(path):
    kernels = report(path)  # raises CompileError with the file's own line numbers
    if path.suffix == ".py":
        assert kernels, f"{path.name}: cuda_sources compiled but defines no kernel"
    problems = [
        f"{k.name}: scratch {k.scratch_bytes} B/lane, {k.vgpr_spills} VGPR + {k.sgpr_spills} SGPR spills, "
        f"{k.vgprs} VGPR / {k.agprs} AGPR / {k.sgprs} SGPR, LDS {k.lds_bytes} B"
        for k in kernels if k.spills or k.lds_bytes > machine.fact("lds_bytes_per_cu")
    ]
    assert not problems, f"{path.name}:\n" + "\n".join(problems)
