#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian bookworm machine: the gfx942 toolchain
# (clang-19, lld-19, HIP headers), what the emulator builds with, bubblewrap (the stages' sandbox)
# and the Python packages.
# Idempotent and quick once done: a stamp records the hash of this script and pyproject.toml,
# once per machine and Python environment (the project installs no package of its own, so a
# second clone finds everything in place).
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(clang-19 lld-19 llvm-19 libclang-rt-19-dev libamdhip64-dev rocm-device-libs ninja-build bubblewrap)
PYTHON=${PYTHON:-python3}
environment=$("$PYTHON" -c "import sys; print(sys.prefix)" | sha256sum | cut -c1-16)
stamp=${XDG_CACHE_HOME:-$HOME/.cache}/amd-fp8-mm/setup-$environment
wanted=$(cat scripts/setup.sh pyproject.toml | sha256sum | cut -c1-16)
if [[ -f $stamp && "$(cat "$stamp")" == "$wanted" ]]; then
  exit 0
fi

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=(); [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# NOTE: with no torch at all, pip would pull the newest CUDA build (several GB); the CPU
# build is what a machine without a GPU needs. A ROCm/CUDA torch already installed is kept.
if ! "$PYTHON" -c "import torch" 2>/dev/null; then
  echo "setup: installing torch 2.13.0 (CPU build)"
  "$PYTHON" -m pip install -q torch==2.13.0
fi
echo "setup: installing the project's Python dependencies"
"$PYTHON" -m pip install -q -e ".[dev]"
# Composable Kernel's headers (ROCm has them on the runner's include path): from AMD's aiter
# wheel, pinned by version and sha256, into the machine's cache (toolchain/ck.py).
"$PYTHON" -m toolchain.ck
mkdir -p "$(dirname "$stamp")"
echo "$wanted" > "$stamp"
echo "setup: done"
