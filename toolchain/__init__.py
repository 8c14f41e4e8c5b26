"""Build settings shared by every tool that compiles HIP: the packer, the dev loader,
the offline gfx942 report and the emulator. One place, so they never drift apart."""
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

ROCM_ARCH = "gfx942"

# Exactly what a leaderboard HIP submission passes to load_inline (spec/leaderboard.md,
# "Runner environment"): the runner builds with clang++ for one MI300X.
LEADERBOARD_HIP_FLAGS = ("--offload-arch=" + ROCM_ARCH, "-std=c++20")
LEADERBOARD_ENV = {"CXX": "clang++", "PYTORCH_ROCM_ARCH": ROCM_ARCH}
