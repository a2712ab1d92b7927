#!/usr/bin/env bash
# Device round for cp.async.cg 16-byte copies with a 16-or-0 src-size (LDGSTS.E.BYPASS.128 with a
# source predicate). Takes about 5-7 minutes (native run, ncu source page of 300 launches, ncu raw
# page of the same). Writes everything into $OUT/results.tgz.
set -u
cd "$(dirname "$0")"
R=/tmp/pzres; rm -rf $R; mkdir -p $R
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; nvcc --version | tail -2; } > $R/versions.txt 2>&1
chmod +x pz
./pz layouts.txt > $R/rows.txt 2> $R/native.err; echo "native exit $?" >> $R/versions.txt
cuobjdump -sass pz > $R/sass.txt 2>&1
date >> $R/versions.txt
timeout 330 ncu --section SourceCounters --page source --print-source sass --csv ./pz layouts.txt > $R/source.csv 2> $R/source.err
echo "source exit $?" >> $R/versions.txt; date >> $R/versions.txt
M=sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,smsp__inst_executed_op_ldgsts.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
timeout 120 ncu --clock-control none --csv --page raw --metrics "$M" ./pz layouts.txt > $R/raw.csv 2> $R/raw.err
echo "raw exit $?" >> $R/versions.txt; date >> $R/versions.txt
gzip -9 $R/source.csv
tar czf "$OUT/results.tgz" -C $R .
