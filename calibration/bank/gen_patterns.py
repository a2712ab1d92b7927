#!/usr/bin/env python3
"""Writes patterns.tsv: the warp requests that the H100 calibration measures.

    gen_patterns.py                          > patterns.tsv
    gen_patterns.py --targeted               > patterns_merge.tsv
    gen_patterns.py --pred 1301 800 100 120  > patterns_pred.tsv          (pred_rules.py beside it)
    gen_patterns.py --heldout 4242 500 60 60 > patterns_pred_heldout.tsv

Deterministic (fixed seeds). One row per pattern: id, width (bytes), op (ld|st), a short description, then
32 lane byte offsets into shared memory ('-' = the lane does not access). Every offset is aligned to the
width and below SMEM_BYTES (the kernels' shared array).
"""
import random
import sys

SMEM_BYTES = 32768
WIDTHS = [1, 2, 4, 8, 16]
OPS = ["ld", "st"]


def patterns_for(w, rng):
    """Yields (description, addrs) for one width; the same list is used for loads and stores."""
    out = []
    # 1. strides 0..33 elements, with and without offsets
    for off in sorted({0, w, 4 * w, 64, 124 - (124 % w) if w <= 4 else 64 + w}):
        for s in range(34):
            out.append((f"stride{s}_off{off}", [off + lane * s * w for lane in range(32)]))
    # strides counted in 4-byte words for the narrow widths (char/short at 4*tid and friends)
    if w < 4:
        for s in [1, 2, 3, 4, 8, 16, 32, 33]:
            out.append((f"wordstride{s}", [lane * s * 4 for lane in range(32)]))
    # 2. broadcast and near-broadcast
    for a in [0, 4 * w, 1024 + 8 * w]:
        out.append((f"broadcast{a}", [a] * 32))
    out.append(("two_addrs_same_bank", [0 if lane % 2 == 0 else 128 for lane in range(32)]))
    out.append(("two_addrs_halves", [0 if lane < 16 else 128 for lane in range(32)]))
    out.append(("same_word_bytes", [((lane * w) % 4) for lane in range(32)] if w < 4 else [0] * 32))
    # 3. lanes sharing addresses: pairs, quads, octets; half-warp mirrors
    for g in [2, 4, 8, 16]:
        for s in [1, 2, 32 // w if w < 32 else 1]:
            out.append((f"group{g}_stride{s}", [(lane // g) * s * w for lane in range(32)]))
    for s in [1, 2, 3, 16]:
        out.append((f"mod16_stride{s}", [(lane % 16) * s * w for lane in range(32)]))
        out.append((f"mod8_stride{s}", [(lane % 8) * s * w for lane in range(32)]))
    for k in [128, 256, 512, 64, 8, 4096]:
        if k % w == 0:
            out.append((f"half_rows_k{k}", [(lane % 16) * w + (lane // 16) * k for lane in range(32)]))
            out.append((f"quarter_rows_k{k}", [(lane % 8) * w + (lane // 8) * k for lane in range(32)]))
            out.append((f"pair_lanes_k{k}", [(lane // 2) * w + (lane % 2) * k for lane in range(32)]))
    out.append(("mirror", [min(lane, 31 - lane) * w for lane in range(32)]))
    perm16 = list(range(16))
    rng.shuffle(perm16)
    out.append(("mod16_upper_permuted", [(lane if lane < 16 else perm16[lane - 16]) * w for lane in range(32)]))
    out.append(("mod16_upper_shift1", [(lane if lane < 16 else (lane + 1) % 16) * w for lane in range(32)]))
    # 4. predicated-off lanes: halves, odd/even, quarters, single lanes
    subsets = {
        "lo16": lambda l: l < 16, "hi16": lambda l: l >= 16, "even": lambda l: l % 2 == 0,
        "odd": lambda l: l % 2 == 1, "q0": lambda l: l < 8, "q1q3": lambda l: 8 <= l < 16 or l >= 24,
        "lane0": lambda l: l == 0, "lane31": lambda l: l == 31, "every4": lambda l: l % 4 == 0,
        "none": lambda l: False,
    }
    for name, keep in subsets.items():
        for s in [1, 2, 4, 16, 32]:
            out.append((f"{name}_stride{s}", [lane * s * w if keep(lane) else None for lane in range(32)]))
    for i in range(12):
        mask = rng.getrandbits(32)
        s = rng.choice([1, 2, 3, 4, 8, 16, 32, 33])
        out.append((f"randmask{i}_stride{s}", [lane * s * w if (mask >> lane) & 1 else None for lane in range(32)]))
    # 5. permutations and swizzles
    for i in range(8):
        perm = list(range(32))
        rng.shuffle(perm)
        out.append((f"perm{i}", [p * w for p in perm]))
    for x in [1, 3, 16, 17, 31]:
        out.append((f"xor{x}", [(lane ^ x) * w for lane in range(32)]))
    for i in range(6):
        perm = list(range(32))
        rng.shuffle(perm)
        out.append((f"perm_words{i}", [p * max(w, 4) * 2 for p in perm]))
    # 6. random addresses with duplicates (small pools) and wide random
    for i in range(24):
        pool_n = rng.choice([1, 2, 3, 4, 6, 8, 12, 16, 24, 32])
        span = rng.choice([128, 256, 512, 1024, 4096])
        pool = [rng.randrange(0, span // w) * w for _ in range(pool_n)]
        addrs = [rng.choice(pool) for _ in range(32)]
        if i % 3 == 2:
            addrs = [a if rng.random() < 0.75 else None for a in addrs]
        out.append((f"randpool{i}_n{pool_n}_span{span}", addrs))
    for i in range(10):
        out.append((f"randwide{i}", [rng.randrange(0, SMEM_BYTES // w) * w for _ in range(32)]))
    return out


def targeted(w, rng):
    """Second batch: which lane structures let the 8- and 16-byte load phases merge."""
    out = []
    n = 4096 // w

    def rnd():
        return rng.randrange(0, n) * w

    for i in range(6):
        # period 2 over the warp (addrs[L] == addrs[L ^ 2]): pairs of random addresses, same-bank pairs
        a, b = rnd(), rnd()
        out.append((f"t_period2_rand{i}", [a if lane % 2 == 0 else b for lane in range(32)]))
        a = rng.randrange(0, 32) * w
        out.append((f"t_period2_samebank{i}", [a if lane % 2 == 0 else a + 128 * (1 + i) for lane in range(32)]))
        # period 4: four addresses cycling, and pairs-of-pairs
        q = [rnd() for _ in range(4)]
        out.append((f"t_period4_rand{i}", [q[lane % 4] for lane in range(32)]))
        # xor symmetries alone: addrs[L] == addrs[L ^ m]
        for m in [2, 3, 4, 8]:
            base = [rnd() for _ in range(32)]
            out.append((f"t_xor{m}_sym{i}", [base[min(lane, lane ^ m)] for lane in range(32)]))
        # uniform pairs with random (conflicting) addresses
        pr = [rnd() for _ in range(16)]
        out.append((f"t_pairs_rand{i}", [pr[lane // 2] for lane in range(32)]))
        # uniform pairs except one pair
        pr2 = [(k * w * 2) % 4096 for k in range(16)]
        addrs = [pr2[lane // 2] for lane in range(32)]
        j = rng.randrange(0, 16)
        addrs[2 * j + 1] = rnd()
        out.append((f"t_pairs_but_one{i}", addrs))
        # uniform pairs in the lower half only
        addrs = [(lane // 2) * w if lane < 16 else lane * w for lane in range(32)]
        out.append((f"t_pairs_lo_only{i}", [a + 256 * i for a in addrs]))
        # uniform pairs in quarters 0-1 only (16-byte phases), distinct elsewhere
        addrs = [(lane // 2) * w * (i + 1) if lane < 8 else lane * w for lane in range(32)]
        out.append((f"t_pairs_q0_only{i}", addrs))
        # uniform pairs with some pairs wholly inactive
        mask = rng.getrandbits(16)
        out.append((f"t_pairs_holes{i}", [pr[lane // 2] if (mask >> (lane // 2)) & 1 else None for lane in range(32)]))
        # uniform pairs where one lane of a pair is inactive
        addrs = [(lane // 2) * w * 2 for lane in range(32)]
        addrs[2 * rng.randrange(0, 16) + 1] = None
        out.append((f"t_pairs_one_off{i}", addrs))
        # a broadcast in the even lanes, distinct odd lanes
        a = rnd()
        out.append((f"t_even_bcast_odd_seq{i}", [a if lane % 2 == 0 else (lane * w + 128 * i) % 4096 for lane in range(32)]))
        # two addresses, adjacent lanes differ, no bank conflict
        a = rng.randrange(0, 8) * 16
        out.append((f"t_period2_nobank{i}", [a if lane % 2 == 0 else a + 64 for lane in range(32)]))
        # quads uniform (L == L^1 == L^2), random addresses
        qd = [rnd() for _ in range(8)]
        out.append((f"t_quads_rand{i}", [qd[lane // 4] for lane in range(32)]))
        # pairs uniform but pairs L and L+16 swapped order (pairs from a permutation)
        perm = list(range(16))
        rng.shuffle(perm)
        out.append((f"t_pairs_perm{i}", [perm[lane // 2] * w for lane in range(32)]))
        # three distinct addresses
        t = [rnd() for _ in range(3)]
        out.append((f"t_three{i}", [t[lane % 3] for lane in range(32)]))
    return out


def pred_candidates(w, rng, extra=False):
    """Third batch (`--pred`): 8- and 16-byte requests with predicated-off lanes, many per family;
    main_pred keeps the ones on which the candidate rules of pred_rules.py disagree, and controls."""
    n = 4096 // w
    out = []

    def el(i):
        return (i % n) * w

    masks = {
        "full": lambda: 0xFFFFFFFF,
        "even": lambda: 0x55555555,
        "odd": lambda: 0xAAAAAAAA,
    }

    def one_per_pair():
        m = 0
        for k in range(16):
            m |= 1 << (2 * k + rng.randrange(2))
        return m

    def some_pairs_one_off():
        m = 0xFFFFFFFF
        for k in rng.sample(range(16), rng.randint(1, 15)):
            m &= ~(1 << (2 * k + rng.randrange(2)))
        return m

    def holes_and_one_off():
        m = 0
        for k in range(16):
            r = rng.random()
            if r < 0.3:
                continue
            m |= (3 if r < 0.65 else 1 << rng.randrange(2)) << (2 * k)
        return m

    def first_k():
        return (1 << rng.randint(1, 31)) - 1

    def last_k():
        return (0xFFFFFFFF << rng.randint(1, 31)) & 0xFFFFFFFF

    def random_mask():
        p = rng.choice([0.3, 0.5, 0.75, 0.9])
        return sum(1 << l for l in range(32) if rng.random() < p)

    def xor2_one_off():
        # lane L on, lane L ^ 2 off, in some or all quads
        m = 0xFFFFFFFF
        for q in range(8):
            if rng.random() < 0.7:
                m &= ~(1 << (4 * q + rng.choice([0, 1, 2, 3])))
        return m

    def one_per_quad():
        return sum(1 << (4 * q + rng.randrange(4)) for q in range(8))

    def bits_of_lane(b, v):
        return sum(1 << l for l in range(32) if (l >> b) & 1 == v)

    masks.update({
        "onepair": one_per_pair, "somepairsoneoff": some_pairs_one_off, "holes": holes_and_one_off,
        "firstk": first_k, "lastk": last_k, "rand": random_mask, "xor2off": xor2_one_off,
        "onequad": one_per_quad,
        "bit1lo": lambda: bits_of_lane(1, 0), "bit1hi": lambda: bits_of_lane(1, 1),
        "evenlo": lambda: 0x00005555, "oddhi": lambda: 0xAAAA0000,
        "q3of4": lambda: sum(1 << l for l in range(32) if l % 4 != 3),
    })

    def structures():
        s = rng.choice([1, 1, 1, 2, 3, 4, 5, 8, 9, 16, 17, 32 // (w // 4), 33])
        off = rng.randrange(0, 64) * w
        yield f"seq_s{s}", [off + el(l * s) for l in range(32)]
        yield f"pairs_s{s}", [off + el((l // 2) * s) for l in range(32)]
        yield f"xor2_s{s}", [off + el(((l >> 2) << 1 | (l & 1)) * s) for l in range(32)]
        yield f"quads_s{s}", [off + el((l // 4) * s) for l in range(32)]
        yield f"mod16_s{s}", [off + el((l % 16) * s) for l in range(32)]
        yield f"mod8_s{s}", [off + el((l % 8) * s) for l in range(32)]
        yield f"xor1_s{s}", [off + el((l ^ 1) * s) for l in range(32)]
        yield f"xor3pairs_s{s}", [off + el(((l >> 2) << 1 | ((l ^ (l >> 1)) & 1)) * s) for l in range(32)]
        perm = list(range(16))
        rng.shuffle(perm)
        yield "pairsperm", [off + el(perm[l // 2]) for l in range(32)]
        pool = [rng.randrange(0, rng.choice([16, 32, 64, 256])) for _ in range(16)]
        yield "pairsrand", [off + el(pool[l // 2]) for l in range(32)]
        yield "xor2rand", [off + el(pool[(l >> 2) << 1 | (l & 1)]) for l in range(32)]
        # each quad follows the pair or the xor-2 structure, chosen per quad
        kinds = [rng.randrange(2) for _ in range(8)]
        yield "quadmix" + "".join(map(str, kinds)), [
            off + el((2 * (l // 4) + ((l >> 1) & 1 if kinds[l // 4] == 0 else l & 1)) * s) for l in range(32)]
        pool2 = [rng.randrange(0, rng.choice([8, 32, 128])) for _ in range(32)]
        yield "randpool", [off + el(rng.choice(pool2[:rng.choice([2, 4, 8, 16, 32])])) for _ in range(32)]
        yield "randwide", [el(rng.randrange(n)) for _ in range(32)]
        if extra:
            # held-out families, not in the first batch
            for x in [4, 8, 16]:
                yield f"xor{x}sym_s{s}", [off + el(min(l, l ^ x) * s) for l in range(32)]
            yield f"xor4compact_s{s}", [off + el(((l >> 3) << 2 | (l & 3)) * s) for l in range(32)]
            yield f"xor8compact_s{s}", [off + el(((l >> 4) << 3 | (l & 7)) * s) for l in range(32)]
            yield f"triples_s{s}", [off + el((l // 3) * s) for l in range(32)]
            yield f"split_s{s}", [off + el((l // 2 + 16 * (l & 1)) * s) for l in range(32)]
            yield f"octets_s{s}", [off + el((l // 8) * s) for l in range(32)]
            pr = [rng.randrange(0, 64) for _ in range(16)]
            j = rng.randrange(32)
            addrs = [off + el(pr[l // 2]) for l in range(32)]
            addrs[j] = off + el(rng.randrange(0, 64))
            yield "pairsbutone", addrs
            q = [rng.randrange(0, 32) for _ in range(8)]
            yield "xor2quads", [off + el(q[l // 4] * 2 + (l & 1)) for l in range(32)]

    for _ in range(40):
        extra_masks = {}
        if extra:
            extra_masks = {
                "pairhalf": lambda: sum(1 << l for l in range(32) if (l < 16) == (l % 2 == 0)),
                "oneperoctet": lambda: sum(1 << (8 * o + rng.randrange(8)) for o in range(4)),
                "dropone": lambda: 0xFFFFFFFF & ~(1 << rng.randrange(32)),
                "droptwo": lambda: 0xFFFFFFFF & ~(1 << rng.randrange(32)) & ~(1 << rng.randrange(32)),
            }
        for sname, addrs in structures():
            for mname, mk in list(masks.items()) + list(extra_masks.items()):
                m = mk()
                out.append((f"p_{sname}_{mname}_{m:08x}", [a if (m >> l) & 1 else None for l, a in enumerate(addrs)]))
        # addresses that depend on the mask: the j-th active lane reads element j * s (a compacted
        # layout: "lane 2k reads element k" for the even lanes)
        for mname, mk in masks.items():
            m = mk()
            s = rng.choice([1, 1, 2, 3, 8, 16, 17])
            off = rng.randrange(0, 64) * w
            addrs, j = [], 0
            for l in range(32):
                if (m >> l) & 1:
                    addrs.append(off + el(j * s))
                    j += 1
                else:
                    addrs.append(None)
            out.append((f"p_compact_s{s}_{mname}_{m:08x}", addrs))
            # lane l reads element l // 2 * s (what lane 2k and 2k + 1 both would read)
            addrs = [off + el((l // 2) * s) if (m >> l) & 1 else None for l in range(32)]
            out.append((f"p_half_s{s}_{mname}_{m:08x}", addrs))
    return out


def ghost_rows(w, rng, n_patterns, extra=False):
    """Loads through the ghost kernels (op ldg): the same active lanes with three choices of what the
    inactive lanes' address registers hold: the partner's address (lane ^ 1, else lane ^ 2, else
    random), an address in a conflicting bank, and a misaligned one. Cells `gN`."""
    out = []
    cands = [c for c in pred_candidates(w, rng, extra) if any(a is None for a in c[1]) and any(a is not None for a in c[1])]
    rng.shuffle(cands)
    n = 4096 // w
    for desc, addrs in cands[:n_patterns]:
        def partner(l):
            for x in (l ^ 1, l ^ 2, l ^ 3):
                if addrs[x] is not None:
                    return addrs[x]
            return rng.randrange(n) * w
        variants = {
            "same": [a if a is not None else f"g{partner(l)}" for l, a in enumerate(addrs)],
            "conflict": [a if a is not None else f"g{(partner(l) + 128 * rng.randint(1, 8)) % 4096}" for l, a in enumerate(addrs)],
            "misaligned": [a if a is not None else f"g{partner(l) + 4}" for l, a in enumerate(addrs)],
        }
        for v, cells in variants.items():
            out.append((f"g{v}_{desc}", cells))
    return out


def main_pred(seed, loads_per_width, stores_per_width, ghosts_per_width, extra=False):
    """Rows that decide the merge condition under predication: candidates on which at least two rules
    of pred_rules.py disagree, spread over the rule pairs and families, plus agreeing controls."""
    import pred_rules
    rng = random.Random(seed)
    # the held-out batch picks by every rule pred_rules.py reports, the first batch by its first list
    selection = pred_rules.RULES if extra else pred_rules.SELECTION_RULES
    rules = list(selection.values())
    rows = []
    for w in [8, 16]:
        cands = pred_candidates(w, rng, extra)
        rng.shuffle(cands)
        seen = set()
        for op, quota in [("ld", loads_per_width), ("st", stores_per_width)]:
            cover = {}
            fam = {}
            picked = []
            controls = []
            for desc, addrs in cands:
                key = (op, tuple(addrs))
                if key in seen or all(a is None for a in addrs):
                    continue
                preds = [pred_rules.predict(r, addrs, w, op) for r in rules]
                pairs_ = [(i, j) for i in range(len(rules)) for j in range(i + 1, len(rules)) if preds[i] != preds[j]]
                family = desc.split("_")[1] + "_" + desc.split("_")[-2]
                useful = [p for p in pairs_ if cover.get(p, 0) < 150]
                if useful and fam.get(family, 0) < 30:
                    seen.add(key)
                    picked.append((desc, addrs))
                    fam[family] = fam.get(family, 0) + 1
                    for p in pairs_:
                        cover[p] = cover.get(p, 0) + 1
                elif not pairs_ and len(controls) < quota // 8:
                    seen.add(key)
                    controls.append((desc, addrs))
                if len(picked) + len(controls) >= quota:
                    break
            for desc, addrs in picked + controls:
                for a in addrs:
                    assert a is None or (a % w == 0 and 0 <= a < SMEM_BYTES), (desc, a)
                rows.append((w, op, desc, addrs))
            if op == "ld":
                for desc, cells in ghost_rows(w, rng, ghosts_per_width // 3, extra):
                    rows.append((w, "ldg", desc, cells))
            names = list(selection)
            thin = sorted((cover.get((i, j), 0), names[i], names[j]) for i in range(len(rules)) for j in range(i + 1, len(rules)))
            print(f"w{w} {op}: {len(picked)} deciding, {len(controls)} controls; least covered rule pairs: {thin[:4]}", file=sys.stderr)
    return rows


def main_targeted():
    rng = random.Random(7)
    rows = []
    for w in [8, 16]:
        pats = targeted(w, rng)
        for op in OPS:
            for desc, addrs in pats:
                for a in addrs:
                    assert a is None or (a % w == 0 and 0 <= a < SMEM_BYTES), (desc, a)
                rows.append((w, op, desc, addrs))
    return rows


def main():
    rng = random.Random(20260514)
    rows = []
    for w in WIDTHS:
        pats = patterns_for(w, rng)
        for op in OPS:
            for desc, addrs in pats:
                assert len(addrs) == 32
                for a in addrs:
                    assert a is None or (a % w == 0 and 0 <= a < SMEM_BYTES), (desc, a)
                rows.append((w, op, desc, addrs))
    if len(sys.argv) > 1 and sys.argv[1] == "--targeted":
        rows = main_targeted()
    if len(sys.argv) > 1 and sys.argv[1] == "--pred":
        # --pred SEED LOADS STORES GHOSTS (per width): the predicated-lane batch
        rows = main_pred(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    if len(sys.argv) > 1 and sys.argv[1] == "--heldout":
        # --heldout SEED LOADS STORES GHOSTS: a fresh batch with more families, to confirm the rule
        rows = main_pred(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), extra=True)
    out = sys.stdout
    out.write("id\twidth\top\tdesc\t" + "\t".join(f"a{i}" for i in range(32)) + "\n")
    for i, (w, op, desc, addrs) in enumerate(rows):
        cells = ["-" if a is None else str(a) for a in addrs]  # str: a ghost cell gN as it is
        out.write(f"{i}\t{w}\t{op}\t{desc}\t" + "\t".join(cells) + "\n")


if __name__ == "__main__":
    main()
