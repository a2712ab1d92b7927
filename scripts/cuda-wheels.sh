#!/usr/bin/env bash
# Installs the CUDA compiler pieces that warpscope's tests use as oracles and fixtures generators
# (nvcc, ptxas, NVRTC, cuda_occupancy.h, cuobjdump, nvdisasm) from PyPI into .venv-cuda/, without a GPU.
# Idempotent. Prints the CUDA root (the folder with bin/, lib/, include/) on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-cuda
root_of() { "$venv/bin/python" -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13"))'; }
if [ ! -x "$venv/bin/python" ] || ! root=$(root_of 2>/dev/null) || [ ! -x "$root/bin/ptxas" ] || [ ! -x "$root/bin/nvdisasm" ]; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check \
    nvidia-cuda-nvcc nvidia-cuda-nvrtc nvidia-cuda-runtime nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm \
    nvidia-cuda-crt nvidia-nvvm nvidia-cuda-cccl >&2
  root=$(root_of)
fi
echo "$root"
