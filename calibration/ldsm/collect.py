#!/usr/bin/env python3
"""Joins run.sh's output (OUTDIR/ncu_{mat,cp}.csv, OUTDIR/ids_{mat,cp}.tsv, OUTDIR/device.txt) with a
patterns table into the measured table on stdout: one row per pattern with every counter measured.

Usage: python3 calibration/ldsm/collect.py OUTDIR PATTERNS.tsv > calibration/ldsm/measured.tsv

Columns: id, kind, form, desc, then one column per counter (short names, the full metric names are in
the header comment; '' where the counter was not collected for that kind), then a0..a31, g0..g31.
"""
import csv
import os
import sys

SHORT = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "ld_wavefronts",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "st_wavefronts",
    "smsp__sass_inst_executed_op_shared_ld.sum": "ld_inst",
    "smsp__sass_inst_executed_op_shared_st.sum": "st_inst",
    "smsp__sass_inst_executed_op_ldsm.sum": "ldsm_inst",
    "smsp__sass_inst_executed_op_shared_stsm.sum": "stsm_inst",
    "smsp__sass_inst_executed_op_stsm.sum": "stsm_inst2",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum": "sass_ldsm_wavefronts",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum": "sass_stsm_wavefronts",
    "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum": "sass_ldsm_conflicts",
    "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum": "sass_stsm_conflicts",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "sass_ld_wavefronts",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "sass_st_wavefronts",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum": "shared_wavefronts",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum": "ldgsts_wavefronts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum": "ldgsts_conflicts",
    "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum": "sass_ldgsts_conflicts",
    "smsp__inst_executed_op_ldgsts.sum": "ldgsts_inst",
    "smsp__sass_inst_executed_op_ldgsts.sum": "sass_ldgsts_inst",
    "sm__sass_data_bytes_mem_shared_op_ldgsts.sum": "ldgsts_bytes",
    "sm__sass_data_bytes_mem_shared_op_ldsm.sum": "ldsm_bytes",
    "sm__sass_data_bytes_mem_shared_op_stsm.sum": "stsm_bytes",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum": "ldgsts_global_requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum": "ldgsts_global_sectors",
}


def short(name):
    if name in SHORT:
        return SHORT[name]
    return name.replace(".sum", "").replace("__", "_")


def read_chunks(path):
    chunks, current, header = {}, None, None
    with open(path) as f:
        for line in f:
            if line.startswith("#chunk"):
                current = int(line.split()[1])
                chunks[current] = []
                header = None
                continue
            if line.startswith("==") or not line.strip() or not line.startswith('"'):
                continue
            row = next(csv.reader([line]))
            if header is None:
                header = row
                continue
            if row[0] == "":
                continue  # units
            chunks[current].append(dict(zip(header, row)))
    return chunks


def main():
    outdir, pattern_file = sys.argv[1], sys.argv[2]
    patterns, order = {}, []
    with open(pattern_file) as f:
        next(f)
        for line in f:
            cells = line.rstrip("\n").split("\t")
            patterns[cells[0]] = cells
            order.append(cells[0])
    results, names = {}, []
    for part in ("mat", "cp"):
        raw = os.path.join(outdir, f"ncu_{part}.csv")
        if not os.path.exists(raw):
            continue
        chunks = read_chunks(raw)
        ids = {}
        with open(os.path.join(outdir, f"ids_{part}.tsv")) as f:
            for line in f:
                c, pid, kind, form = line.rstrip("\n").split("\t")
                ids.setdefault(int(c), []).append((pid, kind, form))
        for c, launched in ids.items():
            recs = chunks.get(c, [])
            if len(recs) != len(launched):
                sys.stderr.write(f"{part} chunk {c}: {len(recs)} profiled kernels, {len(launched)} launches; skipped\n")
                continue
            for rec, (pid, kind, form) in zip(recs, launched):
                kname = rec.get("Kernel Name", "")
                if not kname.startswith(f"{kind}_{form}"):
                    sys.exit(f"{part} chunk {c}: pattern {pid} ({kind} {form}) matched kernel {kname}")
                vals = {}
                for k, v in rec.items():
                    if k.endswith(".sum") and not k.startswith(("gpu__time", "profiler__")):
                        vals[k] = v.replace(",", "")
                        if k not in names:
                            names.append(k)
                results[pid] = vals
    device = open(os.path.join(outdir, "device.txt")).read().strip().replace("\n", " | ")
    print(f"# measured on: {device}")
    print("# counters: " + ", ".join(f"{short(n)}={n}" for n in names) + "; one launch, one warp, per row")
    cols = [short(n) for n in names]
    print("id\tkind\tform\tdesc\t" + "\t".join(cols) + "\t" + "\t".join(f"a{l}" for l in range(32)) + "\t"
          + "\t".join(f"g{l}" for l in range(32)))
    missing = 0
    for pid in order:
        if pid not in results:
            missing += 1
            continue
        p = patterns[pid]
        vals = results[pid]
        print("\t".join(p[:4] + [vals.get(n, "") for n in names] + p[4:]))
    if missing:
        sys.stderr.write(f"{missing} patterns not measured\n")


if __name__ == "__main__":
    main()
