#!/bin/sh
# scripts/bench-run.sh --no-build on this host: main at bec53aa (new/) then main at 253e617 (old/).
# Run from the repository root: sh .dev/br/measure.sh OUT
R=$PWD
B=$R/.dev/br
OUT=${1:?out}
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
export LD_LIBRARY_PATH=$B
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in new old; do for f in warpscope libwarpscope_cudart.so; do unxz $B/$v/release/$f.xz > $B/$v/release/$f; done; chmod +x $B/$v/release/warpscope; done
# the script links libcudart.so there for building only: give it the wheel's runtime
mkdir -p "$B/cuda/lib"; cp $B/libcudart.so.13 "$B/cuda/lib/"
for v in new old; do
  echo "== $v" >> "$OUT/bench-run.txt"
  CARGO_TARGET_DIR=$B/$v timeout 270 bash scripts/bench-run.sh --no-build >> "$OUT/bench-run.txt" 2>&1
  echo "exit $?" >> "$OUT/bench-run.txt"
done
