#!/usr/bin/env bash
# Device round for pca.cu (cp.async with a source predicate: .ca 4/8/16 bytes with a selp src-size
# or ignore-src, .cg 16 bytes with ignore-src). 212 launches: native run, SASS, ncu source page
# (per instruction: executions, shared wavefronts, global requests and sectors), ncu raw page
# (per launch). About 4 minutes on an H200. Writes everything into $OUT/results.tgz.
# Needs ./pca (nvcc -O3 -arch=sm_90 -o pca pca.cu); builds it when missing and nvcc is there.
set -u
cd "$(dirname "$0")"
R=/tmp/pcares; rm -rf $R; mkdir -p $R
[ -x pca ] || nvcc -O3 -arch=sm_90 -o pca pca.cu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; nvcc --version | tail -2; } > $R/versions.txt 2>&1
./pca layouts.txt > $R/rows.txt 2> $R/native.err; echo "native exit $?" >> $R/versions.txt
cuobjdump -sass pca > $R/sass.txt 2>&1
date >> $R/versions.txt
timeout 300 ncu --section SourceCounters --page source --print-source sass --csv ./pca layouts.txt > $R/source.csv 2> $R/source.err
echo "source exit $?" >> $R/versions.txt; date >> $R/versions.txt
M=sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,smsp__inst_executed_op_ldgsts.sum,\
sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum,\
sm__sass_data_bytes_mem_shared_op_ldgsts.sum
timeout 150 ncu --clock-control none --csv --page raw --metrics "$M" ./pca layouts.txt > $R/raw.csv 2> $R/raw.err
echo "raw exit $?" >> $R/versions.txt; date >> $R/versions.txt
gzip -9 $R/source.csv $R/raw.csv
tar czf "$OUT/results.tgz" -C $R .
