#!/bin/sh
# Builds the whole programs of this folder as the tests and the H100 run use them:
#   calibration/run/build.sh OUTDIR [book]   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root;
#   `book`: only the book-style programs book3-book10, as book_run.rs and the H200 run use them)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
# book-style programs (book3-book10): -O2 -lineinfo as a user builds them, book4 also -G,
# book6 also without FMA contraction
for p in book3 book4 book5 book6 book7 book8 book10; do
  "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/$p" "$HERE/$p.cu"
done
"$CU/bin/nvcc" -G -arch=sm_90 -cudart shared -L"$OUT/lib" -o "$OUT/book4_G" "$HERE/book4.cu"
"$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -fmad=false -cudart shared -L"$OUT/lib" -o "$OUT/book6_nofma" "$HERE/book6.cu"
# streams driven from OpenMP host threads
"$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -Xcompiler -fopenmp -cudart shared -L"$OUT/lib" -o "$OUT/book9" "$HERE/book9.cu"
[ "$2" = book ] && exit 0
for p in smem divergence api unsupported warpsync book book2 vars collectives partition assert refused atomics loops threads graphs textures cooperative textures8 surfaces hostreg gather queries pools wrap xblock fdiv; do
  "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/$p" "$HERE/$p.cu"
done
# the per-thread default stream: the runtime's _ptsz/_ptds entry points
"$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared --default-stream per-thread -L"$OUT/lib" -o "$OUT/perthread" "$HERE/perthread.cu"
# device printf's own global traffic (calibration/printf/)
for p in printf printf2 printf3 printf4 printf5; do
  "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/$p" "$HERE/../printf/$p.cu"
done
# wmma needs mma.h, which needs the CCCL headers (the nvidia-cuda-cccl wheel)
"$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -I"$CU/include/cccl" -L"$OUT/lib" -o "$OUT/tensor" "$HERE/tensor.cu"
# the seed's divergence experiment as the notes build it (-G: branches as written)
"$CU/bin/nvcc" -G -arch=sm_90 -cudart shared -L"$OUT/lib" -o "$OUT/divergence_G" "$HERE/divergence.cu"
# kernels launching kernels (dynamic parallelism, -rdc=true): build_dynpar.sh
# nvcc's default static runtime: `warpscope run` must refuse it with the fix
"$CU/bin/nvcc" -O2 -arch=sm_90 -o "$OUT/static_app" "$HERE/smem.cu"
