#!/bin/sh
# The 2-core VM: main's runtime library (main) against the branch's (new), summatrix 2^11, reduce 2^20,
# transpose 1024 at 1 and 2 threads, three rounds alternated (one warpscope CLI, main's, for both).
#   MAIN=DIR NEW=DIR OUT=DIR sh vm-disjoint-run.sh   (from a folder holding the three programs)
set -u
one() { # variant program args threads round
  echo "== $1: $2 $3, $4 threads, round $5" >> "$OUT/timing.txt"
  d=$MAIN; [ $1 = new ] && d=$NEW
  /usr/bin/time -f "wall %e s user %U s sys %S s maxrss %M KB" env WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=$4 \
    "$MAIN/warpscope" run --cudart "$d/libwarpscope_cudart.so" --export "$OUT/$1.$2.$4.json" -- "./$2" $3 \
    > /dev/null 2>> "$OUT/timing.txt"
  echo "exit $?" >> "$OUT/timing.txt"
}
args() { case $1 in summatrix) echo 11 ;; reduce) echo 20 ;; transpose) echo 1024 ;; esac; }
for round in 1 2 3; do
  if [ $((round % 2)) = 1 ]; then order="main new"; else order="new main"; fi
  for p in summatrix reduce transpose; do
    for t in 1 2; do for v in $order; do one $v $p "$(args $p)" $t $round; done; done
  done
done
for p in summatrix reduce transpose; do
  for f in main.$p.2 new.$p.1 new.$p.2; do
    if cmp -s "$OUT/main.$p.1.json" "$OUT/$f.json"; then echo "same $f = main.$p.1"; else echo "DIFF $f main.$p.1"; fi
  done
done > "$OUT/same.txt"
