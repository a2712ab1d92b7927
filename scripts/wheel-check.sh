#!/usr/bin/env bash
# The one-command install, checked: builds the wheel (scripts/build-wheel.sh), installs it with its
# CUDA compiler wheels from PyPI into a fresh virtual environment, and from a folder outside the
# checkout, with no CUDA variable set and the environment not activated, runs `warpscope tour` and
# `warpscope run app.cu`: the toolkit must be the environment's own wheels, the runtime library
# the package's.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
wheel=$(./scripts/build-wheel.sh)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install -q --disable-pip-version-check "$wheel"
mkdir -p "$tmp/home" "$tmp/work"
cd "$tmp/work"
# what a newcomer's shell has: no CUDA variables, a fresh home, the system's compilers
clean=(env -i "HOME=$tmp/home" "PATH=/usr/local/bin:/usr/bin:/bin" "LANG=C.UTF-8")
ws="$tmp/venv/bin/warpscope"
fail() { echo "scripts/wheel-check.sh: $*" >&2; exit 1; }

"${clean[@]}" "$ws" setup --check > setup.txt || fail "setup --check failed: $(cat setup.txt)"
grep -qF "CUDA tools: $tmp/venv/lib/" setup.txt || fail "the toolkit is not the environment's wheels: $(cat setup.txt)"
grep -qF "runtime: $tmp/venv/lib/warpscope/libwarpscope_cudart.so" setup.txt ||
    fail "the runtime is not the package's: $(cat setup.txt)"

"${clean[@]}" "$ws" tour > tour.txt || fail "tour failed: $(tail -5 tour.txt)"
grep -q "sqRowCol" tour.txt || fail "tour printed no sqRowCol: $(head -20 tour.txt)"

cat > app.cu <<'CU'
#include <cstdio>
__global__ void transpose(int *out) {
    __shared__ int tile[32][32];
    tile[threadIdx.y][threadIdx.x] = threadIdx.y * 32 + threadIdx.x;
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
int main() {
    int *d, h[1024];
    cudaMalloc(&d, sizeof h);
    transpose<<<1, dim3(32, 32)>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("out[1] = %d\n", h[1]);
    return h[1] == 32 ? 0 : 1;
}
CU
"${clean[@]}" COLUMNS=80 "$ws" run --export run.json app.cu > run.txt 2> run.err ||
    fail "run app.cu failed: $(cat run.err)"
grep -q "out\[1\] = 32" run.txt || fail "the program's output is missing: $(cat run.txt)"
awk 'length($0) > 80 { bad = 1 } END { exit bad }' run.txt || fail "run's output is wider than COLUMNS=80"
"$tmp/venv/bin/python" - <<'PY' || fail "run.json does not hold the transpose's counters"
import json
launch = json.load(open("run.json"))["launches"][0]
m = launch["metrics"]
assert m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == 1024, m
assert m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] == 32, m
assert "machine code" in launch["widths"], launch["widths"]
PY
echo "scripts/wheel-check.sh: $(basename "$wheel") installs into a fresh venv; tour and run app.cu work ($((SECONDS - started)) s)"
