#!/bin/sh
# scripts/bench-run.sh --no-build --runs 2 on the H200 host's Xeon with main's HEAD (new/: release/{warpscope,
# libwarpscope_cudart.so}, bench-run/book/ the programs built with the 13.5 wheel); run from the repository root:
# OUT=... sh .dev/lead/run.sh   (about 4 minutes)
R=$PWD
B=$R/.dev/lead
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
export LD_LIBRARY_PATH=$B
for f in warpscope libwarpscope_cudart.so; do xz -dc $B/new/release/$f.xz > $B/new/release/$f; done
chmod +x $B/new/release/warpscope $B/new/bench-run/book/*
(nproc; uptime; git -C $R log -1 --format=%h 2>/dev/null) > $OUT/machine.txt
CARGO_TARGET_DIR=$B/new timeout 500 bash scripts/bench-run.sh --no-build --runs 2 > $OUT/bench-run.txt 2>&1
echo "exit $?" >> $OUT/bench-run.txt
