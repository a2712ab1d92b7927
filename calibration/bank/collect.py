#!/usr/bin/env python3
"""Joins run.sh's output (OUTDIR/ncu_raw.csv[.gz], OUTDIR/ids.tsv, OUTDIR/device.txt) with patterns.tsv
into measured.tsv on stdout: one row per pattern with the measured wavefronts and instruction counts.

Usage: python3 calibration/bank/collect.py OUTDIR [PATTERNS.tsv] > calibration/bank/measured.tsv
"""
import csv
import gzip
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
METRICS = {
    "ld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "st_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "ld_inst": "smsp__sass_inst_executed_op_shared_ld.sum",
    "st_inst": "smsp__sass_inst_executed_op_shared_st.sum",
}


def opener(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def main():
    outdir = sys.argv[1]
    raw = os.path.join(outdir, "ncu_raw.csv")
    if not os.path.exists(raw):
        raw += ".gz"
    patterns = {}
    pattern_file = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "patterns.tsv")
    with open(pattern_file) as f:
        next(f)
        for line in f:
            cells = line.rstrip("\n").split("\t")
            patterns[cells[0]] = cells
    # chunks: each starts with '#chunk N', then ncu notes, then a header, a units row and data rows
    chunks = {}
    current = None
    header = None
    with opener(raw) as f:
        for line in f:
            if line.startswith("#chunk"):
                current = int(line.split()[1])
                chunks[current] = []
                header = None
                continue
            if line.startswith("==") or not line.strip():
                continue
            row = next(csv.reader([line]))
            if header is None:
                header = row
                continue
            if row[0] == "":
                continue  # units
            rec = dict(zip(header, row))
            chunks[current].append(rec)
    ids = {}
    with open(os.path.join(outdir, "ids.tsv")) as f:
        for line in f:
            c, pid, w, op = line.split()
            ids.setdefault(int(c), []).append((pid, w, op))
    device = open(os.path.join(outdir, "device.txt")).read().strip().splitlines()
    print("# measured on: " + " | ".join(device))
    print("# counters: " + ", ".join(METRICS.values()) + "; one launch, one warp, per row")
    print("id\twidth\top\tdesc\tld_wavefronts\tst_wavefronts\tld_inst\tst_inst\t" + "\t".join(f"a{i}" for i in range(32)))
    out = []
    for c in sorted(ids):
        recs = chunks.get(c, [])
        if len(recs) != len(ids[c]):
            sys.exit(f"chunk {c}: {len(recs)} profiled launches but {len(ids[c])} ids")
        for rec, (pid, w, op) in zip(recs, ids[c]):
            name = rec["Kernel Name"]
            if not name.startswith(f"bank_{op}_w{w}("):
                sys.exit(f"chunk {c}: id {pid}: kernel {name} does not match width {w} op {op}")
            p = patterns[pid]
            vals = [str(int(float(rec[m].replace(",", "")))) for m in METRICS.values()]
            out.append((int(pid), [pid, w, op, p[3]] + vals + p[4:]))
    for _, cells in sorted(out):
        print("\t".join(cells))


if __name__ == "__main__":
    main()
