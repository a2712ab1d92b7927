#!/bin/sh
# scripts/bench-run.sh --no-build on the Xeon with main's binaries (book sizes, 1 and 16 threads, native rows)
# (t/release: main's warpscope and libwarpscope_cudart.so at the merge of this round (spilled device memory, the RSQ lookup); t/bench-run/book: the six
# programs built here by bench-run.sh's nvcc line; repo/scripts: a copy of scripts/bench-run.sh; ../common: libcudart.so.13)
set -u
D=$(pwd)
P=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$P")")
export LD_LIBRARY_PATH=$WARPSCOPE_CUDA_ROOT/lib64:$WARPSCOPE_CUDA_ROOT/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}:$(cd ../common && pwd)
R=$OUT/r; mkdir -p $R
chmod +x t/release/warpscope t/bench-run/book/*
mkdir -p t/bench-run/book/lib; ln -sf $(cd ../common && pwd)/libcudart.so.13 t/bench-run/book/lib/libcudart.so
(nproc; uptime; lscpu | head -20; echo "CUDA root $WARPSCOPE_CUDA_ROOT") > $R/machine.txt 2>&1
cd repo
CARGO_TARGET_DIR=$D/t PYTHONUNBUFFERED=1 timeout 330 bash scripts/bench-run.sh --no-build --runs 2 > $R/bench-run.txt 2>&1
echo "exit $?" >> $R/bench-run.txt
