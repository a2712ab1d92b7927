"""Compiles this folder's own Triton kernels for sm_90a without a GPU.

    python gen_triton.py OUTDIR     (needs PyPI `triton`; writes NAME.ptx, NAME.cubin, kernels.tsv)

Each kernel is compiled with fixed sizes (see KERNELS); kernels.tsv lists name, kernel symbol,
grid, block, shared bytes and the parameter list as Triton lowered it.
"""
import os
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def vadd(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m)
    tl.store(out + offs, a * 0.5 + b, mask=m)


@triton.jit
def softmax_rows(out, inp, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr):
    row0 = tl.program_id(0)
    step = tl.num_programs(0)
    for r in tl.range(row0, n_rows, step):
        cols = tl.arange(0, BLOCK)
        m = cols < n_cols
        v = tl.load(inp + r * in_stride + cols, mask=m, other=-float("inf"))
        v = v - tl.max(v, axis=0)
        e = tl.exp(v)
        tl.store(out + r * out_stride + cols, e / tl.sum(e, axis=0), mask=m)


@triton.jit
def layernorm_rows(x, y, w, b, mean_out, rstd_out, stride, n, eps, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    x += r * stride
    y += r * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for o in range(0, n, BLOCK):
        c = o + tl.arange(0, BLOCK)
        acc += tl.load(x + c, mask=c < n, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n
    var_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for o in range(0, n, BLOCK):
        c = o + tl.arange(0, BLOCK)
        v = tl.load(x + c, mask=c < n, other=0.0).to(tl.float32)
        d = tl.where(c < n, v - mean, 0.0)
        var_acc += d * d
    rstd = 1 / tl.sqrt(tl.sum(var_acc, axis=0) / n + eps)
    tl.store(mean_out + r, mean)
    tl.store(rstd_out + r, rstd)
    for o in range(0, n, BLOCK):
        c = o + tl.arange(0, BLOCK)
        m = c < n
        v = tl.load(x + c, mask=m, other=0.0).to(tl.float32)
        tl.store(y + c, (v - mean) * rstd * tl.load(w + c, mask=m) + tl.load(b + c, mask=m), mask=m)


@triton.jit
def matmul_f16(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    per_group = GROUP * npn
    g = pid // per_group
    first = g * GROUP
    gsz = min(npm - first, GROUP)
    pm = first + (pid % per_group) % gsz
    pn = (pid % per_group) // gsz
    rm = (pm * BM + tl.arange(0, BM)) % M
    rn = (pn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    pa = a + rm[:, None] * sam + rk[None, :] * sak
    pb = b + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        ta = tl.load(pa, mask=rk[None, :] < K - k * BK, other=0.0)
        tb = tl.load(pb, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(ta, tb, acc)
        pa += BK * sak
        pb += BK * sbk
    cm = pm * BM + tl.arange(0, BM)
    cn = pn * BN + tl.arange(0, BN)
    tl.store(c + cm[:, None] * scm + cn[None, :] * scn, acc.to(tl.float16),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def dropout_seeded(x, out, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    keep = tl.rand(seed, offs) > p
    tl.store(out + offs, tl.where(keep, v / (1 - p), 0.0), mask=m)


@triton.jit
def attn_ptr(q, k, v, o, sm_scale, S, stride_h, stride_s,
             BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    start = tl.program_id(0) * BM
    h = tl.program_id(1)
    base = h * stride_h
    rm = start + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    qt = tl.load(q + base + rm[:, None] * stride_s + rd[None, :])
    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    scale = sm_scale * 1.44269504
    for n0 in range(0, S, BN):
        kt = tl.load(k + base + (n0 + rn)[None, :] * stride_s + rd[:, None])
        s = tl.dot(qt, kt) * scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        pr = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(pr, 1)
        vt = tl.load(v + base + (n0 + rn)[:, None] * stride_s + rd[None, :])
        acc = acc * alpha[:, None]
        acc = tl.dot(pr.to(tl.float16), vt, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o + base + rm[:, None] * stride_s + rd[None, :], acc.to(tl.float16))


@triton.jit
def attn_desc_host(qd, kd, vd, od, sm_scale, S,
                   BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    start = tl.program_id(0) * BM
    row0 = tl.program_id(1) * S
    qt = qd.load([row0 + start, 0])
    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    scale = sm_scale * 1.44269504
    for n0 in range(0, S, BN):
        kt = kd.load([row0 + n0, 0])
        s = tl.dot(qt, kt.T) * scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        pr = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(pr, 1)
        vt = vd.load([row0 + n0, 0])
        acc = acc * alpha[:, None]
        acc = tl.dot(pr.to(tl.float16), vt, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    od.store([row0 + start, 0], acc.to(tl.float16))


@triton.jit
def attn_desc_dev(q, k, v, o, sm_scale, S, H,
                  BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    rows = S * H
    qd = tl.make_tensor_descriptor(q, shape=[rows, D], strides=[D, 1], block_shape=[BM, D])
    kd = tl.make_tensor_descriptor(k, shape=[rows, D], strides=[D, 1], block_shape=[BN, D])
    vd = tl.make_tensor_descriptor(v, shape=[rows, D], strides=[D, 1], block_shape=[BN, D])
    od = tl.make_tensor_descriptor(o, shape=[rows, D], strides=[D, 1], block_shape=[BM, D])
    start = tl.program_id(0) * BM
    row0 = tl.program_id(1) * S
    qt = qd.load([row0 + start, 0])
    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    scale = sm_scale * 1.44269504
    for n0 in range(0, S, BN):
        kt = kd.load([row0 + n0, 0])
        s = tl.dot(qt, kt.T) * scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        pr = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(pr, 1)
        vt = vd.load([row0 + n0, 0])
        acc = acc * alpha[:, None]
        acc = tl.dot(pr.to(tl.float16), vt, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    od.store([row0 + start, 0], acc.to(tl.float16))


@triton.jit
def matmul_tma_persistent(ad, bd, cd, M, N, K,
                          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, NSM: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    ksteps = tl.cdiv(K, BK)
    for t in tl.range(pid, tiles_m * tiles_n, NSM, flatten=True):
        om = (t // tiles_n) * BM
        on = (t % tiles_n) * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kk in range(ksteps):
            ta = ad.load([om, kk * BK])
            tb = bd.load([on, kk * BK])
            acc = tl.dot(ta, tb.T, acc)
        cd.store([om, on], acc.to(tl.float16))


def desc(dtype, block):
    return "tensordesc<%s[%s]>" % (dtype, ",".join(str(b) for b in block))


# name, fn, signature (non-constexpr), constexprs, num_warps, num_stages, grid
KERNELS = [
    ("vadd", vadd, {"x": "*fp32", "y": "*fp32", "out": "*fp32", "n": "i32"},
     {"BLOCK": 1024}, 4, 3, (4, 1, 1)),
    ("softmax", softmax_rows, {"out": "*fp32", "inp": "*fp32", "in_stride": "i32", "out_stride": "i32",
                               "n_rows": "i32", "n_cols": "i32"},
     {"BLOCK": 256}, 4, 3, (8, 1, 1)),
    ("layernorm", layernorm_rows, {"x": "*fp16", "y": "*fp16", "w": "*fp16", "b": "*fp16",
                                   "mean_out": "*fp32", "rstd_out": "*fp32", "stride": "i32", "n": "i32",
                                   "eps": "fp32"},
     {"BLOCK": 256}, 4, 3, (8, 1, 1)),
    ("matmul_w4", matmul_f16, {"a": "*fp16", "b": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                               "sam": "i32", "sak": "constexpr", "sbk": "i32", "sbn": "constexpr",
                               "scm": "i32", "scn": "constexpr"},
     {"sak": 1, "sbn": 1, "scn": 1, "BM": 64, "BN": 64, "BK": 32, "GROUP": 2}, 4, 3, (4, 1, 1)),
    ("matmul_w8", matmul_f16, {"a": "*fp16", "b": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                               "sam": "i32", "sak": "constexpr", "sbk": "i32", "sbn": "constexpr",
                               "scm": "i32", "scn": "constexpr"},
     {"sak": 1, "sbn": 1, "scn": 1, "BM": 128, "BN": 64, "BK": 32, "GROUP": 2}, 8, 3, (2, 1, 1)),
    ("dropout", dropout_seeded, {"x": "*fp32", "out": "*fp32", "n": "i32", "p": "fp32", "seed": "i32"},
     {"BLOCK": 1024}, 4, 3, (4, 1, 1)),
    ("attn_ptr", attn_ptr, {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp16", "sm_scale": "fp32",
                            "S": "i32", "stride_h": "i32", "stride_s": "i32"},
     {"BM": 64, "BN": 64, "D": 64}, 4, 2, (2, 2, 1)),
    ("attn_desc_host", attn_desc_host, {"qd": desc("fp16", [64, 64]), "kd": desc("fp16", [64, 64]),
                                        "vd": desc("fp16", [64, 64]), "od": desc("fp16", [64, 64]),
                                        "sm_scale": "fp32", "S": "i32"},
     {"BM": 64, "BN": 64, "D": 64}, 4, 2, (2, 2, 1)),
    ("attn_desc_dev", attn_desc_dev, {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp16",
                                      "sm_scale": "fp32", "S": "i32", "H": "i32"},
     {"BM": 64, "BN": 64, "D": 64}, 4, 2, (2, 2, 1)),
    ("matmul_tma", matmul_tma_persistent, {"ad": desc("fp16", [64, 64]), "bd": desc("fp16", [64, 64]),
                                           "cd": desc("fp16", [64, 64]), "M": "i32", "N": "i32", "K": "i32"},
     {"BM": 64, "BN": 64, "BK": 64, "NSM": 3}, 4, 3, (3, 1, 1)),
]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)) + "/triton"
    os.makedirs(out, exist_ok=True)
    target = GPUTarget("cuda", 90, 32)
    rows = []
    for name, fn, sig, consts, warps, stages, grid in KERNELS:
        full = dict(sig)
        for c in consts:
            full[c] = "constexpr"
        src = ASTSource(fn=fn, signature=full, constexprs={(fn.arg_names.index(k),): v for k, v in consts.items()})
        k = triton.compile(src, target=target, options={"num_warps": warps, "num_stages": stages})
        with open(os.path.join(out, name + ".ptx"), "w") as f:
            f.write(k.asm["ptx"])
        with open(os.path.join(out, name + ".cubin"), "wb") as f:
            f.write(k.asm["cubin"])
        md = k.metadata
        rows.append("\t".join(str(x) for x in [name, md.name, "%d,%d,%d" % grid, 32 * warps, md.shared,
                                                 getattr(md, "global_scratch_size", 0)]))
        print(name, md.name, "shared", md.shared, "scratch", getattr(md, "global_scratch_size", 0))
    with open(os.path.join(out, "kernels.tsv"), "w") as f:
        f.write("name\tsymbol\tgrid\tblock\tshared\tscratch\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
