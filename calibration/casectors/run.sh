#!/usr/bin/env bash
# Device round for cas.cu: one cp.async per launch (kernel ro: one switch arm), 249 launches. Native run, SASS, ncu raw page
# (per launch: global load requests and sectors, LDGSTS shared wavefronts), ncu source page (per
# instruction). About 2-3 minutes on an H200 (timeouts bound it at 4). Writes everything into $OUT/results.tgz.
# Needs ./cas (nvcc -O3 -arch=sm_90 -o cas cas.cu); builds it when missing and nvcc is there.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
R=/tmp/casres; rm -rf $R; mkdir -p $R
[ -x cas ] || nvcc -O3 -arch=sm_90 -o cas cas.cu
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; nvcc --version | tail -2; } > $R/versions.txt 2>&1
./cas layouts.txt > $R/rows.txt 2> $R/native.err; echo "native exit $?" >> $R/versions.txt
cuobjdump -sass cas > $R/sass.txt 2>&1
date >> $R/versions.txt
M=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,smsp__inst_executed_op_ldgsts.sum,\
sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
timeout 100 ncu --clock-control none --csv --page raw --metrics "$M" ./cas layouts.txt > $R/raw.csv 2> $R/raw.err
echo "raw exit $?" >> $R/versions.txt; date >> $R/versions.txt
timeout 110 ncu --section SourceCounters --page source --print-source sass --csv ./cas layouts.txt > $R/source.csv 2> $R/source.err
echo "source exit $?" >> $R/versions.txt; date >> $R/versions.txt
gzip -9 $R/source.csv $R/raw.csv
tar czf "$OUT/results.tgz" -C $R .
