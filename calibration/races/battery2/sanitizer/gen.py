#!/usr/bin/env python3
"""Writes DIR/gen/all.cu (DIR: argv[1], default this folder): every kernel of the battery
(../*.cu) in one translation unit, and a table of their launches read off each `// launch:` line
(grid, block, --dyn-smem, --cooperative; buf:N[:zero], i32:V and alias:N[+BYTES] arguments; other
flags of `check`, such as --report-same-value-writes, are not the launch's), for main.h."""
import glob, os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else here
os.makedirs(os.path.join(out, "gen"), exist_ok=True)
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
                elif p[0] == "alias":
                    n, _, off = p[1].partition("+")
                    args.append("{3, %d}" % ((int(n) << 32) | int(off or 0)))
                else:
                    raise SystemExit("%s: argument %s not supported" % (f, v))
        else:
            if t == "--cooperative":
                coop = "true"
            i += 1
    incs.append('#include "%s"' % os.path.abspath(f))
    rows.append('    {"%s", (const void *)%s, dim3(%s), dim3(%s), %d, %s, %d, {%s}},'
                % (name, name, ",".join(grid), ",".join(block), dyn, coop, len(args), ", ".join(args)))
with open(os.path.join(out, "gen", "all.cu"), "w") as o:
    o.write("\n".join(incs) + '\n#include "%s/harness.h"\nstatic const Launch launches[] = {\n' % here)
    o.write("\n".join(rows) + '\n};\n#include "%s/main.h"\n' % here)
