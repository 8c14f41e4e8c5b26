# syntax=docker/dockerfile:1
# The local leaderboard in an image shaped like the amd-fp8-mm runner (spec/leaderboard.md,
# "Runner environment"): ROCm 6.3.1, Python 3.10, a PyTorch build for ROCm 6.3, CXX=clang++,
# PYTORCH_ROCM_ARCH=gfx942. Build and run: docs/docker.md. UNBUILT: written and linted on a
# machine without a Docker engine or an AMD GPU.

# Ubuntu 22.04 ships Python 3.10, the runner's version; "-complete" carries hipcc, the ROCm
# LLVM and every ROCm library header that load_inline may need.
FROM rocm/dev-ubuntu-22.04:6.3.1-complete

# The runner pinned torch 2.10.0.dev20250916+rocm6.3, a nightly; PyTorch prunes old nightly
# wheels, so that pin stops resolving. The default is the newest stable wheel built for
# ROCm 6.3; docs/docker.md shows the build args that try the runner's exact nightly.
ARG TORCH_SPEC=torch==2.8.0+rocm6.3
ARG TORCH_INDEX=https://download.pytorch.org/whl/rocm6.3

SHELL ["/bin/bash", "-o", "pipefail", "-c"]

# git: report rows carry the commit (eval/report.py git_sha); bubblewrap: the stages' sandbox
# (eval/sandbox.py; without privileges for namespaces it reports that it cannot start). Ubuntu's package versions are
# left to the pinned base image's snapshot of the archive.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-dev python3-venv git bubblewrap \
    && rm -rf /var/lib/apt/lists/*

# A venv keeps pip away from Ubuntu's own Python packages. /opt/rocm/llvm/bin first makes
# `clang++` the ROCm clang that hipcc drives, so host and device code share one compiler.
ENV VIRTUAL_ENV=/opt/venv
RUN python3 -m venv "$VIRTUAL_ENV"
ENV PATH="$VIRTUAL_ENV/bin:/opt/rocm/llvm/bin:/opt/rocm/bin:$PATH" \
    ROCM_HOME=/opt/rocm \
    CXX=clang++ \
    PYTORCH_ROCM_ARCH=gfx942 \
    PYTHONUNBUFFERED=1

# torch alone from the PyTorch index (its own layer: large, rarely changes); ninja is what
# torch.utils.cpp_extension.load_inline builds HIP submissions with. TORCH_SPEC is itself a
# pin (==), which hadolint cannot see through the variable.
# hadolint ignore=DL3013
RUN pip install --no-cache-dir pip==25.2 \
    && pip install --no-cache-dir --index-url "$TORCH_INDEX" "$TORCH_SPEC" \
    && pip install --no-cache-dir ninja==1.13.0

WORKDIR /workspace
COPY . /workspace
# The installed torch satisfies the project's `torch` requirement, so PyPI adds the rest.
# Then fail the build, not the first run, if the image drifted from the runner: Python 3.10,
# a ROCm 6.3 torch, and the build env the harness declares (toolchain.LEADERBOARD_ENV).
RUN pip install --no-cache-dir -e . && python - <<'EOF'
import os, sys
import torch
from toolchain import LEADERBOARD_ENV
assert sys.version_info[:2] == (3, 10), sys.version
assert (torch.version.hip or "").startswith("6.3"), torch.version.hip
drift = {k: (os.environ.get(k), v) for k, v in LEADERBOARD_ENV.items() if os.environ.get(k) != v}
assert not drift, f"ENV differs from toolchain.LEADERBOARD_ENV: {drift}"
print("torch", torch.__version__, "hip", torch.version.hip)
EOF

ENTRYPOINT ["python", "eval/run.py"]
