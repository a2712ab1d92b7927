#!/bin/sh
# Exports of every program calibration/run/build.sh and build_dynpar.sh build (book3-book10, the
# -G and no-FMA builds, smem ... fdiv, perthread, printf*, tensor, divergence_G, dp_*), of
# bench2/'s and of this folder's bench programs at small sizes, by two builds of warpscope, with
# and without --check, compared byte for byte:
#   calibration/run/bench/same-exports-all.sh OLD_DIR NEW_DIR BUILD_DIR
# OLD_DIR and NEW_DIR hold warpscope and libwarpscope_cudart.so; BUILD_DIR gets the programs
# (built when missing; needs WARPSCOPE_CUDA_ROOT). Prints one line a program and mode, then the
# count of differences. A program's own output (stdout) is compared too.
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OLD=${1:?old}; NEW=${2:?new}; B=${3:?build dir}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$B/lib" "$B/out"
if [ ! -x "$B/fdiv" ]; then
  "$HERE/../build.sh" "$B" >/dev/null 2>&1
  "$HERE/../build_dynpar.sh" "$B" >/dev/null 2>&1
fi
ln -sf "$CU/lib/libcudart.so.13" "$B/lib/libcudart.so"
for p in stencil bfs lud conv nw btree rk4 kmeans pfilter switch switch2; do
  [ -x "$B/$p" ] || "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$B/lib" -o "$B/$p" "$HERE/../bench2/$p.cu"
done
for p in reduce transpose nbody loop summatrix memloop sum1d gridstride; do
  [ -x "$B/$p" ] || "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$B/lib" -o "$B/$p" "$HERE/$p.cu"
done
cd "$B"
diffs=0
one() { # name mode program args...
  n=$1; m=$2; shift 2
  flag=""; [ "$m" = check ] && flag=--check
  for v in old new; do
    d=$OLD; [ $v = new ] && d=$NEW
    # shellcheck disable=SC2086
    timeout 300 "$d/warpscope" run $flag --cudart "$d/libwarpscope_cudart.so" --export "out/$n.$m.$v.json" -- "$@" \
      > "out/$n.$m.$v.txt" 2> "out/$n.$m.$v.err" < /dev/null
    echo $? > "out/$n.$m.$v.rc"
  done
  if cmp -s "out/$n.$m.old.json" "out/$n.$m.new.json" && cmp -s "out/$n.$m.old.txt" "out/$n.$m.new.txt" \
    && cmp -s "out/$n.$m.old.rc" "out/$n.$m.new.rc"; then
    echo "same $n $m"
  else
    echo "DIFF $n $m"; diffs=$((diffs + 1))
  fi
}
for p in book3 book4 book5 book6 book7 book8 book9 book10 book4_G book6_nofma smem divergence api unsupported \
  warpsync book book2 vars collectives partition assert refused atomics loops threads graphs textures cooperative \
  textures8 surfaces hostreg gather queries pools wrap xblock fdiv perthread printf printf2 printf3 printf4 \
  printf5 tensor divergence_G dp_hello dp_reduce dp_tail dp_streams dp_multi dp_limits \
  stencil bfs lud conv nw btree rk4 kmeans pfilter switch switch2; do
  [ -x "$p" ] || { echo "missing $p"; continue; }
  for m in plain check; do one "$p" $m "./$p"; done
done
for a in "reduce 16" "transpose 256" "nbody 512 1" "loop 200 4" "summatrix 9" "memloop 4096" "sum1d 9 9" "gridstride 16 8 128 72 256"; do
  set -- $a; p=$1
  for m in plain check; do one "$p" $m "./$@"; done
done
echo "differences: $diffs"
