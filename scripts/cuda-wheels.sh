#!/usr/bin/env bash
# Installs the CUDA compiler pieces that warpscope's tests use as oracles and fixtures generators
# (nvcc, ptxas, NVRTC, cuda_occupancy.h, cuobjdump, nvdisasm; CUTLASS's headers) from PyPI into .venv-cuda/, without a GPU.
# Idempotent. Prints the CUDA root (the folder with bin/, lib/, include/) on stdout. A warpscope built
# from this checkout finds .venv-cuda from any folder; `warpscope setup` installs the same wheels into
# the user cache instead.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-cuda
root_of() { "$venv/bin/python" -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13"))'; }
if [ ! -x "$venv/bin/python" ] || ! root=$(root_of 2>/dev/null) || [ ! -x "$root/bin/ptxas" ] || [ ! -x "$root/bin/nvdisasm" ]; then
  python3 -m venv "$venv" >&2
  # the list of warpscope_toolchain::locate::CUDA_WHEELS and python/pyproject.toml (a test checks it)
  "$venv/bin/pip" install -q --disable-pip-version-check \
    'nvidia-cuda-nvcc~=13.0' 'nvidia-cuda-nvrtc~=13.0' 'nvidia-cuda-runtime~=13.0' \
    'nvidia-cuda-cuobjdump~=13.0' 'nvidia-cuda-nvdisasm~=13.0' 'nvidia-cuda-crt~=13.0' \
    'nvidia-nvvm~=13.0' 'nvidia-cuda-cccl~=13.0' >&2
  root=$(root_of)
fi
# CUTLASS's headers (the nvidia-cutlass wheel, 6.4 MB, without its Python dependencies) for the
# test that builds calibration/cutlass/gemm_ws.cu; found beside the CUDA wheels as
# cutlass_library/source
if [ ! -f "$root/../../cutlass_library/source/include/cutlass/cutlass.h" ]; then
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps 'nvidia-cutlass==4.2.0.0' >&2
fi
# cuRAND's device headers (curand_kernel.h; the nvidia-curand wheel, installed into the same
# nvidia/cu13/include) for calibration/run/bench13/mcrand.cu, which the bench13 replay test builds
if [ ! -f "$root/include/curand_kernel.h" ]; then
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps 'nvidia-curand==10.4.5.25' >&2
fi
echo "$root"
