#!/bin/sh
# Second round, from inside the measurement folder: sh measure.sh OUT
OUT=${1:-out}
mkdir -p "$OUT"
T=$(mktemp -d 2>/dev/null || echo /tmp/mufu2b.$$)
mkdir -p "$T"
LOG="$OUT/log.txt"
{
  date -u
  nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1
  ./mufu2 tables2 "$T" && echo "tables2 ok"
  ./mufu2 rand2 "$T" && echo "rand2 ok"
  ./mufu2 rand "$T" && echo "rand ok"
  ls -l "$T"
} > "$LOG" 2>&1
for f in ex2neg.tab tanh2.tab rand2.bin rand.bin; do
  [ -f "$T/$f" ] && xz -T0 -6 -c "$T/$f" > "$OUT/$f.xz"
done
echo "compressed $(date -u)" >> "$LOG"
ls -l "$OUT" >> "$LOG"
rm -rf "$T"
