"""Runs `warpscope analyze` on each kernel of triton3/launches.tsv that `--arg` can describe (the
kernels without host tensor maps), with the table's launch and random buffer contents:

    python analyze3.py [WARPSCOPE] [KERNEL...]

Prints each command, its exit status and the first lines of any refusal.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = {"f32": 4, "f16": 2, "bf16": 2, "e4m3": 1, "e5m2": 1, "i8": 1, "imod": 4}


def buf_arg(tok):
    f = tok.split(":")
    if f[0] == "out" or f[0] == "zero":
        return "buf:%s:zero" % f[1]
    return "buf:%d" % (int(f[2]) * SIZE[f[0]])


def main():
    w = sys.argv[1] if len(sys.argv) > 1 else "warpscope"
    only = sys.argv[2:]
    rows = open(os.path.join(HERE, "triton3", "launches.tsv")).read().splitlines()[1:]
    for row in rows:
        name, sym, grid, block, shared, bufs, params = row.split("\t")
        if only and name not in only:
            continue
        if "map:" in params:
            print("== %s: skipped (host tensor maps: `--arg` cannot point a map at a buffer)" % name)
            continue
        bufs = bufs.split(" ")
        args = []
        for p in params.split(" "):
            k, _, v = p.partition(":")
            if k == "p":
                args.append(buf_arg(bufs[int(v)]))
            elif k == "null":
                args.append("u64:0")
            elif k == "scratch":
                args.append("buf:%s:zero" % v)
            else:
                args.append(p)
        cmd = [w, "analyze", "--arch", "sm_90a", os.path.join(HERE, "triton3", name + ".ptx"), "-k", sym,
               "--grid", grid, "--block", block, "--dyn-smem", shared]
        for a in args:
            cmd += ["--arg", a]
        r = subprocess.run(cmd, capture_output=True, text=True)
        print("== %s exit %d" % (name, r.returncode))
        if r.returncode != 0:
            print("   " + "\n   ".join((r.stderr or r.stdout).strip().splitlines()[:5]))


if __name__ == "__main__":
    main()
