#!/usr/bin/env python3
"""Candidate rules for 8- and 16-byte shared accesses on CC 7.0+ with predicated-off lanes, side by side.

Each rule is the phase model of crates/model/src/bank.rs (phases of 128 / width lanes, each phase costs
the most distinct 4-byte words any bank must deliver, the costs add) with a different condition for a
load's phases to double. `gen_patterns.py --pred` uses these predictions only to pick rows on which
the rules disagree; the measured tables decide. `python3 pred_rules.py TABLE...` prints, for each rule,
how many measured rows it gets wrong.
"""
import sys


def phase_cost(accesses, w):
    """Wavefronts of one phase: the most distinct 4-byte words one bank must deliver."""
    per_bank = {}
    for a in accesses:
        for word in range(a // 4, (a + w - 1) // 4 + 1):
            per_bank.setdefault(word % 32, set()).add(word)
    return max((len(s) for s in per_bank.values()), default=0)


def phased(addrs, w, lanes):
    total = 0
    for lane0 in range(0, 32, lanes):
        total += phase_cost([a for a in addrs[lane0:lane0 + lanes] if a is not None], w)
    return total


def agree(a, b, tolerant):
    """Two lanes are compatible: same address; with `tolerant`, also when either lane is off."""
    if tolerant and (a is None or b is None):
        return True
    return a == b


def pairs(addrs, tolerant, lanes=range(32)):
    return all(agree(addrs[l], addrs[l ^ 1], tolerant) for l in lanes)


def xor2(addrs, tolerant, lanes=range(32)):
    return all(agree(addrs[l], addrs[l ^ 2], tolerant) for l in lanes)


def merge_whole(pair_tol, xor_tol):
    def m(addrs, w):
        return pairs(addrs, pair_tol) or xor2(addrs, xor_tol)
    return m


def merge_per_quad(tol):
    """Each quad on its own may follow the pair or the xor-2 structure."""
    def m(addrs, w):
        for q in range(0, 32, 4):
            lanes = range(q, q + 4)
            if not (pairs(addrs, tol, lanes) or xor2(addrs, tol, lanes)):
                return False
        return True
    return m


def merge_quad_two_distinct(addrs, w):
    """Each quad's active lanes read at most two addresses."""
    for q in range(0, 32, 4):
        if len({a for a in addrs[q:q + 4] if a is not None}) > 2:
            return False
    return True


def merge_distinct(addrs, w):
    """Each merged phase's active lanes read at most (128 / width) distinct addresses."""
    lanes = 2 * (128 // w)
    for lane0 in range(0, 32, lanes):
        if len({a for a in addrs[lane0:lane0 + lanes] if a is not None}) > 128 // w:
            return False
    return True


def merge_few_active(addrs, w):
    """Pairs/xor-2 with inactive partners tolerated, or each merged phase has at most 128 / width
    active lanes."""
    if merge_whole(True, True)(addrs, w):
        return True
    lanes = 2 * (128 // w)
    return all(sum(a is not None for a in addrs[l0:l0 + lanes]) <= 128 // w for l0 in range(0, 32, lanes))


def wide(merge, per_phase=False, stores=False, compact=False):
    """A rule for 8/16-byte accesses: `merge(addrs, w)` says whether a load's phases double; with
    `per_phase`, each pair of phases (a 16-byte half-warp) decides on its own; with `compact`, the
    active lanes are packed in lane order before phases are formed."""
    def rule(addrs, w, op):
        base = 128 // w
        if compact:
            addrs = [a for a in addrs if a is not None]
            addrs = addrs + [None] * (32 - len(addrs))
        if op == "st" and not stores:
            return phased(addrs, w, base)
        if not per_phase:
            return phased(addrs, w, base * 2 if merge(addrs, w) else base)
        total = 0
        for lane0 in range(0, 32, 2 * base):
            win = [None] * 32
            win[lane0:lane0 + 2 * base] = addrs[lane0:lane0 + 2 * base]
            total += phased(win, w, base * 2 if merge(win, w) else base)
        return total
    return rule


def merge_with_xor(m_extra):
    """Pairs or xor-2 (tolerant), or every lane agrees with lane L ^ m_extra."""
    def m(addrs, w):
        return merge_whole(True, True)(addrs, w) or all(agree(addrs[l], addrs[l ^ m_extra], True) for l in range(32))
    return m


# The rules gen_patterns.py --pred chose its rows by (this list and its order fix the batch).
SELECTION_RULES = {
    "strict (pair and xor-2 need both lanes active)": wide(merge_whole(False, False)),
    "pair tolerant, xor-2 strict": wide(merge_whole(True, False)),
    "pair strict, xor-2 tolerant": wide(merge_whole(False, True)),
    "pair and xor-2 tolerant": wide(merge_whole(True, True)),
    "per quad, pair or xor-2, tolerant": wide(merge_per_quad(True)),
    "per quad, pair or xor-2, strict": wide(merge_per_quad(False)),
    "quads read at most 2 addresses": wide(merge_quad_two_distinct),
    "distinct addresses per merged phase <= 128/w": wide(merge_distinct),
    "tolerant, or few active lanes": wide(merge_few_active),
    "pair and xor-2 tolerant, per half-warp (16 B)": wide(merge_whole(True, True), per_phase=True),
    "pair and xor-2 strict, per half-warp (16 B)": wide(merge_whole(False, False), per_phase=True),
    "active lanes compacted, tolerant merge": wide(merge_whole(True, True), compact=True),
    "tolerant merge for stores too": wide(merge_whole(True, True), stores=True),
}

# Reported side by side: the selection rules and the alternatives the earlier batches rejected.
RULES = dict(SELECTION_RULES)
RULES.update({
    "pair tolerant only (no xor-2 condition)": wide(lambda a, w: pairs(a, True)),
    "xor-2 tolerant only (no pair condition)": wide(lambda a, w: xor2(a, True)),
    "tolerant, or xor-3 symmetry": wide(merge_with_xor(3)),
    "tolerant, or xor-4 symmetry": wide(merge_with_xor(4)),
    "tolerant, or xor-8 symmetry": wide(merge_with_xor(8)),
})


def narrow(addrs, w):
    return phase_cost([a for a in addrs if a is not None], w)


def predict(rule, addrs, w, op):
    if w < 8:
        return narrow(addrs, w)
    return rule(addrs, w, op)


def read_table(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("id\t"):
                continue
            c = line.rstrip("\n").split("\t")
            w, op = int(c[1]), c[2]
            measured = int(c[5] if op == "st" else c[4])
            # '-' and ghost cells 'gN' (an inactive lane whose register holds N) are inactive lanes
            addrs = [None if a == "-" or a.startswith("g") else int(a) for a in c[8:40]]
            op = "ld" if op == "ldg" else op
            rows.append((path, c[0], c[3], w, op, measured, addrs))
    return rows


def main():
    rows = [r for p in sys.argv[1:] for r in read_table(p)]
    print(f"{len(rows)} rows")
    for name, rule in RULES.items():
        bad = [r for r in rows if predict(rule, r[6], r[3], r[4]) != r[5]]
        per = {}
        for r in bad:
            per[r[0]] = per.get(r[0], 0) + 1
        print(f"{len(bad):5d} wrong  {name}  {per}")


if __name__ == "__main__":
    main()
