#!/usr/bin/env python3
"""Per launch, the counters of the repeat runs (h200/triton_*.csv.gz: the Triton kernels with
cp.async.cg pipelines, runs a1-a3 with the metric list, b1-b2 with the source counters' sections
too; h200/pipe_*.csv.gz and h200b/pipe_*.csv.gz: pipe.cu) -> repeat.tsv.
Usage: repeat.py > repeat.tsv"""
import csv
import glob
import gzip
import os

HERE = os.path.dirname(os.path.abspath(__file__))
COLS = [("ld_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
        ("ld_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
        ("ldgsts_inst", "smsp__inst_executed_op_ldgsts.sum"),
        ("ldgsts_wavefronts", "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"),
        ("ldgsts_conflicts", "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum"),
        ("l2_sectors", "lts__t_sectors_srcunit_tex_op_read.sum")]
TRITON = ["mm_e4m3", "mm_i8", "mm_tf32", "mm_splitk", "attn_causal"]  # launch order (launches.tsv)


def rows(path):
    ls = [l for l in gzip.open(path, "rt").read().splitlines() if l.startswith('"')]
    r = list(csv.reader(ls))
    return [dict(zip(r[0], x)) for x in r[2:]]


def main():
    print("file\tlaunch\tkernel\t" + "\t".join(c for c, _ in COLS))
    files = sorted(glob.glob(os.path.join(HERE, "h200", "triton_[ab]*.csv.gz"))) + \
        sorted(glob.glob(os.path.join(HERE, "h200", "pipe_*.csv.gz"))) + \
        sorted(glob.glob(os.path.join(HERE, "h200b", "pipe_*.csv.gz")))
    for f in files:
        name = os.path.relpath(f, HERE)
        for i, r in enumerate(rows(f)):
            k = TRITON[i] if "triton" in name else r["Kernel Name"].split("(")[0].replace("void ", "")
            print(f"{name}\t{i}\t{k}\t" + "\t".join(r[m].replace(",", "") for _, m in COLS))


if __name__ == "__main__":
    main()
