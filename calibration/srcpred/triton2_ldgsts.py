#!/usr/bin/env python3
"""The LDGSTS rows of Nsight Compute's source page of calibration/hopper's second Triton set
(h200_triton2/triton2.sass.csv.gz), in launch and code order: launch index, kernel, SASS, executions,
shared wavefronts, ideal. Usage: triton2_ldgsts.py > triton2_ldgsts.tsv"""
import csv, gzip, os

here = os.path.dirname(os.path.abspath(__file__))
page = os.path.join(here, "..", "hopper", "h200_triton2", "triton2.sass.csv.gz")
launch, kernel, head = -1, None, None
print("launch\tkernel\tsass\texecutions\twavefronts\tideal")
for row in csv.reader(gzip.open(page, "rt").read().splitlines()):
    if len(row) >= 2 and row[0] == "Kernel Name":
        launch, kernel = launch + 1, row[1]
    elif row and row[0] == "Address":
        head = row
    elif head and len(row) == len(head) and "LDGSTS" in row[1]:
        d = dict(zip(head, row))
        print(f"{launch}\t{kernel}\t{' '.join(d['Source'].split())}\t{d['Instructions Executed']}\t"
              f"{d['L1 Wavefronts Shared']}\t{d['L1 Wavefronts Shared Ideal']}")
