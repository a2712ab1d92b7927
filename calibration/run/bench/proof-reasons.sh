#!/bin/sh
# Why the static disjointness proof (crates/emu/src/disjoint.rs) refused each launch it was asked
# about: each program run once under WARPSCOPE_TIMING=1 at 2 threads, which prints
# `warpscope proof: refused, <where>: <rule>` after the launch's timing line. Prints one line a
# refused launch (program, kernel<<<grid,block>>>, reason), then the reasons' rules counted.
#   calibration/run/bench/proof-reasons.sh WARPSCOPE_DIR PROGRAM_DIR PROGRAM[:ARGS] ...
# WARPSCOPE_DIR holds warpscope and libwarpscope_cudart.so; PROGRAM_DIR the built programs.
W=${1:?warpscope dir}; B=${2:?program dir}; shift 2
cd "$B" || exit 2
all=$(mktemp)
for pa in "$@"; do
  p=${pa%%:*}; a=; [ "$p" != "$pa" ] && a=$(echo "${pa#*:}" | tr ',' ' ')
  WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=2 "$W/warpscope" run --cudart "$W/libwarpscope_cudart.so" -- "./$p" $a 2>&1 >/dev/null \
    | awk -v p="$pa" '/^warpscope timing: /{k=$3} /^warpscope proof: refused, /{sub(/^warpscope proof: refused, /, ""); print p "\t" k "\t" $0}'
done | tee "$all"
echo
echo "# refusals by rule"
sed 's/.*`[^`]*`: //' "$all" | sed -E 's/: at .*`: /: /; s/\[0x[0-9a-f]+, 0x[0-9a-f]+\)/[..)/g; s/ \(a group of.*//; s/pcs \[[0-9, ]*\]/pcs [..]/g; s/the factor [0-9]+ of [^ ]+ [^ ]+ is less than the [0-9]+ bytes.*/not a mixed radix/' \
  | sort | uniq -c | sort -rn
rm -f "$all"
