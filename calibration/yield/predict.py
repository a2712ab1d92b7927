#!/usr/bin/env python3
"""Predicted executions of the stores after the YIELD loops of yloops.cu (written before the H200
ran them), under two rules: "apart" (the lanes leaving a YIELD loop on different iterations never
rejoin before a WARPSYNC or EXIT, each group runs the code after the loop alone) and "join" (they
rejoin at the loop's BSYNC, as warpscope's PTX emulation assumes). Same data as yloops.cu's main."""
N, B = 16384, 128
s = 5
def rnd():
    global s
    s = (s * 1103515245 + 12345) & 0xffffffff
    return s >> 16
nxt, parent, mark, tgt = [0] * N, [0] * N, [0] * N, [0] * N
for v in range(N):
    r = rnd() % 9
    nxt[v] = -1 if (r == 0 or v < 3) else v - 1 - (r % 3)
    parent[v] = v if (rnd() % 7 == 0 or v == 0) else rnd() % v
    mark[v] = int(rnd() % 11 == 0)
    tgt[v] = rnd() % 6

def walk(u):
    c = 0
    while u >= 0:
        c += 1; u = nxt[u]
    return c

def per_warp(key):
    """Sum over warps of the number of distinct keys among the warp's lanes."""
    return sum(len({key(v) for v in range(w, w + 32)}) for w in range(0, N, 32))

W = N // 32
rows = []
trip = lambda v: walk(nxt[v])
rows.append(("yWalk out", per_warp(trip), W))
rows.append(("yBranch out+out2 stores", per_warp(trip), W))
rows.append(("ySyncwarp out2 (before __syncwarp)", per_warp(trip), W))
rows.append(("ySyncwarp out (after)", W, W))
rows.append(("ySyncthreads out2 (after WARPSYNC.ALL)", W, W))
rows.append(("yInIf out2 (in the if)", sum(len({trip(v) for v in range(w, w + 32) if v % 3}) for w in range(0, N, 32)), W))
rows.append(("yInIf out (after the if)", sum(len({trip(v) for v in range(w, w + 32) if v % 3}) + any(v % 3 == 0 for v in range(w, w + 32)) for w in range(0, N, 32)), W))
for k in (2, 4):
    rows.append((f"yOneSide k={k} out", sum(len({trip(v) for v in range(w, w + 32) if v % k == 0}) + 1 for w in range(0, N, 32)), W))
rows.append(("ySkip out", sum(len({trip(v) for v in range(w, w + 32) if v & 3 and nxt[v] >= 0}) + any((v & 3) == 0 or nxt[v] < 0 for v in range(w, w + 32)) for w in range(0, N, 32)), W))
nest = lambda v: tuple(walk(nxt[(v * 7 + j * 1237) & (N - 1)]) for j in range(3))
rows.append(("yNested out", per_warp(nest), W))
rows.append(("yTwo out2", per_warp(trip), W))
rows.append(("yTwo out", per_warp(lambda v: (trip(v), walk(nxt[(v * 5 + 11) & (N - 1)]))), W))
def brk(v):
    c, u = 0, nxt[v]
    while u >= 0:
        c += 1
        if mark[u]:
            return (c, 'mark')
        u = nxt[u]
    return (c, 'end')
rows.append(("yBreak out", per_warp(brk), W))
def self_trip(v):
    return max(tgt[v], 0)  # counts 0 -> tgt; lanes with tgt 0 skip the loop
rows.append(("ySelf out", sum(len({self_trip(v) for v in range(w, w + 32) if self_trip(v) > 0}) + any(self_trip(v) == 0 for v in range(w, w + 32)) for w in range(0, N, 32)), W))
def find(v):
    n = 0
    p = parent[v]
    while p != v:
        v = p; p = parent[v]; n += 1
    return n
rows.append(("yFind out (after the call)", sum(len({find(v) for v in range(w, w + 32) if find(v) > 0}) + any(find(v) == 0 for v in range(w, w + 32)) for w in range(0, N, 32)), W))
print(f"{'store':45} {'apart':>7} {'join':>7}")
for name, a, j in rows:
    print(f"{name:45} {a:>7} {j:>7}")
