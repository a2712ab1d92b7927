#!/usr/bin/env python3
"""Writes gen/all.cu: every kernel of the battery (../*.cu) in one translation unit, and a table of
their launches read off each `// launch:` line (grid, block, --dyn-smem, --cooperative, buf:N[:zero]
and i32:V arguments), for harness.cu."""
import glob, os, re

here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(here, "gen"), exist_ok=True)
rows, incs = [], []
for f in sorted(glob.glob(os.path.join(here, "..", "*.cu"))):
    text = open(f).read()
    name = re.search(r'extern "C" __global__ void (\w+)\(', text).group(1)
    toks = re.search(r"^// launch: (.*)$", text, re.M).group(1).split()
    grid, block, dyn, coop, args = ["1"] * 3, ["1"] * 3, 0, "false", []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in ("--grid", "--block", "--dyn-smem", "--arg"):
            v = toks[i + 1]
            i += 2
            if t == "--grid":
                grid = (v.split(",") + ["1", "1"])[:3]
            elif t == "--block":
                block = (v.split(",") + ["1", "1"])[:3]
            elif t == "--dyn-smem":
                dyn = int(v)
            else:
                p = v.split(":")
                if p[0] == "buf":
                    args.append("{%d, %s}" % (1 if len(p) > 2 and p[2] == "zero" else 0, p[1]))
                elif p[0] == "i32":
                    args.append("{2, %s}" % p[1])
                else:
                    raise SystemExit("%s: argument %s not supported" % (f, v))
        else:
            if t == "--cooperative":
                coop = "true"
            i += 1
    incs.append('#include "../../%s"' % os.path.basename(f))
    rows.append('    {"%s", (const void *)%s, dim3(%s), dim3(%s), %d, %s, %d, {%s}},'
                % (name, name, ",".join(grid), ",".join(block), dyn, coop, len(args), ", ".join(args)))
with open(os.path.join(here, "gen", "all.cu"), "w") as o:
    o.write("\n".join(incs) + "\n#include \"../harness.h\"\nstatic const Launch launches[] = {\n")
    o.write("\n".join(rows) + "\n};\n#include \"../main.h\"\n")
