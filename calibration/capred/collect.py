#!/usr/bin/env python3
"""Joins the device round's ncu source page (per SASS instruction) with layouts.txt into measured.tsv:
one row per (launch, copy): the launch (2 * layout line + NEG), the layout's name, the copy, the
LDGSTS's opcode and predicate operand as written (- for none), the executing and the reading lanes
(hex), the instruction's executions, shared wavefronts and ideal wavefronts, and its global tag
requests and L2 theoretical sectors, as the source page gives them.
Also writes measured_launches.tsv (per launch, from the raw page).
Usage: collect.py [RESULTS_DIR] > measured.tsv   (default: h200/)"""
import csv, gzip, os, sys

here = os.path.dirname(os.path.abspath(__file__))
res = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "h200")
sys.path.insert(0, here)
import rules  # noqa: E402

lays = rules.layouts()
launch, head, blocks = -1, None, []
for row in csv.reader(gzip.open(os.path.join(res, "source.csv.gz"), "rt").read().splitlines()):
    if len(row) >= 2 and row[0] == "Kernel Name":
        blocks.append((row[1], []))
    elif row and row[0] == "Address":
        head = row
    elif head and len(row) == len(head) and "LDGSTS" in row[1]:
        d = dict(zip(head, row))
        blocks[-1][1].append((" ".join(d["Source"].split()), d["Instructions Executed"],
                              d["L1 Wavefronts Shared"], d["L1 Wavefronts Shared Ideal"],
                              d["L1 Tag Requests Global"], d["L2 Theoretical Sectors Global"]))
# ncu prints each launch's page twice, one after the other: keep one of each pair (checked equal)
assert len(blocks) % 2 == 0
for a, b in zip(blocks[0::2], blocks[1::2]):
    assert a == b, (a, b)
blocks = blocks[0::2]
assert len(blocks) == 2 * len(lays), (len(blocks), len(lays))
print("launch\tname\tcopy\topcode\tpredicate\texecute\treads\texecutions\twavefronts\tideal\trequests\tsectors")
for i, (kname, insts) in enumerate(blocks):
    lay = lays[i // 2]
    assert len(insts) == 8, (i, kname, len(insts))
    # the kernel's template arguments: <W, K, NEG>
    want = f"pca<(int){lay['w']}, (int){lay['k']}, (int){i % 2}>"
    assert want in kname, (i, kname, want)
    for c, (sass, n, w, ideal, rq, sc) in enumerate(insts):
        op = sass.split()[0]
        ops = [o.strip() for o in sass[len(op):].rstrip(" ;").split(",")]
        preds = [o for o in ops if o.lstrip("!") in ("PT", "P0", "P1", "P2", "P3", "P4", "P5", "P6")]
        pred = preds[0] if preds else "-"
        reads = sum(1 << l for l in range(32) if lay["rd"][l] >> c & 1) & lay["ex"]
        num = lambda s: s.replace(",", "")
        print(f"{i}\t{lay['name']}\t{c}\t{op}\t{pred}\t{lay['ex']:08x}\t{reads:08x}\t{num(n)}\t{num(w)}\t{num(ideal)}\t{num(rq)}\t{num(sc)}")

# per launch, from the raw page (launch order): LDGSTS wavefronts and conflicts as the instrumented
# counters give them, and the instructions -> measured_launches.tsv
raw = gzip.open(os.path.join(res, "raw.csv.gz"), "rt").read().splitlines()
start = [k for k, l in enumerate(raw) if l.startswith('"ID"')][0]
rr = list(csv.reader(raw[start:]))
h = rr[0]
cols = ["sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
        "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
        "smsp__inst_executed_op_ldgsts.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"]
assert len(rr) - 2 == len(blocks)
with open(os.path.join(here, "measured_launches.tsv"), "w") as f:
    f.write("launch\tname\t" + "\t".join(cols) + "\n")
    for i, r in enumerate(rr[2:]):
        d = dict(zip(h, r))
        assert f"pca<{lays[i // 2]['w']}, {lays[i // 2]['k']}, {i % 2}>" in d["Kernel Name"]
        f.write(f"{i}\t{lays[i // 2]['name']}\t" + "\t".join(d[c].replace(",", "") for c in cols) + "\n")
