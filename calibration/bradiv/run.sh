#!/bin/sh
# The H200 run of calibration/bradiv and calibration/waitgroups, from a folder holding the
# binaries of build.sh and ../waitgroups/build.sh and libcudart.so.13: OUT=RESULTS sh run.sh
# (47 s on the H200). Each program natively (its stdout: per kernel and warp the __activemask()
# values and member masks), bradiv under compute-sanitizer's memcheck and synccheck (member masks
# valid), each program's branch counters per launch (ncu, no other instrumentation), and ncu's
# source page (executed instructions, threads, predicated-on threads and divergent branches per
# SASS instruction).
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
command -v ncu >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
W=$(mktemp -d)
START=$(date +%s)
P="bradiv waitgroups raytrace_am raytrace"
chmod +x $P
M=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_inst_executed_op_branch.sum,smsp__inst_executed.sum,launch__grid_size,launch__block_size
for p in $P; do timeout 60 ./$p > $W/$p.stdout 2>&1; echo "$p exit $?"; done
timeout 60 compute-sanitizer --tool memcheck ./bradiv > $W/bradiv.memcheck.txt 2>&1; echo "memcheck $? $(tail -1 $W/bradiv.memcheck.txt)"
timeout 60 compute-sanitizer --tool synccheck ./bradiv > $W/bradiv.synccheck.txt 2>&1; echo "synccheck $? $(tail -1 $W/bradiv.synccheck.txt)"
for p in $P; do
  timeout 60 ncu --clock-control none --csv --metrics "$M" ./$p > $W/$p.branch.csv 2> $W/$p.branch.stderr
  echo "$p branch $? at $(( $(date +%s) - START )) s"
done
for p in bradiv waitgroups raytrace_am raytrace; do
  timeout 60 ncu --clock-control none --section SourceCounters --page source --print-source sass --csv ./$p > $W/$p.sass.csv 2> $W/$p.sass.stderr
  echo "$p source $? lines $(wc -l < $W/$p.sass.csv) at $(( $(date +%s) - START )) s"
done
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > $W/versions.txt 2>&1
gzip -f $W/*.sass.csv
echo "total $(( $(date +%s) - START )) s" | tee $W/total.txt
cd $W && tar czf $OUT/results.tgz *
