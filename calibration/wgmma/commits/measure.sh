#!/bin/sh
# On the GPU machine, from the folder holding commits and libcudart.so.13:  sh measure.sh OUTDIR
# Writes run.txt (the program's output, the GPU, driver and ncu versions) and ncu.csv (the gmma
# counters of every launch).
OUT=${1:?output folder}
export LD_LIBRARY_PATH=.:$LD_LIBRARY_PATH
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; ./commits; echo "exit $?"; } > "$OUT/run.txt" 2>&1
M=smsp__sass_inst_executed_op_shared_gmma.sum,sm__sass_data_bytes_mem_shared_op_gmma.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum
timeout 240 ncu --clock-control none --csv --page raw --metrics "$M" ./commits > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
echo "ncu exit $?" >> "$OUT/run.txt"
