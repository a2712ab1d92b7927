#!/usr/bin/env python3
"""The rows of wmma_calib (deterministic): every layout of A, B (f16) and C (f32) crossed with
leading dimensions (padded, power-of-two, odd multiples) and 32-byte aligned offsets."""
import random

rng = random.Random(16)
ld_h = [16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 112, 120, 128, 136, 192, 256, 264, 512]
off_h = [0, 16, 32, 48, 64, 112, 256]
ld_f = [16, 20, 24, 28, 32, 36, 40, 44, 48, 64, 68, 72, 96, 128, 132, 256]
off_f = [0, 8, 16, 24, 56, 128]
print("id\tla\tlb\tlc\tlda\toffa\tldb\toffb\tldc\toffc")
i = 0
for la in "rc":
    for lb in "rc":
        for lc in "rc":
            for _ in range(40):
                lda, ldb, ldc = rng.choice(ld_h), rng.choice(ld_h), rng.choice(ld_f)
                offa, offb, offc = rng.choice(off_h), rng.choice(off_h), rng.choice(off_f)
                # keep each tile inside its 16 KiB region
                assert 15 * lda + 16 + offa <= 8192 and 15 * ldb + 16 + offb <= 8192
                assert 15 * ldc + 16 + offc <= 4096
                print(f"{i}\t{la}\t{lb}\t{lc}\t{lda}\t{offa}\t{ldb}\t{offb}\t{ldc}\t{offc}")
                i += 1
