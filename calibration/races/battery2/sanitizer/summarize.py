#!/usr/bin/env python3
"""Reads the logs run.sh packed (a folder where results.tgz was unpacked) and prints one row per
kernel: label, what racecheck, synccheck and memcheck reported, and how the plain run ended (a
run that ended with status 0 and whose log was not kept: nothing reported).
    summarize.py RESULTS_DIR > results-h200.tsv"""
import glob, os, re, sys

d = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
rc = {}
for line in open(os.path.join(d, "rc.txt")):
    name, tool, code = line.split()
    rc[(name, tool)] = int(code.split("=")[1])
print("kernel\tlabel\tracecheck\tsynccheck\tmemcheck\tplain run")
for f in sorted(glob.glob(os.path.join(here, "..", "*.cu"))):
    text = open(f).read()
    name = re.search(r'extern "C" __global__ void (\w+)\(', text).group(1)
    label = re.search(r"^// expect: (\S+)", text, re.M).group(1)
    if (name, "plain") not in rc:
        continue  # not in that run

    def log(tool):
        p = os.path.join(d, "%s.%s.txt" % (name, tool))
        return open(p, errors="replace").read() if os.path.exists(p) else ""

    def verdict(tool):
        if rc.get((name, tool)) == 124:
            return "timed out (20 s)"
        if rc.get((name, tool)) == 0 and not log(tool):
            return "none"  # a clean run whose log was not kept
        t = log(tool)
        m = re.search(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", t)
        if m:
            return "%s errors, %s warnings" % (m.group(2), m.group(3)) if m.group(1) != "0" else "none"
        m = re.search(r"ERROR SUMMARY: (\d+) errors?", t)
        if m and m.group(1) != "0":
            kinds = sorted(set(re.findall(r"Barrier error detected\. ([^\n]*)", t)))
            kinds += sorted(set(re.findall(r"========= (Invalid [^\n]*?|Misaligned [^\n]*?|Out-of-range [^\n]*?)(?: at|\n)", t)))
            return "%s errors (%s)" % (m.group(1), " ".join(kinds))
        return "none" if m or "RACECHECK" in t else "no summary"

    plain = "timed out (20 s)" if rc.get((name, "plain")) == 124 else log("plain").strip().split(": ", 1)[-1]
    if not plain and rc.get((name, "plain")) == 0:
        plain = "no error"  # the log of a clean run was not kept
    print("\t".join([name, label, verdict("racecheck"), verdict("synccheck"), verdict("memcheck"), plain]))
