"""The toolchain: building a HIP source for gfx942 as the leaderboard's runner does, for the
offline report, both engines and the packer (docs/architecture.md: the layer below the engines).

Here, the settings every build shares, in one place so they never drift apart. Beside them:
flags.py (which of a user's flags reach a build), hipcc.py (the device compile), hipify.py,
capture.py and source.py (a submission's sources, found by importing it), headers.py and
include/ (the headers we provide), simulated_host.py (the MI300X host a submission imports
into), cpp_text.py, calls.py, symbols.py, diagnostics.py.
"""
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

ROCM_ARCH = "gfx942"

# Exactly what a leaderboard HIP submission passes to load_inline (spec/leaderboard.md,
# "Runner environment"): the runner builds with clang++ for one MI300X.
LEADERBOARD_HIP_FLAGS = ("--offload-arch=" + ROCM_ARCH, "-std=c++20")
LEADERBOARD_ENV = {"CXX": "clang++", "PYTORCH_ROCM_ARCH": ROCM_ARCH}
