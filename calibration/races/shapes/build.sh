#!/bin/bash
# Builds bin/NAME for each kernel named in kernels.txt (one a line, from ../kernels) as a program:
# harness.cu with gen/NAME/gen.h, made from the kernel's `// launch:` line (--grid, --block,
# --dyn-smem, --cooperative, --arg buf:BYTES[:zero] and --arg i32:V). nvcc 13 wheel, -O3 -lineinfo
# -arch=sm_90. bin/, lib/ and run.sh then go to the GPU machine.
#   WARPSCOPE_CUDA_ROOT=... ./build.sh             (LIST=kernels-batch3.txt: another list)
set -u
cd "$(dirname "$0")"
C=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT to the CUDA wheels (nvcc under bin/)}
K=../kernels
rm -rf bin gen lib; mkdir -p bin lib gen
cp -L "$C/lib/libcudart.so.13" lib/ && ln -sf libcudart.so.13 lib/libcudart.so
dim() { echo "$1" | awk -F, '{ printf "dim3(%d, %d, %d)", $1, ($2 == "" ? 1 : $2), ($3 == "" ? 1 : $3) }'; }
grep -v '^#' "${LIST:-kernels.txt}" | while read -r name; do
  [ -z "$name" ] && continue
  launch=$(sed -n 's|^// launch: ||p' "$K/$name.cu")
  grid=1 block=1 dyn=0 coop=0 args=""
  set -- $launch
  while [ $# -gt 0 ]; do
    case $1 in
      --grid) grid=$2; shift ;;
      --block) block=$2; shift ;;
      --dyn-smem) dyn=$2; shift ;;
      --cooperative) coop=1 ;;
      --arg)
        case $2 in
          buf:*) b=${2#buf:}; z=0; case $b in *:zero) z=1; b=${b%:zero} ;; esac
                 args="$args{0, $b, $z, 0}, " ;;
          i32:*) args="$args{1, 0, 0, ${2#i32:}}, " ;;
          *) echo "UNSUPPORTED ARG $2 in $name"; continue 2 ;;
        esac
        shift ;;
      *) echo "UNSUPPORTED FLAG $1 in $name"; continue 2 ;;
    esac
    shift
  done
  mkdir -p "gen/$name"
  {
    printf '#include "%s.cu"\n#define KNAME "%s"\n#define KERNEL %s\n' "$name" "$name" "$name"
    printf '#define GRID %s\n#define BLOCK %s\n#define DYN %s\n#define COOP %s\n' "$(dim "$grid")" "$(dim "$block")" "$dyn" "$coop"
    printf 'static const Arg ARGS[] = {%s};\n' "$args"
  } > "gen/$name/gen.h"
  "$C/bin/nvcc" -arch=sm_90 -O3 -lineinfo -cudart shared -L lib -I "$K" -I "gen/$name" harness.cu -o "bin/$name" \
    || echo "BUILD FAILED $name"
done
rm -rf gen
