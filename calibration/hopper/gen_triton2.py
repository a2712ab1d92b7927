"""Compiles this folder's second set of own Triton kernels for sm_90a without a GPU.

    python gen_triton2.py OUTDIR   (needs PyPI `triton` 3.9; writes NAME.ptx, NAME.cubin, launches.tsv)

The first set (gen_triton.py) has fp16 matmuls, row softmax, layer norm, dropout and flash
attention. This one takes what it lacks: fp8 (e4m3, e5m2), tf32, bf16 and int8 dots, 4 pipeline
stages over 8 K steps (mbarrier phases wrap), grouped program ids, a 3-D grid, split-K with
`tl.atomic_add`, a fused epilogue (bias, erf GELU, libdevice tanh), causal flash attention with a
warp-specialised loop, a layer-norm backward that takes a lock (`tl.atomic_cas`/`atomic_xchg`)
around partial sums, cross entropy, scans (`tl.cumsum`, `tl.associative_scan`), `tl.sort`,
`tl.histogram`, reductions over either axis with `other=` masks, `tl.inline_asm_elementwise` and
the `tl.math` / libdevice functions.

launches.tsv is the launch table that host/hopper_run2.cu and crates/cudart/tests/hopper_triton2.rs
both read: name, symbol, grid, block, shared bytes, buffers, parameters (tokens described in
host/hopper_run2.cu).
"""
import os
import re
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.language.extra import libdevice


@triton.jit
def mm_ptr(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, INT: tl.constexpr,
           ZERO: tl.constexpr):
    # A [M, K] row-major, B [N, K] (K-major), C [M, N]; 2-D grid of tiles; K tail masked (other=0)
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    pa = a + rm[:, None] * K + rk[None, :]
    pb = b + rn[None, :] * K + rk[:, None]
    if INT:
        acc = tl.zeros((BM, BN), dtype=tl.int32)
    else:
        acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ta = tl.load(pa, mask=(rk[None, :] + k) < K, other=ZERO)
        tb = tl.load(pb, mask=(rk[:, None] + k) < K, other=ZERO)
        acc = tl.dot(ta, tb, acc)
        pa += BK
        pb += BK
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def mm_desc_grouped(ad, bd, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                    GROUP: tl.constexpr):
    # host tensor descriptors (TMA), grouped program ids, C stored as fp16 through pointers
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    per_group = GROUP * npn
    first = (pid // per_group) * GROUP
    gsz = min(npm - first, GROUP)
    pm = first + (pid % per_group) % gsz
    pn = (pid % per_group) // gsz
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        ta = ad.load([pm * BM, k * BK])
        tb = bd.load([pn * BN, k * BK])
        acc = tl.dot(ta, tb.T, acc)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def mm_bf16_epilogue(ad, bd, c, bias, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                     GROUP: tl.constexpr):
    # bf16 through TMA with 4 stages over 8 K steps, grouped ids, bias + erf GELU + tanh epilogue
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    per_group = GROUP * npn
    first = (pid // per_group) * GROUP
    gsz = min(npm - first, GROUP)
    pm = first + (pid % per_group) % gsz
    pn = (pid % per_group) // gsz
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        ta = ad.load([pm * BM, k * BK])
        tb = bd.load([pn * BN, k * BK])
        acc = tl.dot(ta, tb.T, acc)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    x = acc * 0.0625 + tl.load(bias + rn)[None, :]
    g = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    y = g + 0.25 * libdevice.tanh(x)
    tl.store(c + rm[:, None] * N + rn[None, :], y.to(tl.bfloat16))


@triton.jit
def mm_splitk(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, SPLIT: tl.constexpr):
    # 3-D grid (m tile, n tile, K split); fp16 in, fp32 partial tiles summed with tl.atomic_add
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    ps = tl.program_id(2)
    kper = K // SPLIT
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = ps * kper + tl.arange(0, BK)
    pa = a + rm[:, None] * K + rk[None, :]
    pb = b + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, kper, BK):
        acc = tl.dot(tl.load(pa), tl.load(pb), acc)
        pa += BK
        pb += BK * N
    tl.atomic_add(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def attn_causal(q, k, v, o, sm_scale, S, stride_h, stride_s,
                BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # causal flash attention: blocks left of the diagonal unmasked, the diagonal ones masked with -inf
    start = tl.program_id(0) * BM
    base = tl.program_id(1) * stride_h
    rm = start + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    qt = tl.load(q + base + rm[:, None] * stride_s + rd[None, :])
    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    scale = sm_scale * 1.44269504
    for n0 in tl.range(0, start, BN):
        kt = tl.load(k + base + (n0 + rn)[None, :] * stride_s + rd[:, None])
        s = tl.dot(qt, kt) * scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        pr = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(pr, 1)
        vt = tl.load(v + base + (n0 + rn)[:, None] * stride_s + rd[None, :])
        acc = tl.dot(pr.to(tl.float16), vt, acc * alpha[:, None])
        m_i = m_new
    for n0 in tl.range(start, start + BM, BN):
        kt = tl.load(k + base + (n0 + rn)[None, :] * stride_s + rd[:, None])
        s = tl.dot(qt, kt) * scale
        s = tl.where(rm[:, None] >= (n0 + rn)[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        pr = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(pr, 1)
        vt = tl.load(v + base + (n0 + rn)[:, None] * stride_s + rd[None, :])
        acc = tl.dot(pr.to(tl.float16), vt, acc * alpha[:, None])
        m_i = m_new
    tl.store(o + base + rm[:, None] * stride_s + rd[None, :], (acc / l_i[:, None]).to(tl.float16))


@triton.jit
def mm_warp_specialized(ad, bd, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # fp16 through TMA, the K loop warp-specialised (a producer warp group and consumers)
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), warp_specialize=True):
        ta = ad.load([pm * BM, k * BK])
        tb = bd.load([pn * BN, k * BK])
        acc = tl.dot(ta, tb.T, acc)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def ln_bwd_lock(x, dy, w, mean, rstd, dx, pdw, pdb, locks, stride, N, GROUP: tl.constexpr,
                BLOCK: tl.constexpr):
    # layer-norm backward: dx per row, then partial sums of dy*x and dy per column group under a
    # spin lock (atomic_cas), the group's first writer marked with atomic_xchg. The partial sums
    # are exact in f32 (k/256 inputs, 4 rows per group) so any order of the groups' rows agrees.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    xv = tl.load(x + row * stride + cols, mask=m, other=0).to(tl.float32)
    dyv = tl.load(dy + row * stride + cols, mask=m, other=0).to(tl.float32)
    wv = tl.load(w + cols, mask=m).to(tl.float32)
    mu = tl.load(mean + row)
    rs = tl.load(rstd + row)
    xhat = tl.where(m, (xv - mu) * rs, 0.0)
    wdy = tl.where(m, wv * dyv, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    tl.store(dx + row * stride + cols, ((wdy - (xhat * c1 + c2)) * rs).to(tl.float16), mask=m)
    g = row % GROUP
    lock = locks + g
    count = locks + GROUP + g
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    pdw_acc = xv * dyv
    pdb_acc = dyv
    if tl.load(count) == 0:
        tl.atomic_xchg(count, 1)
    else:
        pdw_acc += tl.load(pdw + g * N + cols, mask=m)
        pdb_acc += tl.load(pdb + g * N + cols, mask=m)
    tl.store(pdw + g * N + cols, pdw_acc, mask=m)
    tl.store(pdb + g * N + cols, pdb_acc, mask=m)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


@triton.jit
def cross_entropy(logits, target, loss, grad, V, stride, BLOCK: tl.constexpr):
    # per row: logsumexp over V (masked, other=-inf), loss = lse - x[t], grad = softmax - onehot
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < V
    xv = tl.load(logits + row * stride + cols, mask=m, other=float("-inf"))
    mx = tl.max(xv, axis=0)
    e = tl.exp(xv - mx)
    s = tl.sum(e, axis=0)
    lse = mx + tl.log(s)
    t = tl.load(target + row)
    xt = tl.load(logits + row * stride + t)
    tl.store(loss + row, lse - xt)
    p = e / s - tl.where(cols == t, 1.0, 0.0)
    tl.store(grad + row * stride + cols, p, mask=m)


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def scans_2d(x, csum, cmax, colsum, rowmax, R, C, BR: tl.constexpr, BC: tl.constexpr):
    # a 2-D grid of masked tiles: cumsum along axis 1, a running max (associative_scan) down
    # axis 0, column sums (axis 0) and row maxima (axis 1) of the tile
    pr = tl.program_id(0)
    pc = tl.program_id(1)
    rr = pr * BR + tl.arange(0, BR)
    rc = pc * BC + tl.arange(0, BC)
    m = (rr[:, None] < R) & (rc[None, :] < C)
    off = rr[:, None] * C + rc[None, :]
    v = tl.load(x + off, mask=m, other=0.0)
    tl.store(csum + off, tl.cumsum(v, axis=1), mask=m)
    w = tl.load(x + off, mask=m, other=-1.0e30)
    tl.store(cmax + off, tl.associative_scan(w, 0, _max_combine), mask=m)
    tl.store(colsum + pr * C + rc, tl.sum(v, axis=0), mask=rc < C)
    tl.store(rowmax + rr * tl.num_programs(1) + pc, tl.max(w, axis=1), mask=rr < R)


@triton.jit
def sort_hist(x, keys, sorted_x, sorted_k, hist, N: tl.constexpr, BINS: tl.constexpr):
    # per row: an ascending float sort, a descending int sort, a histogram of the int keys
    row = tl.program_id(0)
    cols = tl.arange(0, N)
    v = tl.load(x + row * N + cols)
    kv = tl.load(keys + row * N + cols)
    tl.store(sorted_x + row * N + cols, tl.sort(v))
    tl.store(sorted_k + row * N + cols, tl.sort(kv, descending=True))
    tl.store(hist + row * BINS + tl.arange(0, BINS), tl.histogram(kv, BINS))


@triton.jit
def math_fns(x, k, o_asm, o_hi, o_sin, o_cos, o_log2, o_rsqrt, o_sqrtrn, o_divrn, o_erf, o_tanh,
             o_pow, n, BLOCK: tl.constexpr):
    # tl.inline_asm_elementwise, umulhi and the tl.math / libdevice functions, one output each
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m, other=1.0)
    kv = tl.load(k + offs, mask=m, other=0)
    sw = tl.inline_asm_elementwise("prmt.b32 $0, $1, 0, 0x0123;", "=r,r", [kv], dtype=tl.int32,
                                   is_pure=True, pack=1)
    tl.store(o_asm + offs, sw, mask=m)
    tl.store(o_hi + offs, tl.umulhi(kv, 0x1E3779B9), mask=m)
    tl.store(o_sin + offs, tl.sin(v), mask=m)
    tl.store(o_cos + offs, tl.cos(v), mask=m)
    a = tl.abs(v) + 0.5
    tl.store(o_log2 + offs, tl.log2(a), mask=m)
    tl.store(o_rsqrt + offs, tl.math.rsqrt(a), mask=m)
    tl.store(o_sqrtrn + offs, tl.math.sqrt_rn(a), mask=m)
    tl.store(o_divrn + offs, tl.math.div_rn(v, a), mask=m)
    tl.store(o_erf + offs, tl.math.erf(v), mask=m)
    tl.store(o_tanh + offs, libdevice.tanh(v), mask=m)
    tl.store(o_pow + offs, libdevice.pow(a, v * 0.25), mask=m)


def desc(dtype, block):
    return "tensordesc<%s[%s]>" % (dtype, ",".join(str(b) for b in block))


def dsig(names, dtype, block):
    return {n: desc(dtype, block) for n in names}


def mm_sig(t_in, t_out):
    return {"a": "*" + t_in, "b": "*" + t_in, "c": "*" + t_out, "M": "i32", "N": "i32", "K": "i32"}


# A launch table entry: name, fn, signature (non-constexpr), constexprs, num_warps, num_stages,
# the parameters known to be multiples of 16 (Triton's launcher specialises on them: every pointer
# here, and the listed ints), grid, buffers, parameters (host/hopper_run2.cu's tokens; Triton's two
# scratch pointers at the end are added as `null` unless the kernel needs global scratch).
def desc_params(buf, dt, inner, outer, box_inner, box_outer):
    # Triton 3.9 passes a host descriptor as the map, then the shape (outer, inner) as i32 and
    # the strides (inner, 1) as i64
    return ["map:%d:%s:%d:%d:%d:%d" % (buf, dt, inner, outer, box_inner, box_outer),
            "i32:%d" % outer, "i32:%d" % inner, "i64:%d" % inner, "i64:1"]


KERNELS = []


def add(name, fn, sig, consts, warps, stages, div16, grid, bufs, params):
    KERNELS.append((name, fn, sig, consts, warps, stages, div16, grid, bufs, params))


K144 = 144  # K tail masked: 144 = 2 x 64 + 16
for name, t, bk in [("mm_e4m3", "fp8e4nv", 64), ("mm_i8", "i8", 64), ("mm_tf32", "fp32", 32)]:
    tin = {"fp8e4nv": "e4m3", "i8": "i8", "fp32": "f32"}[t]
    esz = 4 if t == "fp32" else 1
    out = "i32" if t == "i8" else "fp32"
    add(name, mm_ptr, mm_sig(t, out), {"BM": 64, "BN": 64, "BK": bk, "INT": t == "i8", "ZERO": 0 if t == "i8" else 0.0}, 4, 3, ["K"], (2, 2, 1),
        ["%s:21:%d" % (tin, 128 * K144), "%s:22:%d" % (tin, 128 * K144), "out:%d" % (128 * 128 * 4)],
        ["p:0", "p:1", "p:2", "i32:128", "i32:128", "i32:%d" % K144])
add("mm_e5m2_tma", mm_desc_grouped,
    dict(dsig(["ad", "bd"], "fp8e5", [64, 128]), c="*fp16", M="i32", N="i32", K="i32"),
    {"BM": 64, "BN": 64, "BK": 128, "GROUP": 2}, 4, 3, [], (4, 1, 1),
    ["e5m2:23:%d" % (128 * 256), "e5m2:24:%d" % (128 * 256), "out:%d" % (128 * 128 * 2)],
    desc_params(0, "u8", 256, 128, 128, 64) + desc_params(1, "u8", 256, 128, 128, 64)
    + ["p:2", "i32:128", "i32:128", "i32:256"])
add("mm_bf16_epi", mm_bf16_epilogue,
    dict(dsig(["ad", "bd"], "bf16", [128, 64]), c="*bf16", bias="*fp32", M="i32", N="i32", K="i32"),
    {"BM": 128, "BN": 128, "BK": 64, "GROUP": 2}, 8, 4, [], (4, 1, 1),
    ["bf16:25:%d" % (256 * 512), "bf16:26:%d" % (256 * 512), "out:%d" % (256 * 256 * 2), "f32:27:256"],
    desc_params(0, "bf16", 512, 256, 64, 128) + desc_params(1, "bf16", 512, 256, 64, 128)
    + ["p:2", "p:3", "i32:256", "i32:256", "i32:512"])
add("mm_splitk", mm_splitk, mm_sig("fp16", "fp32"), {"BM": 64, "BN": 64, "BK": 32, "SPLIT": 2}, 4, 3,
    ["M", "N", "K"], (2, 2, 2),
    ["f16:28:%d" % (128 * 256), "f16:29:%d" % (256 * 128), "out:%d" % (128 * 128 * 4)],
    ["p:0", "p:1", "p:2", "i32:128", "i32:128", "i32:256"])
add("attn_causal", attn_causal, {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp16", "sm_scale": "fp32",
                                 "S": "i32", "stride_h": "i32", "stride_s": "i32"},
    {"BM": 128, "BN": 64, "D": 64}, 8, 3, ["S", "stride_h", "stride_s"], (2, 2, 1),
    ["f16:30:%d" % (2 * 256 * 64), "f16:31:%d" % (2 * 256 * 64), "f16:32:%d" % (2 * 256 * 64),
     "out:%d" % (2 * 256 * 64 * 2)],
    ["p:0", "p:1", "p:2", "p:3", "f32:0.125", "i32:256", "i32:%d" % (256 * 64), "i32:64"])
add("mm_ws", mm_warp_specialized,
    dict(dsig(["ad", "bd"], "fp16", [64, 64]), c="*fp32", M="i32", N="i32", K="i32"),
    {"BM": 64, "BN": 64, "BK": 64}, 4, 3, [], (2, 2, 1),
    ["f16:33:%d" % (128 * 256), "f16:34:%d" % (128 * 256), "out:%d" % (128 * 128 * 4)],
    desc_params(0, "f16", 256, 128, 64, 64) + desc_params(1, "f16", 256, 128, 64, 64)
    + ["p:2", "i32:128", "i32:128", "i32:256"])
add("ln_bwd_lock", ln_bwd_lock,
    {"x": "*fp16", "dy": "*fp16", "w": "*fp16", "mean": "*fp32", "rstd": "*fp32", "dx": "*fp16",
     "pdw": "*fp32", "pdb": "*fp32", "locks": "*i32", "stride": "i32", "N": "i32"},
    {"GROUP": 4, "BLOCK": 256}, 4, 1, [], (16, 1, 1),
    ["f16:35:%d" % (16 * 200), "f16:36:%d" % (16 * 200), "f16:37:200", "f32:38:16", "f32:39:16",
     "out:%d" % (16 * 200 * 2), "out:%d" % (4 * 200 * 4), "out:%d" % (4 * 200 * 4), "zero:32"],
    ["p:0", "p:1", "p:2", "p:3", "p:4", "p:5", "p:6", "p:7", "p:8", "i32:200", "i32:200"])
add("cross_entropy", cross_entropy,
    {"logits": "*fp32", "target": "*i32", "loss": "*fp32", "grad": "*fp32", "V": "i32", "stride": "i32"},
    {"BLOCK": 1024}, 4, 1, [], (16, 1, 1),
    ["f32:40:%d" % (16 * 1000), "imod:41:16:1000", "out:64", "out:%d" % (16 * 1000 * 4)],
    ["p:0", "p:1", "p:2", "p:3", "i32:1000", "i32:1000"])
add("scans_2d", scans_2d,
    {"x": "*fp32", "csum": "*fp32", "cmax": "*fp32", "colsum": "*fp32", "rowmax": "*fp32", "R": "i32",
     "C": "i32"},
    {"BR": 32, "BC": 64}, 4, 1, [], (2, 2, 1),
    ["f32:42:%d" % (50 * 100), "out:%d" % (50 * 100 * 4), "out:%d" % (50 * 100 * 4), "out:%d" % (2 * 100 * 4),
     "out:%d" % (50 * 2 * 4)],
    ["p:0", "p:1", "p:2", "p:3", "p:4", "i32:50", "i32:100"])
add("sort_hist", sort_hist,
    {"x": "*fp32", "keys": "*i32", "sorted_x": "*fp32", "sorted_k": "*i32", "hist": "*i32"},
    {"N": 256, "BINS": 64}, 4, 1, [], (4, 1, 1),
    ["f32:43:1024", "imod:44:1024:64", "out:4096", "out:4096", "out:%d" % (4 * 64 * 4)],
    ["p:0", "p:1", "p:2", "p:3", "p:4"])
MATH_OUT = ["o_asm", "o_hi", "o_sin", "o_cos", "o_log2", "o_rsqrt", "o_sqrtrn", "o_divrn", "o_erf", "o_tanh",
            "o_pow"]
add("math_fns", math_fns,
    dict({"x": "*fp32", "k": "*i32"}, **{o: ("*i32" if o in ("o_asm", "o_hi") else "*fp32") for o in MATH_OUT},
         n="i32"),
    {"BLOCK": 512}, 4, 1, [], (2, 1, 1),
    ["f32:45:1000", "imod:46:1000:4294967295"] + ["out:4000"] * len(MATH_OUT),
    ["p:%d" % i for i in range(2 + len(MATH_OUT))] + ["i32:1000"])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)) + "/triton2"
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
        # a warp-specialised kernel runs more warps than num_warps: the PTX's .reqntid says how many
        block = int(re.search(r"\.reqntid (\d+)", k.asm["ptx"]).group(1))
        rows.append("\t".join(str(x) for x in [name, md.name, "%d,%d,%d" % grid, block, md.shared,
                                                 " ".join(bufs), " ".join(ps)]))
        print(name, md.name, "warps", warps, "shared", md.shared, "scratch", scratch)
    with open(os.path.join(out, "launches.tsv"), "w") as f:
        f.write("name\tsymbol\tgrid\tblock\tshared\tbuffers\tparams\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
