#!/usr/bin/env python3
"""Tabulates printf5.cu's launches: a warpscope export (`warpscope run --export X.json -- ./printf5`)
and, when given, the GPU's ncu CSV of the same program. With `--h200` the rule's counts are the
H200's: the export's (the H100's) less 3 store requests and 3 store sectors per warp-level call
(`warpscope__device_printf_warp_calls`).
  python3 table5.py [--h200] EXPORT.json [NCU.csv]   (markdown on stdout)"""
import csv
import io
import json
import sys

# the launches of printf5.cu's main, in order: (kernel, block size, what varies)
LABELS = (
    [("b10", 4, "4 lanes, the four calls"), ("b10call1", 4, "4 lanes"), ("b10call2", 4, "4 lanes"),
     ("b10call3", 4, "4 lanes"), ("b10call4", 4, "4 lanes"), ("b10", 32, "4 of 32 lanes"),
     ("b10call1", 32, "4 of 32 lanes"), ("b10call4", 32, "4 of 32 lanes"), ("b10", 4, "1 lane"),
     ("b10call1", 4, "1 lane"), ("b10call4", 4, "1 lane"), ("b10calls12", 4, "4 lanes"),
     ("b10call1", 32, "32 lanes"),
     ("once", 32, "4 lanes"), ("once", 4, "4 lanes"), ("twice", 32, "4 lanes"), ("four", 32, "4 lanes"),
     ("twice", 32, "1 lane"), ("four", 32, "1 lane"), ("once", 32, "32 lanes"), ("twoCallsCopy", 32, "1 lane"),
     ("reportShapeCopy", 4, "3 lanes")]
    + [("threeInts", 32, f"{n} lanes") for n in (1, 2, 4, 32)]
    + [("intTwoDbls", 32, f"{n} lanes") for n in (1, 2, 4, 32)]
    + [("str", 32, f"4 lanes, {n} chars") for n in range(10)]
    + [("str", 32, f"1 lane, {n} chars") for n in (0, 3, 4, 9)]
    + [("strEach", 32, f"4 lanes, lengths {p}") for p in ("3,4,3,4", "4,3,4,3", "0,9,0,9", "3,3,3,3")]
    + [("oddEven", 32, "4 lanes"), ("oddEven", 32, "1 lane"),
       ("pct0", 32, "1 lane"), ("pct0", 32, "4 lanes"), ("pct1", 32, "1 lane"), ("pct1", 32, "4 lanes"),
       ("pct2", 32, "4 lanes"), ("pctStr", 32, "4 lanes"), ("noPct", 32, "4 lanes")]
    + [(f"ints{n}", 32, "4 lanes") for n in range(3, 11)] + [("ints10", 32, "1 lane")]
    + [(f"dbls{n}", 32, "4 lanes") for n in (3, 4, 5, 6, 7, 8, 10)] + [("dbls10", 32, "1 lane")]
    + [(k, 32, "4 lanes") for k in ("longs3", "longs10", "strs3", "strs6", "strsSame3", "intDbl", "dblInt",
                                   "alt4", "alt10", "every6")]
    + [("every6", 32, "1 lane"), ("strMid", 32, "4 lanes"), ("charInt", 32, "4 lanes")]
    + [(k, 32, "4 lanes") for k in ("widths", "hexOct", "expG", "fixW", "prec20", "tPrefix")]
    + [("tPrefix", 32, "1 lane")]
)
KEYS = [f"l1tex__t_{a}_pipe_lsu_mem_global_op_{b}.sum" for b in ("ld", "st") for a in ("requests", "sectors")]


def ncu(path):
    rows = [l for l in open(path).read().splitlines() if l.startswith('"')]
    out = {}
    for d in csv.DictReader(io.StringIO("\n".join(rows))):
        out.setdefault(int(d["ID"]), (d["Kernel Name"], {}))[1][d["Metric Name"]] = d["Metric Value"].replace(",", "")
    return out


def main():
    args = sys.argv[1:]
    h200 = "--h200" in args
    args = [a for a in args if a != "--h200"]
    launches = json.load(open(args[0]))["launches"]
    gpu = ncu(args[1]) if len(args) > 1 else None
    assert len(launches) == len(LABELS), (len(launches), len(LABELS))
    rule = "rule (H200)" if h200 else "warpscope"
    head = f"| # | kernel | block | lanes, … | {rule} ld req / sec / st req / sec | claim |"
    if gpu:
        head += " GPU ld req / sec / st req / sec | equal |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    equal = 0
    for l, (k, block, what) in zip(launches, LABELS):
        assert l["kernel"].split("(")[0] == k and l["block"][0] == block, (l["id"], l["kernel"], k)
        m = l["metrics"]
        ours = [int(m[key]) for key in KEYS]
        if h200:
            fewer = 3 * int(m["warpscope__device_printf_warp_calls"])
            ours = ours[:2] + [ours[2] - fewer, ours[3] - fewer]
        if "warpscope__global_load_counters_exact" in m:
            claim = "loads exact" if m["warpscope__global_load_counters_exact"] == 1.0 else "estimate"
        else:
            claim = "exact" if m["warpscope__global_counters_exact"] == 1.0 else "estimate"
        row = f"| {l['id']} | {k} | {block} | {what} | {' / '.join(map(str, ours))} | {claim} |"
        if gpu:
            name, m = gpu[l["id"]]
            assert name.split("(")[0] == k, (l["id"], name)
            theirs = [int(m[key]) for key in KEYS]
            equal += ours == theirs
            row += f" {' / '.join(map(str, theirs))} | {'yes' if ours == theirs else 'no'} |"
        print(row)
    if gpu:
        print(f"\n{equal} of {len(LABELS)} launches equal in all four counters")


main()
