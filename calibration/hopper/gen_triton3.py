"""Compiles this folder's third set of own Triton kernels for sm_90a without a GPU.

    python gen_triton3.py OUTDIR [NAME...]  (PyPI `triton` 3.9; writes NAME.ptx, NAME.cubin, launches.tsv)

The first two sets (gen_triton.py, gen_triton2.py) lack what this one has: a persistent matmul
whose epilogue (bias, leaky ReLU) stores through a host tensor descriptor (TMA store), the same
loop flattened and warp-specialised, an int8 matmul with per-row and per-column scales and masked
rows, a batched bf16 matmul through strides (B read transposed) with 64-byte swizzled tiles, an
fp16 matmul with 16-element K steps (32-byte swizzle), an fp8 e5m2 matmul whose output is e5m2,
attention backward (dK, dV and dQ in one kernel), RMSNorm forward and backward, rotary embedding
through `tl.split`/`tl.join`, `tl.argmax`/`argmin`/`topk` and a tuple `tl.reduce`, segmented and
reversed `tl.associative_scan` and `tl.cumprod`, device tensor descriptors that load and store
partial tiles (out-of-bounds fill and clipping), and an embedding gather with `tl.gather`,
`.cg` loads and `tl.atomic_max`.

launches.tsv has gen_triton2.py's columns; host/hopper_run2.cu runs it on the GPU and
crates/cudart/tests/hopper_triton3.rs replays it.
"""
import os
import re
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_triton2 import desc_params, dsig  # noqa: E402


@triton.jit
def mm_persist_store(ad, bd, cd, bias, M, N, K, NPROG: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                     BK: tl.constexpr, WS: tl.constexpr):
    # persistent tiles, K loop nested; bias + leaky ReLU; C stored through a host descriptor (TMA)
    npn = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * npn
    ksteps = tl.cdiv(K, BK)
    for t in tl.range(tl.program_id(0), tiles, NPROG, flatten=WS, warp_specialize=WS):
        pm = t // npn
        pn = t % npn
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(ksteps):
            acc = tl.dot(ad.load([pm * BM, k * BK]), bd.load([pn * BN, k * BK]).T, acc)
        x = acc * 0.125 + tl.load(bias + pn * BN + tl.arange(0, BN))[None, :]
        y = tl.where(x >= 0, x, 0.0625 * x)
        cd.store([pm * BM, pn * BN], y.to(tl.float16))


@triton.jit
def mm_i8_scaled(a, b, sr, sc, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # int8 A [M, K] and B [K, N] (row-major: N-major), int32 dot, per-row and per-column f32
    # scales, fp16 C; rows past M masked (other=0)
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        ta = tl.load(a + rm[:, None] * K + (k + rk)[None, :], mask=rm[:, None] < M, other=0)
        tb = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(ta, tb, acc)
    s = tl.load(sr + rm, mask=rm < M, other=0.0)[:, None] * tl.load(sc + rn)[None, :]
    tl.store(c + rm[:, None] * N + rn[None, :], (acc.to(tl.float32) * s).to(tl.float16), mask=rm[:, None] < M)


@triton.jit
def bmm_strided(a, b, c, M, N, K, sab, sam, sak, sbb, sbn, sbk, scb, scm,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # batched bf16: A [batch, M, K], B [batch, N, K] read as [K, N] through its strides, 3-D grid
    # (m tile, n tile, batch), leaky ReLU, f32 C
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    pb = tl.program_id(2)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    pa = a + pb * sab + rm[:, None] * sam + rk[None, :] * sak
    pbp = b + pb * sbb + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(tl.load(pa), tl.load(pbp), acc)
        pa += BK * sak
        pbp += BK * sbk
    acc = tl.where(acc > 0, acc, acc * 0.125)
    tl.store(c + pb * scb + rm[:, None] * scm + rn[None, :], acc)


@triton.jit
def mm_small_k(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # fp16 A [M, K], B [N, K]; 16-element K steps (32-byte rows: 32-byte swizzle), fp16 C
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ta = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        tb = tl.load(b + rn[None, :] * K + (k + rk)[:, None])
        acc = tl.dot(ta, tb, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def mm_e5m2_out(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # fp8 e5m2 A [M, K], B [N, K] through pointers; the f32 accumulator scaled and stored as e5m2
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ta = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        tb = tl.load(b + rn[None, :] * K + (k + rk)[:, None])
        acc = tl.dot(ta, tb, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], (acc * 0.25).to(tl.float8e5))


@triton.jit
def attn_bwd(q, k, v, do, lse, delta, dq, dk, dv, scale, S, stride_h,
             BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # attention backward (no mask): a program takes BN keys (dK, dV over every query block) and
    # then BN queries (dQ over every key block); lse (log2 units) and delta are inputs
    start = tl.program_id(0) * BN
    h = tl.program_id(1) * stride_h
    rd = tl.arange(0, D)
    rn = start + tl.arange(0, BN)
    kt = tl.load(k + h + rn[:, None] * D + rd[None, :])
    vt = tl.load(v + h + rn[:, None] * D + rd[None, :])
    dkk = tl.zeros([BN, D], tl.float32)
    dvv = tl.zeros([BN, D], tl.float32)
    l2 = scale * 1.44269504
    for m0 in range(0, S, BM):
        rm = m0 + tl.arange(0, BM)
        qT = tl.load(q + h + rm[None, :] * D + rd[:, None])
        m = tl.load(lse + tl.program_id(1) * S + rm)
        pT = tl.math.exp2(tl.dot(kt, qT) * l2 - m[None, :])
        dot_ = tl.load(do + h + rm[:, None] * D + rd[None, :])
        dvv += tl.dot(pT.to(tl.float16), dot_)
        Di = tl.load(delta + tl.program_id(1) * S + rm)
        dpT = tl.dot(vt, tl.trans(dot_))
        dsT = pT * (dpT - Di[None, :])
        dkk += tl.dot(dsT.to(tl.float16), tl.trans(qT))
    tl.store(dk + h + rn[:, None] * D + rd[None, :], (dkk * scale).to(tl.float16))
    tl.store(dv + h + rn[:, None] * D + rd[None, :], dvv.to(tl.float16))
    qb = tl.load(q + h + rn[:, None] * D + rd[None, :])
    dob = tl.load(do + h + rn[:, None] * D + rd[None, :])
    mb = tl.load(lse + tl.program_id(1) * S + rn)
    Db = tl.load(delta + tl.program_id(1) * S + rn)
    dqq = tl.zeros([BN, D], tl.float32)
    for n0 in range(0, S, BM):
        rk = n0 + tl.arange(0, BM)
        kT = tl.load(k + h + rk[None, :] * D + rd[:, None])
        vT = tl.load(v + h + rk[None, :] * D + rd[:, None])
        p = tl.math.exp2(tl.dot(qb, kT) * l2 - mb[:, None])
        ds = p * (tl.dot(dob, vT) - Db[:, None])
        dqq += tl.dot(ds.to(tl.float16), tl.trans(kT))
    tl.store(dq + h + rn[:, None] * D + rd[None, :], (dqq * scale).to(tl.float16))


@triton.jit
def rms_fwd(x, w, y, rstd, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    xv = tl.load(x + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    r = 1.0 / tl.sqrt(tl.sum(xv * xv, axis=0) / N + eps)
    tl.store(rstd + row, r)
    wv = tl.load(w + cols, mask=m, other=0.0).to(tl.float32)
    tl.store(y + row * stride + cols, (xv * r * wv).to(tl.float16), mask=m)


@triton.jit
def rms_bwd(x, w, dy, rstd, dx, pdw, stride, N, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    # dx per row; each program sums dy * x * rstd over its ROWS rows into its own dw row
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    wv = tl.load(w + cols, mask=m, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], tl.float32)
    for i in tl.range(0, ROWS, num_stages=2):
        row = pid * ROWS + i
        xv = tl.load(x + row * stride + cols, mask=m, other=0.0).to(tl.float32)
        g = tl.load(dy + row * stride + cols, mask=m, other=0.0).to(tl.float32)
        r = tl.load(rstd + row)
        xh = xv * r
        wg = wv * g
        c = tl.sum(xh * wg, axis=0) / N
        tl.store(dx + row * stride + cols, ((wg - xh * c) * r).to(tl.float16), mask=m)
        dw += g * xh
    tl.store(pdw + pid * N + cols, dw, mask=m)


@triton.jit
def rotary(x, cs, sn, o, S, H: tl.constexpr, D: tl.constexpr, BS: tl.constexpr):
    # x [S, H, D] fp16, interleaved pairs rotated by cos/sin [S, D/2] (f32): tl.split / tl.join
    rs = tl.program_id(0) * BS + tl.arange(0, BS)
    hh = tl.program_id(1)
    rd = tl.arange(0, D)
    ms = rs[:, None] < S
    xv = tl.load(x + rs[:, None] * (H * D) + hh * D + rd[None, :], mask=ms, other=0.0).to(tl.float32)
    xe, xo = tl.split(tl.reshape(xv, [BS, D // 2, 2]))
    rh = tl.arange(0, D // 2)
    c = tl.load(cs + rs[:, None] * (D // 2) + rh[None, :], mask=ms, other=1.0)
    s = tl.load(sn + rs[:, None] * (D // 2) + rh[None, :], mask=ms, other=0.0)
    out = tl.reshape(tl.join(xe * c - xo * s, xe * s + xo * c), [BS, D])
    tl.store(o + rs[:, None] * (H * D) + hh * D + rd[None, :], out.to(tl.float16), mask=ms)


@triton.jit
def _arg_combine(v1, i1, v2, i2):
    # larger value; the smaller index on a tie
    pick = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(pick, v1, v2), tl.where(pick, i1, i2)


@triton.jit
def topk_arg(x, amax, amin, topv, ridx, rval, N, BLOCK: tl.constexpr, TOPK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    v = tl.load(x + row * N + cols, mask=m, other=float("-inf"))
    w = tl.load(x + row * N + cols, mask=m, other=float("inf"))
    tl.store(amax + row, tl.argmax(v, axis=0))
    tl.store(amin + row, tl.argmin(w, axis=0, tie_break_left=False))
    tl.store(topv + row * TOPK + tl.arange(0, TOPK), tl.topk(v, TOPK))
    bv, bi = tl.reduce((tl.abs(w), cols), 0, _arg_combine)
    tl.store(ridx + row, bi)
    tl.store(rval + row, bv)


@triton.jit
def _seg_add(v1, f1, v2, f2):
    # segmented sum: a flag starts a segment
    return tl.where(f2 != 0, v2, v1 + v2), f1 | f2


@triton.jit
def seg_scans(x, flags, segsum, revsum, cprod, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    v = tl.load(x + row * N + cols, mask=m, other=0.0)
    f = tl.load(flags + row * N + cols, mask=m, other=1)
    s, _ = tl.associative_scan((v, f), 0, _seg_add)
    tl.store(segsum + row * N + cols, s, mask=m)
    tl.store(revsum + row * N + cols, tl.cumsum(v, 0, reverse=True), mask=m)
    p = tl.where(m, 1.0 + v * 0.0078125, 1.0)
    tl.store(cprod + row * N + cols, tl.cumprod(p, 0), mask=m)


@triton.jit
def desc_dev_transpose(x, o, R, C, BR: tl.constexpr, BC: tl.constexpr):
    # device descriptors: a [BR, BC] tile of x [R, C] (out-of-bounds parts zero-filled), 2 t + 1
    # transposed and stored into o [C, R] (the parts past its edges clipped)
    xd = tl.make_tensor_descriptor(x, shape=[R, C], strides=[C, 1], block_shape=[BR, BC])
    od = tl.make_tensor_descriptor(o, shape=[C, R], strides=[R, 1], block_shape=[BC, BR])
    pr = tl.program_id(0)
    pc = tl.program_id(1)
    t = xd.load([pr * BR, pc * BC])
    od.store([pc * BC, pr * BR], tl.trans(t * 2.0 + 1.0))


@triton.jit
def gather_embed(ids, table, o, omax, perm, V, D: tl.constexpr, BT: tl.constexpr):
    # rows of table [V, D] by int32 ids (ids past V read as zeros: other=0), loaded .cg; each
    # row's elements permuted in registers by tl.gather; the largest id in range by atomic_max
    rt = tl.program_id(0) * BT + tl.arange(0, BT)
    idx = tl.load(ids + rt)
    ok = idx < V
    rd = tl.arange(0, D)
    e = tl.load(table + idx[:, None] * D + rd[None, :], mask=ok[:, None], other=0.0, cache_modifier=".cg")
    pi = tl.load(perm + rd)
    g = tl.gather(e, tl.broadcast_to(pi[None, :], [BT, D]), 1)
    tl.store(o + rt[:, None] * D + rd[None, :], g)
    tl.atomic_max(omax, tl.max(tl.where(ok, idx, -1), 0))


KERNELS = []


def add(name, fn, sig, consts, warps, stages, div16, grid, bufs, params):
    KERNELS.append((name, fn, sig, consts, warps, stages, div16, grid, bufs, params))


# persistent matmul: M = 256, N = 128, K = 256, 64x64x64 tiles: 8 tiles over 3 programs
for name, ws, warps in [("mm_persist_store", False, 4), ("mm_persist_ws", True, 4)]:
    add(name, mm_persist_store,
        dict(dsig(["ad", "bd"], "fp16", [64, 64]), **dsig(["cd"], "fp16", [64, 64]), bias="*fp32", M="i32",
             N="i32", K="i32"),
        {"NPROG": 3, "BM": 64, "BN": 64, "BK": 64, "WS": ws}, warps, 3, [], (3, 1, 1),
        ["f16:51:%d" % (256 * 256), "f16:52:%d" % (128 * 256), "out:%d" % (256 * 128 * 2), "f32:53:128"],
        desc_params(0, "f16", 256, 256, 64, 64) + desc_params(1, "f16", 256, 128, 64, 64)
        + desc_params(2, "f16", 128, 256, 64, 64) + ["p:3", "i32:256", "i32:128", "i32:256"])
add("mm_i8_scaled", mm_i8_scaled,
    {"a": "*i8", "b": "*i8", "sr": "*fp32", "sc": "*fp32", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32"},
    {"BM": 64, "BN": 64, "BK": 64}, 4, 3, ["N", "K"], (2, 2, 1),
    ["i8:54:%d" % (100 * 128), "i8:55:%d" % (128 * 128), "f32:56:100", "f32:57:128", "out:%d" % (100 * 128 * 2)],
    ["p:0", "p:1", "p:2", "p:3", "p:4", "i32:100", "i32:128", "i32:128"])
# batch 2, M = 128, N = 64, K = 96; B stored [batch, N, K]
add("bmm_strided", bmm_strided,
    {"a": "*bf16", "b": "*bf16", "c": "*fp32", "M": "i32", "N": "i32", "K": "i32", "sab": "i32", "sam": "i32",
     "sak": "i32", "sbb": "i32", "sbn": "i32", "sbk": "i32", "scb": "i32", "scm": "i32"},
    {"BM": 64, "BN": 32, "BK": 32}, 4, 2, ["sab", "sam", "sbb", "sbn", "scb", "scm"], (2, 2, 2),
    ["bf16:58:%d" % (2 * 128 * 96), "bf16:59:%d" % (2 * 64 * 96), "out:%d" % (2 * 128 * 64 * 4)],
    ["p:0", "p:1", "p:2", "i32:128", "i32:64", "i32:96", "i32:%d" % (128 * 96), "i32:96", "i32:1",
     "i32:%d" % (64 * 96), "i32:96", "i32:1", "i32:%d" % (128 * 64), "i32:64"])
add("mm_small_k", mm_small_k, {"a": "*fp16", "b": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32"},
    {"BM": 64, "BN": 128, "BK": 16}, 4, 4, ["M", "N", "K"], (2, 1, 1),
    ["f16:60:%d" % (128 * 96), "f16:61:%d" % (128 * 96), "out:%d" % (128 * 128 * 2)],
    ["p:0", "p:1", "p:2", "i32:128", "i32:128", "i32:96"])
add("mm_e5m2_out", mm_e5m2_out, {"a": "*fp8e5", "b": "*fp8e5", "c": "*fp8e5", "M": "i32", "N": "i32", "K": "i32"},
    {"BM": 64, "BN": 64, "BK": 64}, 4, 3, ["M", "N", "K"], (2, 2, 1),
    ["e5m2:62:%d" % (128 * 192), "e5m2:63:%d" % (128 * 192), "out:%d" % (128 * 128)],
    ["p:0", "p:1", "p:2", "i32:128", "i32:128", "i32:192"])
add("attn_bwd", attn_bwd,
    {"q": "*fp16", "k": "*fp16", "v": "*fp16", "do": "*fp16", "lse": "*fp32", "delta": "*fp32", "dq": "*fp16",
     "dk": "*fp16", "dv": "*fp16", "scale": "fp32", "S": "i32", "stride_h": "i32"},
    {"BM": 32, "BN": 64, "D": 64}, 4, 2, ["S", "stride_h"], (2, 2, 1),
    ["f16:64:%d" % (2 * 128 * 64), "f16:65:%d" % (2 * 128 * 64), "f16:66:%d" % (2 * 128 * 64),
     "f16:67:%d" % (2 * 128 * 64), "f32:68:256", "f32:69:256"] + ["out:%d" % (2 * 128 * 64 * 2)] * 3,
    ["p:%d" % i for i in range(9)] + ["f32:0.015625", "i32:128", "i32:%d" % (128 * 64)])
add("rms_fwd", rms_fwd,
    {"x": "*fp16", "w": "*fp16", "y": "*fp16", "rstd": "*fp32", "stride": "i32", "N": "i32", "eps": "fp32"},
    {"BLOCK": 512}, 4, 1, [], (12, 1, 1),
    ["f16:70:%d" % (12 * 300), "f16:71:300", "out:%d" % (12 * 300 * 2), "out:48"],
    ["p:0", "p:1", "p:2", "p:3", "i32:300", "i32:300", "f32:0.00001"])
add("rms_bwd", rms_bwd,
    {"x": "*fp16", "w": "*fp16", "dy": "*fp16", "rstd": "*fp32", "dx": "*fp16", "pdw": "*fp32", "stride": "i32",
     "N": "i32"},
    {"ROWS": 4, "BLOCK": 512}, 4, 1, [], (3, 1, 1),
    ["f16:72:%d" % (12 * 300), "f16:73:300", "f16:74:%d" % (12 * 300), "f32:75:12", "out:%d" % (12 * 300 * 2),
     "out:%d" % (3 * 300 * 4)],
    ["p:0", "p:1", "p:2", "p:3", "p:4", "p:5", "i32:300", "i32:300"])
add("rotary", rotary, {"x": "*fp16", "cs": "*fp32", "sn": "*fp32", "o": "*fp16", "S": "i32"},
    {"H": 2, "D": 64, "BS": 32}, 4, 1, [], (2, 2, 1),
    ["f16:76:%d" % (50 * 2 * 64), "f32:77:%d" % (50 * 32), "f32:78:%d" % (50 * 32), "out:%d" % (50 * 2 * 64 * 2)],
    ["p:0", "p:1", "p:2", "p:3", "i32:50"])
add("topk_arg", topk_arg,
    {"x": "*fp32", "amax": "*i32", "amin": "*i32", "topv": "*fp32", "ridx": "*i32", "rval": "*fp32", "N": "i32"},
    {"BLOCK": 256, "TOPK": 8}, 4, 1, [], (8, 1, 1),
    ["f32:79:%d" % (8 * 200), "out:32", "out:32", "out:%d" % (8 * 8 * 4), "out:32", "out:32"],
    ["p:0", "p:1", "p:2", "p:3", "p:4", "p:5", "i32:200"])
add("seg_scans", seg_scans,
    {"x": "*fp32", "flags": "*i32", "segsum": "*fp32", "revsum": "*fp32", "cprod": "*fp32", "N": "i32"},
    {"BLOCK": 512}, 4, 1, [], (6, 1, 1),
    ["f32:80:%d" % (6 * 400), "imod:81:%d:7" % (6 * 400)] + ["out:%d" % (6 * 400 * 4)] * 3,
    ["p:0", "p:1", "p:2", "p:3", "p:4", "i32:400"])
add("desc_dev_transpose", desc_dev_transpose, {"x": "*fp16", "o": "*fp16", "R": "i32", "C": "i32"},
    {"BR": 64, "BC": 64}, 4, 1, ["R", "C"], (2, 4, 1),
    ["f16:82:%d" % (120 * 200), "out:%d" % (200 * 120 * 2)],
    ["p:0", "p:1", "i32:120", "i32:200"])
add("gather_embed", gather_embed,
    {"ids": "*i32", "table": "*fp32", "o": "*fp32", "omax": "*i32", "perm": "*i32", "V": "i32"},
    {"D": 64, "BT": 32}, 4, 1, [], (4, 1, 1),
    ["imod:83:128:120", "f32:84:%d" % (100 * 64), "out:%d" % (128 * 64 * 4), "out:4", "imod:85:64:64"],
    ["p:0", "p:1", "p:2", "p:3", "p:4", "i32:100"])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)) + "/triton3"
    only = sys.argv[2:] or None
    os.makedirs(out, exist_ok=True)
    target = GPUTarget("cuda", 90, 32)
    rows = []
    for name, fn, sig, consts, warps, stages, div16, grid, bufs, params in KERNELS:
        if only and name not in only:
            continue
        full = dict(sig)
        for c in consts:
            full[c] = "constexpr"
        attrs = {}
        for i, a in enumerate(fn.arg_names):
            if a in consts:
                continue
            if full[a].startswith("*") or a in div16:
                attrs[(i,)] = [["tt.divisibility", 16]]
        src = ASTSource(fn=fn, signature=full, constexprs={(fn.arg_names.index(k),): v for k, v in consts.items()},
                        attrs=attrs)
        try:
            k = triton.compile(src, target=target, options={"num_warps": warps, "num_stages": stages})
        except Exception as e:  # noqa: BLE001 - report and go on with the others
            print("FAILED", name, str(e).splitlines()[-1] if str(e) else type(e).__name__)
            continue
        with open(os.path.join(out, name + ".ptx"), "w") as f:
            f.write(k.asm["ptx"])
        with open(os.path.join(out, name + ".cubin"), "wb") as f:
            f.write(k.asm["cubin"])
        md = k.metadata
        scratch = getattr(md, "global_scratch_size", 0)
        ps = list(params) + (["scratch:%d" % (scratch * grid[0] * grid[1] * grid[2])] if scratch else ["null"])
        ps += ["null"]
        block = int(re.search(r"\.reqntid (\d+)", k.asm["ptx"]).group(1))
        rows.append("\t".join(str(x) for x in [name, md.name, "%d,%d,%d" % grid, block, md.shared,
                                                 " ".join(bufs), " ".join(ps)]))
        print(name, md.name, "warps", warps, "block", block, "shared", md.shared, "scratch", scratch)
    with open(os.path.join(out, "launches.tsv"), "w") as f:
        f.write("name\tsymbol\tgrid\tblock\tshared\tbuffers\tparams\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
