#!/bin/bash
# Builds every stream program variant into folder $1 with the CUDA wheels' nvcc
# (WARPSCOPE_CUDA_ROOT) and copies the wheels' libcudart.so.13 beside them; then, on the GPU
# machine, `cd $1 && OUT=<dir> bash run.sh` (run.sh copied there too).
set -e
R=${WARPSCOPE_CUDA_ROOT:?name the CUDA wheels root}
P=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1/lib"
ln -sf "$R/lib/libcudart.so.13" "$1/lib/libcudart.so"
cd "$1"
for v in "streams_race:" "streams_race:EVENT" "stream_sync:" "stream_sync:NOSYNC" "stream_legacy:" "stream_legacy:NONBLOCKING" "stream_legacy:NODEFAULT" "stream_legacy:PERTHREAD" "stream_footprints:" "stream_footprints:OVERLAP" "stream_footprints:PLAIN" "stream_copy:" "stream_copy:EVENT"; do
  f=${v%%:*}; d=${v#*:}; name=$f${d:+_$d}
  "$R/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$1/lib" ${d:+-D$d} -o "$name" "$P/$f.cu" &
done
wait
rm -r lib
cp "$R/lib/libcudart.so.13" .
cp "$(dirname "$0")/run.sh" . 2>/dev/null || true
