#!/bin/sh
# Builds the whole programs of this folder as the tests and the H100 run use them:
#   calibration/run/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
for p in smem divergence api unsupported warpsync book book2 vars collectives partition assert refused atomics loops threads graphs textures cooperative textures8 surfaces hostreg gather queries pools wrap xblock fdiv; do
  "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/$p" "$HERE/$p.cu"
done
# the per-thread default stream: the runtime's _ptsz/_ptds entry points
"$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared --default-stream per-thread -L"$OUT/lib" -o "$OUT/perthread" "$HERE/perthread.cu"
# device printf's own global traffic (calibration/printf/)
for p in printf printf2 printf3 printf4; do
  "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/$p" "$HERE/../printf/$p.cu"
done
# wmma needs mma.h, which needs the CCCL headers (the nvidia-cuda-cccl wheel)
"$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -I"$CU/include/cccl" -L"$OUT/lib" -o "$OUT/tensor" "$HERE/tensor.cu"
# the seed's divergence experiment as the notes build it (-G: branches as written)
"$CU/bin/nvcc" -G -arch=sm_90 -cudart shared -L"$OUT/lib" -o "$OUT/divergence_G" "$HERE/divergence.cu"
# kernels launching kernels (dynamic parallelism, -rdc=true): build_dynpar.sh
# nvcc's default static runtime: `warpscope run` must refuse it with the fix
"$CU/bin/nvcc" -O2 -arch=sm_90 -o "$OUT/static_app" "$HERE/smem.cu"
