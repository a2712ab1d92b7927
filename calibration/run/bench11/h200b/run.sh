#!/bin/sh
# bench11, second request: cellrule (density on host-built cell lists, three forms) natively, ncu
# metric list twice, its source page; cellist's ncu metric list again (run-to-run check). ~40 s
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD:$LD_LIBRARY_PATH
command -v ncu >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
. ./ncu-metrics.sh
S=$(mktemp -d); W=$S/bench11b; mkdir -p $W
timeout 60 ./cellrule > $W/cellrule.stdout 2>&1; echo "cellrule exit $?" >> $W/summary.txt
for r in 1 2; do
  timeout 90 ncu --clock-control none --csv --metrics "$M" ./cellrule > $W/cellrule.r$r.ncu.csv 2>> $W/cellrule.ncu.stderr
  echo "cellrule ncu $r exit $?" >> $W/summary.txt
done
timeout 90 ncu --clock-control none --csv --metrics "$M" ./cellist > $W/cellist.r2.ncu.csv 2>> $W/cellist.ncu.stderr
echo "cellist ncu exit $?" >> $W/summary.txt
timeout 90 ncu --clock-control none --section SourceCounters --page source --print-source sass --csv ./cellrule > $W/cellrule.sass.csv 2>> $W/cellrule.sass.stderr
echo "cellrule source exit $?" >> $W/summary.txt
gzip -f $W/*.sass.csv
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > $W/versions.txt 2>&1
cd $S && tar czf $OUT/results.tgz bench11b
