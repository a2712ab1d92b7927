#!/bin/sh
# Runs on the GPU from inside the measurement folder: sh measure.sh OUT
OUT=${1:-out}
mkdir -p "$OUT"
T=$(mktemp -d 2>/dev/null || echo /tmp/mufu2.$$)
mkdir -p "$T"
LOG="$OUT/log.txt"
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv 2>&1
  s=$(date +%s)
  ./mufu2s struct "$T" && echo "struct ok $(( $(date +%s) - s )) s"
  ./mufu2 tables "$T" && echo "tables ok $(( $(date +%s) - s )) s"
  ./mufu2s sincos "$T" && echo "sincos ok $(( $(date +%s) - s )) s"
  ./mufu2 half "$T" && echo "half ok"
  ./mufu2 rand "$T" && echo "rand ok $(( $(date +%s) - s )) s"
  ls -l "$T"
} > "$LOG" 2>&1
z() {  # compress $1 into $2
  if command -v xz >/dev/null 2>&1; then xz -T0 -6 -c "$1" > "$2"
  else python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.compress(open(sys.argv[1],'rb').read(), preset=2))" "$1" "$2"; fi
}
( cd "$T" && tar cf small.tar struct.bin half.bin rand.bin ) >> "$LOG" 2>&1
for f in rsq_sqrt.tab lg2.tab ex2.tab tanh.tab sincos.tab small.tar; do
  [ -f "$T/$f" ] && z "$T/$f" "$OUT/$f.xz"
done
echo "compressed $(date -u)" >> "$LOG"
ls -l "$OUT" >> "$LOG"
rm -rf "$T"
