#!/usr/bin/env bash
# Builds wmma_calib.cu, dumps its SASS and runs every row of ROWS under ncu.
# Usage: ./run.sh ROWS.tsv OUTDIR     (needs nvcc, cuobjdump and ncu; one H100)
set -euo pipefail
rows=$1; out=$2; mkdir -p "$out"
CUDA=${CUDA:-/usr/local/cuda}
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu $CUDA/bin/ncu 2>/dev/null | head -1)
here=$(cd "$(dirname "$0")" && pwd)
"$CUDA/bin/nvcc" -O2 -arch=sm_90 -o /tmp/wmma_calib "$here/wmma_calib.cu"
"$CUDA/bin/cuobjdump" -sass /tmp/wmma_calib | grep -E 'Function|LDSM|LDS|STS|HMMA' > "$out/sass.txt"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; "$CUDA/bin/nvcc" --version | tail -1; "$NCU" --version | tail -1; } > "$out/device.txt"
m=smsp__sass_inst_executed_op_ldsm.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum
m=$m,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
m=$m,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
"$NCU" --csv --page raw --clock-control none --cache-control none --metrics "$m" /tmp/wmma_calib "$rows" > "$out/ncu.csv"
gzip -kf "$out/ncu.csv"
