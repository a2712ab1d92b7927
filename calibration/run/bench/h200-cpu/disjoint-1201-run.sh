#!/bin/sh
# 1 -> 16 threads per launch on the H200 host's Xeon: main's runtime library (main) against the
# branch's (new, the static disjointness proof: launches whose blocks provably share no written word
# run without the determinism shadow), one warpscope CLI (main's) for both through --cudart.
# summatrix 2^13 (32x32, 32x16, 16x16 blocks), reduce 2^24, transpose 4096; 1 and 16 threads, three
# rounds alternated; the branch also at 2 and 8 threads, and at 16 with WARPSCOPE_SHADOW_PROOF=0 (keep:
# the shadow on, with the branch's one-array marks); every export compared with main's at 1 thread.
# Run from this folder: OUT=DIR sh run.sh   (about 2.5 minutes; no GPU work)
set -u
D=$(pwd)
W=$(mktemp -d)
P=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$P")")
export LD_LIBRARY_PATH=$WARPSCOPE_CUDA_ROOT/lib64:$WARPSCOPE_CUDA_ROOT/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}:$D
R=$OUT/r
mkdir -p "$R"
START=$(date +%s)
xz -dc bins.tar.xz | tar xf - -C "$W"
chmod +x "$W/main/warpscope"
for p in summatrix reduce transpose; do cp "$p" "$W/$p"; chmod +x "$W/$p"; done
(nproc; grep -m1 'model name' /proc/cpuinfo; uptime) > "$R/machine.txt" 2>&1
cd "$W"
one() { # variant program args threads round
  echo "== $1: $2 $3, $4 threads, round $5" >> "$R/timing.txt"
  case $1 in keep) lib=new; e=WARPSCOPE_SHADOW_PROOF=0 ;; *) lib=$1; e=X=1 ;; esac
  /usr/bin/time -f "wall %e s user %U s sys %S s maxrss %M KB" env $e WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=$4 \
    timeout 60 "$W/main/warpscope" run --cudart "$W/$lib/libwarpscope_cudart.so" --export "$W/$1.$2.$4.json" -- "./$2" $3 \
    > "$W/$1.$2.$4.out" 2>> "$R/timing.txt"
  echo "exit $?" >> "$R/timing.txt"
}
args() { case $1 in summatrix) echo 13 ;; reduce) echo 24 ;; transpose) echo 4096 ;; esac; }
for round in 1 2 3; do
  for p in summatrix reduce transpose; do
    a=$(args $p)
    if [ $(( $(date +%s) - START )) -lt 170 ]; then
      if [ $((round % 2)) = 1 ]; then order="main new"; else order="new main"; fi
      for v in $order; do one $v $p "$a" 1 $round; done
      for v in $order keep; do one $v $p "$a" 16 $round; done
    fi
  done
  if [ $round = 1 ]; then
    for p in summatrix reduce transpose; do
      for t in 2 8; do one new $p "$(args $p)" $t 1; done
    done
  fi
done
for p in summatrix reduce transpose; do
  for f in main.$p.16 new.$p.1 new.$p.2 new.$p.8 new.$p.16 keep.$p.16; do
    if cmp -s "$W/main.$p.1.json" "$W/$f.json"; then echo "same $f = main.$p.1" >> "$R/same.txt"; else echo "DIFF $f main.$p.1" >> "$R/same.txt"; fi
  done
  cat "$W/new.$p.16.out" > "$R/$p.new16.out" 2>/dev/null
done
(uptime; echo "total $(( $(date +%s) - START )) s") >> "$R/machine.txt"
cd "$OUT" && tar czf "$OUT/results.tgz" r
