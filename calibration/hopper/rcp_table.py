"""Makes crates/emu/data/rcp_{plus,minus}.zst from the H200's MUFU.RCP table
(calibration/mufu/h200/rcp.delta.xz): bit k of `plus` (`minus`) is set where MUFU.RCP of
1 + k/2^23 is one unit in the last place above (below) the correctly rounded reciprocal.

    python3 rcp_table.py    (needs the `zstd` command)
"""
import array
import lzma
import os
import struct
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
a = array.array("I")
a.frombytes(lzma.open(os.path.join(ROOT, "calibration/mufu/h200/rcp.delta.xz")).read())
n = len(a)
plus, minus = bytearray(n // 8), bytearray(n // 8)
r = 0
for k in range(n):
    r = (r + a[k]) & 0xFFFFFFFF
    cr = struct.unpack("<I", struct.pack("<f", 1.0 / (1.0 + k / 8388608.0)))[0]
    if r == cr + 1:
        plus[k >> 3] |= 1 << (k & 7)
    elif r == cr - 1:
        minus[k >> 3] |= 1 << (k & 7)
    elif r != cr:
        raise SystemExit("k=%d: %08x is more than one unit from %08x" % (k, r, cr))
for name, bits in (("plus", plus), ("minus", minus)):
    raw = os.path.join(ROOT, "crates/emu/data/rcp_%s.bin" % name)
    with open(raw, "wb") as f:
        f.write(bits)
    subprocess.check_call(["zstd", "-19", "-q", "-f", "--rm", raw, "-o", raw[:-4] + ".zst"])
