#!/usr/bin/env bash
# Measures every pattern of patterns.tsv on the local GPU under Nsight Compute.
# Usage: [PATTERNS=file.tsv] [NCHUNKS=n] calibration/bank/run.sh OUTDIR [BUDGET_SECONDS]
# Writes OUTDIR/{device.txt,sass.txt,ncu_raw.csv,ids.tsv,log.txt}; then
#   python3 calibration/bank/collect.py OUTDIR > calibration/bank/measured.tsv
# Rows are launched in NCHUNKS interleaved chunks (row i goes to chunk i % NCHUNKS) so that a run cut
# short by the budget still covers every width and op evenly.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUTDIR [BUDGET_SECONDS]}
budget=${2:-520}
mkdir -p "$out"
start=$(date +%s)
log() { echo "[$(( $(date +%s) - start ))s] $*" | tee -a "$out/log.txt"; }
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
{ nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; nvcc --version | tail -2; "$NCU" --version | tail -1; } > "$out/device.txt" 2>&1
cat "$out/device.txt"
bin=/tmp/bank_calib
nvcc -O3 -arch=sm_90 -lineinfo -o "$bin" "$here/bank_calib.cu" || { log "nvcc failed"; exit 1; }
cuobjdump -sass "$bin" | grep -E "Function|LDS|STS|LD\.|ST\." > "$out/sass.txt"
log "compiled; $(grep -c -E 'LDS|STS' "$out/sass.txt") shared accesses in SASS"
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
nchunks=${NCHUNKS:-24}
pat=${PATTERNS:-$here/patterns.tsv}
total=$(( $(wc -l < "$pat") - 1 ))
: > "$out/ncu_raw.csv"; : > "$out/ids.tsv"
for c in $(seq 0 $((nchunks - 1))); do
  t0=$(date +%s.%N)
  "$NCU" --csv --page raw --clock-control none --cache-control none -k regex:bank_ --metrics "$metrics" \
    --log-file /tmp/chunk.csv "$bin" "$pat" "$c" "$nchunks" /tmp/ids.tsv > /tmp/app.log 2>&1
  rc=$?
  t1=$(date +%s.%N)
  n=$(wc -l < /tmp/ids.tsv)
  echo "#chunk $c" >> "$out/ncu_raw.csv"; cat /tmp/chunk.csv >> "$out/ncu_raw.csv"
  sed "s/^/$c\t/" /tmp/ids.tsv >> "$out/ids.tsv"
  per=$(python3 -c "print(f'{($t1-$t0)/max($n,1):.3f}')")
  log "chunk $c: rc=$rc, $n launches, $per s per launch"
  [ $rc -eq 0 ] || { cat /tmp/app.log | tail -20; break; }
  elapsed=$(( $(date +%s) - start ))
  need=$(python3 -c "print(int(($t1-$t0)*1.2)+1)")
  if [ $((elapsed + need)) -gt "$budget" ] && [ $c -lt $((nchunks - 1)) ]; then
    log "stopping: budget $budget s reached after chunk $c of $nchunks ($total rows in all)"
    break
  fi
done
log "done"
