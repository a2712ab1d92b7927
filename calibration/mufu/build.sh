#!/bin/sh
# Builds the measurement folder for the MUFU tables (mufu2.cu) into DIR (default ./dev):
# mufu2 as nvcc builds it, and mufu2s, the same program with ptxas's 1/(2 pi) factor in front of
# MUFU.SIN/COS (the FMUL.RZ immediate 0x3e22f983) replaced by 1.0, so that sin/cos.approx run the
# unit on their operand itself. Needs CU (the CUDA 13 wheel) set.
set -e
DIR=${1:-dev}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$DIR"
ln -sf "$CU/lib/libcudart.so.13" "$DIR/libcudart.so"
"$CU/bin/nvcc" -O2 -gencode arch=compute_90,code=sm_90 -I"$CU/include/cccl" -cudart shared -L"$DIR" \
    -o "$DIR/mufu2" "$HERE/mufu2.cu"
rm -f "$DIR/libcudart.so"
python3 - "$DIR/mufu2" "$DIR/mufu2s" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
old, new = struct.pack('<I', 0x3e22f983), struct.pack('<I', 0x3f800000)
print('patched', d.count(old), 'FMUL.RZ immediates')
open(sys.argv[2], 'wb').write(d.replace(old, new))
PY
chmod +x "$DIR/mufu2s"
# every FMUL.RZ must now multiply by 1, and no other instruction changed
n=$("$CU/bin/cuobjdump" -sass "$DIR/mufu2s" | grep -c 'FMUL.RZ R[0-9]*, R[0-9]*, 1 ')
m=$("$CU/bin/cuobjdump" -sass "$DIR/mufu2" | grep -c 'FMUL.RZ R[0-9]*, R[0-9]*, 0.1591549')
[ "$n" = "$m" ] && [ "$n" -gt 0 ] || { echo "patch check failed: $n vs $m"; exit 1; }
cp "$HERE/${MEASURE:-measure.sh}" "$DIR/measure.sh"
