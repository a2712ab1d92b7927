#!/usr/bin/env python3
"""Writes sp_calib.cu (one kernel per sparse wgmma / mma.sp form) and rows.tsv (the launches).

    python3 gen.py        # in calibration/wgmma-sp: rewrites sp_calib.cu and rows.tsv

Every row fills a 64 KiB shared-memory image from a seeded generator (gen_elem, as in
calibration/wgmma), the A registers, C and every thread's sparsity metadata word (meta_word:
each 4-bit field one of the valid index pairs, mode 0 ordered pairs only, mode 1 every valid pair,
mode 2 one pair per row), points the descriptors into the image and dumps every thread's D
registers after `nk` steps (the second step's descriptors advanced by astep / bstep bytes).
Kernels whose name starts with `m_` run one warp of `mma.sp::ordered_metadata.sync.aligned` on
register fragments instead (image unused; A, B from the A-register stream, C as above).
"""
import random

# (name, n, dtype, atype, btype, a_from_regs, trans_a, trans_b, scale_a, scale_b, sel, sat)
K = []
def k(n, d, a, b, rs=False, ta=0, tb=0, sa=1, sb=1, sel=0, sat=True):
    name = (f"s_{d}_{a}_{b}_n{n}{'_rs' if rs else ''}_t{ta}{tb}_e{sel}"
            + ("" if (sa, sb) == (1, 1) else f"_s{'m' if sa < 0 else 'p'}{'m' if sb < 0 else 'p'}")
            + ("" if sat or a not in ("s8", "u8") else "_wrap"))
    K.append((name, n, d, a, b, rs, ta, tb, sa, sb, sel, sat))

for n in (8, 16, 24, 64, 128, 256): k(n, "f32", "f16", "f16")
k(64, "f32", "f16", "f16", sel=1); k(8, "f32", "f16", "f16", sel=1)
k(64, "f32", "f16", "f16", ta=1, tb=1); k(32, "f32", "f16", "f16", ta=0, tb=1, sel=1); k(32, "f32", "f16", "f16", ta=1, tb=0)
k(256, "f32", "f16", "f16", ta=1, tb=1, sel=1)
k(16, "f32", "f16", "f16", sa=-1); k(16, "f32", "f16", "f16", sb=-1, sel=1)
k(8, "f16", "f16", "f16"); k(64, "f16", "f16", "f16", sel=1); k(32, "f16", "f16", "f16", ta=1, tb=1)
k(64, "f32", "f16", "f16", rs=True); k(8, "f32", "f16", "f16", rs=True, tb=1, sel=1); k(32, "f16", "f16", "f16", rs=True)
k(16, "f32", "f16", "f16", rs=True, sa=-1, sel=1)
k(8, "f32", "bf16", "bf16"); k(64, "f32", "bf16", "bf16", sel=1); k(32, "f32", "bf16", "bf16", ta=1, tb=1)
k(32, "f32", "bf16", "bf16", rs=True, sel=1)
k(8, "f32", "tf32", "tf32"); k(64, "f32", "tf32", "tf32", sel=1); k(256, "f32", "tf32", "tf32")
k(32, "f32", "tf32", "tf32", rs=True); k(16, "f32", "tf32", "tf32", rs=True, sel=1)
k(8, "f32", "e4m3", "e4m3"); k(64, "f32", "e4m3", "e4m3"); k(16, "f32", "e5m2", "e5m2"); k(32, "f32", "e4m3", "e5m2")
k(32, "f16", "e4m3", "e4m3"); k(16, "f32", "e4m3", "e4m3", rs=True); k(24, "f32", "e5m2", "e4m3", sa=-1, sb=-1)
k(256, "f32", "e4m3", "e4m3")
k(8, "s32", "s8", "s8"); k(32, "s32", "s8", "s8"); k(256, "s32", "s8", "s8"); k(16, "s32", "u8", "s8")
k(24, "s32", "u8", "u8"); k(8, "s32", "s8", "u8"); k(16, "s32", "s8", "s8", rs=True)
k(32, "s32", "s8", "s8", sat=False); k(16, "s32", "u8", "u8", rs=True, sat=False)

# warp-level mma.sp::ordered_metadata (m16n8): (name, k, dtype, atype, sel)
M = []
def m(kk, d, a, sel=0, plain=False):
    M.append((f"m_{d}_{a}_k{kk}_e{sel}{'_p' if plain else ''}", kk, d, a, sel, plain))
m(16, "f32", "f16", 0); m(16, "f32", "f16", 1); m(32, "f32", "f16", 0); m(32, "f32", "f16", 1)
m(16, "f16", "f16", 0); m(32, "f16", "f16", 1)
m(16, "f32", "bf16", 0); m(32, "f32", "bf16", 1)
m(8, "f32", "tf32", 0); m(8, "f32", "tf32", 1); m(16, "f32", "tf32", 0); m(16, "f32", "tf32", 1)
m(32, "s32", "s8", 0); m(32, "s32", "s8", 1); m(64, "s32", "s8", 0); m(64, "s32", "u8", 0)
m(64, "f32", "e4m3", 0); m(64, "f32", "e5m2", 0)
# selectors 2 and 3 (rows after the others, so the earlier rows keep their ids and seeds): f16 k16.
# ptxas also accepts them for f16 k32 (and bf16 k16, tf32 k8), but on the H200 m16n8k32 with
# selector 2 or 3 is an illegal instruction (h200/run.txt, the second measurement); the emulator
# refuses it (a k32 16-bit selector takes 2 values).
m(16, "f32", "f16", 2); m(16, "f32", "f16", 3)
# bf16 k16 and tf32 k8 with selectors 2 and 3 (appended later, after the f16 rows).
m(16, "f32", "bf16", 2); m(16, "f32", "bf16", 3); m(8, "f32", "tf32", 2); m(8, "f32", "tf32", 3)
# plain `mma.sp` (without ::ordered_metadata; appended last): every form above once more, named `_p`,
# with unordered index pairs (metadata mode 1) in half of the rows.
for mm in list(M):
    m(mm[1], mm[2], mm[3], mm[4], plain=True)

KDIM = {"f16": 32, "bf16": 32, "tf32": 16, "e4m3": 64, "e5m2": 64, "s8": 64, "u8": 64}
ECODE = {"f16": 1, "bf16": 2, "tf32": 3, "e4m3": 4, "e5m2": 5, "s8": 6, "u8": 6}
DCODE = {"f32": 8, "f16": 9, "s32": 10}
MCODE = {"f16": 1, "bf16": 1, "tf32": 2, "e4m3": 3, "e5m2": 3, "s8": 3, "u8": 3}  # metadata kind

def nregs(n, d):
    return n // 4 if d == "f16" else n // 2

def asm_for(kk):
    name, n, d, a, b, rs, ta, tb, sa, sb, sel, sat = kk
    kd = KDIM[a]
    nr = nregs(n, d)
    dl = ", ".join(f"%{i}" for i in range(nr))
    base = nr
    if rs:
        aop = "{" + ", ".join(f"%{base + i}" for i in range(4)) + "}"
        nxt = base + 4
    else:
        aop = f"%{base}"; nxt = base + 1
    bop = f"%{nxt}"; meta = f"%{nxt + 1}"; pred = f"%{nxt + 2}"
    if a in ("s8", "u8"):
        op = f"wgmma.mma_async.sp.sync.aligned.m64n{n}k{kd}.s32.{a}.{b}" + (".satfinite" if sat else "")
        tail = "p"
    elif a in ("f16", "bf16"):
        op = f"wgmma.mma_async.sp.sync.aligned.m64n{n}k{kd}.{d}.{a}.{b}"
        tail = f"p, {sa}, {sb}, {tb}" if rs else f"p, {sa}, {sb}, {ta}, {tb}"
    else:
        op = f"wgmma.mma_async.sp.sync.aligned.m64n{n}k{kd}.{d}.{a}.{b}"
        tail = f"p, {sa}, {sb}"
    s = ('"{\\n.reg .pred p;\\nsetp.ne.b32 p, ' + pred + ', 0;\\n' + op + " {" + dl + "}, " + aop + ", "
         + bop + ", " + meta + f", {sel}, " + tail + ';\\n}\\n"')
    cons = "f" if d == "f32" else "r"
    outs = ", ".join(f'"+{cons}"(d[{i}])' for i in range(nr))
    ins = (", ".join(f'"r"(ar[{i}])' for i in range(4)) + ", " if rs else '"l"(da), ') + '"l"(db), "r"(mt), "r"(sc)'
    return s, outs, ins

def kernel(kk):
    name, n, d, a, b, rs, ta, tb, sa, sb, sel, sat = kk
    nr = nregs(n, d)
    s, outs, ins = asm_for(kk)
    ty = "float" if d == "f32" else "unsigned"
    conv = "__uint_as_float" if d == "f32" else ""
    back = "__float_as_uint" if d == "f32" else ""
    return f"""
extern "C" __global__ void __launch_bounds__(128) {name}(const uint4* img, const unsigned* areg, const unsigned* cin,
    const unsigned* meta, unsigned* out, unsigned long long desc_a, unsigned long long desc_b, int astep, int bstep, int nk, int scale_d) {{
  extern __shared__ __align__(1024) uint4 sm[];
  for (int i = threadIdx.x; i < 4096; i += 128) sm[i] = img[i];
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;\\n" ::: "memory");
  unsigned base = (unsigned)__cvta_generic_to_shared(sm);
  const int t = threadIdx.x;
  {ty} d[{nr}];
#pragma unroll
  for (int i = 0; i < {nr}; i++) d[i] = {conv}(cin[t * {nr} + i]);
  unsigned ar[4];
#pragma unroll
  for (int i = 0; i < 4; i++) ar[i] = areg[t * 4 + i];
  asm volatile("wgmma.fence.sync.aligned;\\n" ::: "memory");
  for (int s = 0; s < nk; s++) {{
    unsigned long long da = desc_a + (((base + s * astep) >> 4) & 0x3fff);
    unsigned long long db = desc_b + (((base + s * bstep) >> 4) & 0x3fff);
    unsigned mt = meta[s * 128 + t];
    unsigned sc = (s > 0) || scale_d;
    asm volatile({s}
      : {outs}
      : {ins} : "memory");
  }}
  asm volatile("wgmma.commit_group.sync.aligned;\\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\\n" ::: "memory");
#pragma unroll
  for (int i = 0; i < {nr}; i++) out[t * {nr} + i] = {back}(d[i]);
  if (t == 0) out[128 * {nr}] = base;
}}
"""

def mma_regs(kk, d, a):
    """(A regs, B regs, C/D regs) of mma.sp.m16n8kK"""
    eb = 1 if a in ("s8", "u8", "e4m3", "e5m2") else (4 if a == "tf32" else 2)
    na = 16 * kk // 2 * eb // 4 // 32       # compressed A: 16 x K/2 elements over 32 lanes
    nb = kk * 8 * eb // 4 // 32
    nc = 2 if d == "f16" else 4
    return na, nb, nc

def mkernel(mm):
    name, kk, d, a, sel, plain = mm
    form = "mma.sp" if plain else "mma.sp::ordered_metadata"
    na, nb, nc = mma_regs(kk, d, a)
    ctype = {"f32": "f32", "f16": "f16", "s32": "s32"}[d]
    bty = a
    if a in ("s8", "u8"):
        bty = a
        op = f"{form}.sync.aligned.m16n8k{kk}.row.col.satfinite.s32.{a}.{bty}.s32"
    else:
        op = f"{form}.sync.aligned.m16n8k{kk}.row.col.{d}.{a}.{bty}.{d}"
    i = 0
    def grp(c):
        nonlocal i
        r = "{" + ", ".join(f"%{i + j}" for j in range(c)) + "}"; i += c; return r
    dl = grp(nc); al = grp(na); bl = grp(nb)
    mt = f"%{i}"
    s = f'"{op} {dl}, {al}, {bl}, {dl}, {mt}, {sel};\\n"'
    outs = ", ".join(f'"+r"(dd[{j}])' for j in range(nc))
    ins = ", ".join([f'"r"(ar[{j}])' for j in range(na)] + [f'"r"(br[{j}])' for j in range(nb)] + ['"r"(mt)'])
    return f"""
extern "C" __global__ void __launch_bounds__(128) {name}(const uint4* img, const unsigned* areg, const unsigned* cin,
    const unsigned* meta, unsigned* out, unsigned long long desc_a, unsigned long long desc_b, int astep, int bstep, int nk, int scale_d) {{
  const int t = threadIdx.x;
  unsigned dd[{nc}], ar[{na}], br[{nb}];
#pragma unroll
  for (int i = 0; i < {nc}; i++) dd[i] = scale_d ? cin[t * {nc} + i] : 0u;
#pragma unroll
  for (int i = 0; i < {na}; i++) ar[i] = areg[t * 4 + i];
#pragma unroll
  for (int i = 0; i < {nb}; i++) br[i] = areg[512 + t * 4 + i];
  for (int s = 0; s < nk; s++) {{
    unsigned mt = meta[s * 128 + t];
    asm volatile({s} : {outs} : {ins});
  }}
#pragma unroll
  for (int i = 0; i < {nc}; i++) out[t * {nc} + i] = dd[i];
  if (t == 0) out[128 * {nc}] = 0;
}}
"""

HOST = r'''
// ---- host ----
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
typedef void (*KF)(const uint4*, const unsigned*, const unsigned*, const unsigned*, unsigned*, unsigned long long, unsigned long long, int, int, int, int);
// nr: D registers per thread; ea, eb, ed: element kinds; mk: metadata kind (1 16-bit, 2 tf32, 3 8-bit)
struct KI { const char* name; KF f; int nr, ea, eb, ed, mk, threads; };
static KI KS[] = {
@TABLE@
};

static uint64_t mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static uint64_t rnd(uint64_t seed, uint64_t stream, uint64_t idx) { return mix(seed ^ mix((stream << 40) ^ idx)); }

static uint32_t fint(int E, int M, int v) {  // small integer v exactly
  if (v == 0) return 0;
  uint32_t s = v < 0; uint32_t a = v < 0 ? -v : v; int e = 31 - __builtin_clz(a);
  uint32_t mant = ((a << M) >> e) & ((1u << M) - 1);
  return (s << (E + M)) | ((uint32_t)(e + (1 << (E - 1)) - 1) << M) | mant;
}
static uint32_t fgen(int E, int M, int cls, uint64_t r, int band_lo, int band_w) {
  uint32_t bias = (1u << (E - 1)) - 1, mmask = (1u << M) - 1, s = r & 1, maxf = (1u << E) - 1;
  if (cls == 0) return fint(E, M, (int)((r >> 8) % 9) - 4);
  if (cls == 3 && (r >> 60) < 3) {
    switch ((r >> 40) % 6) {
      case 0: return (maxf << M);
      case 1: return (1u << (E + M)) | (maxf << M);
      case 2: return (maxf << M) | mmask;
      case 3: return 1u << (E + M);
      case 4: return (s << (E + M)) | ((maxf - 1) << M) | mmask;
      default: return (s << (E + M)) | 1;
    }
  }
  uint32_t e;
  if (cls == 2) e = (uint32_t)((r >> 1) % maxf);
  else e = bias + band_lo + (uint32_t)((r >> 1) % band_w);
  return (s << (E + M)) | (e << M) | ((uint32_t)(r >> 8) & mmask);
}
// the same element generator as calibration/wgmma (kinds 1 f16, 2 bf16, 3 tf32, 4 e4m3, 5 e5m2,
// 6 8-bit int, 8 f32 accumulator, 9 f16 accumulator, 10 s32 accumulator)
static uint32_t gen_elem(int ek, int cls, uint64_t r) {
  switch (ek) {
    case 1: return fgen(5, 10, cls, r, -3, 7);
    case 2: return fgen(8, 7, cls, r, -3, 7);
    case 3: return fgen(8, 23, cls, r, -3, 7);
    case 4: return fgen(4, 3, cls, r, -3, 7);
    case 5: return fgen(5, 2, cls, r, -3, 7);
    case 6:
      if (cls == 0) return (uint32_t)((r >> 8) % 9 + 252) & 0xff;
      if (cls == 2) { uint32_t x[4] = {0x7f, 0x80, 0xff, 0x01}; return x[(r >> 8) & 3]; }
      return (uint32_t)(r >> 8) & 0xff;
    case 7: return (uint32_t)(r >> 8);
    case 8:
      if (cls == 0) return fint(8, 23, (int)((r >> 8) % 129) - 64);
      if (cls == 2) return fgen(8, 23, 1, r, -30, 60);
      return fgen(8, 23, cls, r, -2, 7);
    case 9: return fgen(5, 10, cls, r, -2, 7);
    default:
      if (cls == 0) return (uint32_t)((int)((r >> 8) % 2001) - 1000);
      if (cls == 2) return (r >> 7) & 1 ? 0x7fffffffu - (uint32_t)((r >> 8) & 0xffff) : 0x80000000u + (uint32_t)((r >> 8) & 0xffff);
      return (uint32_t)(r >> 8);
  }
}
// one metadata word: eight 4-bit fields. Kinds 1 and 3: each field two 2-bit indices
// (mode 0: i0 < i1, the six ordered pairs; mode 1: any of the twelve valid fields; mode 2:
// every field of the word the same ordered pair). Kind 2 (tf32): 0x4 or 0xe per field.
static uint32_t meta_word(int mk, int mode, uint64_t r) {
  static const uint32_t ord[6] = {0x4, 0x8, 0xc, 0x9, 0xd, 0xe};
  static const uint32_t any[12] = {0x1, 0x2, 0x3, 0x4, 0x6, 0x7, 0x8, 0x9, 0xb, 0xc, 0xd, 0xe};
  uint32_t w = 0;
  for (int i = 0; i < 8; i++) {
    uint64_t q = r >> (6 * i + 8);
    uint32_t f;
    if (mk == 2) f = (mode == 2 ? (r & 1) : (q & 1)) ? 0xe : 0x4;
    else if (mode == 1) f = any[q % 12];
    else if (mode == 2) f = ord[r % 6];
    else f = ord[q % 6];
    w |= f << (4 * i);
  }
  return w;
}
static int ebytes(int ek) { return ek == 1 || ek == 2 ? 2 : ek == 4 || ek == 5 || ek == 6 ? 1 : 4; }
static void fill(unsigned char* p, int nbytes, int ek, int cls, uint64_t seed, uint64_t stream) {
  int w = ebytes(ek);
  for (int i = 0; i < nbytes / w; i++) {
    uint32_t v = gen_elem(ek, cls, rnd(seed, stream, i));
    memcpy(p + i * w, &v, w);
  }
}
static void fill_words(unsigned* p, int nwords, int ek, int cls, uint64_t seed, uint64_t stream) {
  int w = ek == 9 ? 2 : 1;
  for (int i = 0; i < nwords; i++) {
    uint32_t v = 0;
    for (int j = 0; j < w; j++) v |= gen_elem(ek, cls, rnd(seed, stream, i * w + j)) << (16 * j);
    p[i] = v;
  }
}
static uint64_t fnv(const unsigned char* p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: %s ROWS.tsv OUT.bin [first|FROM]\n", argv[0]); return 2; }
  FILE* f = fopen(argv[1], "r");
  if (!f) { perror(argv[1]); return 2; }
  int only_first = argc > 3 && !strcmp(argv[3], "first");
  int from = argc > 3 && !only_first ? atoi(argv[3]) : 0;
  FILE* o = fopen(argv[2], from ? "ab" : "wb");
  if (!o) { perror(argv[2]); return 2; }
  for (auto& k : KS) {
    cudaError_t e = cudaFuncSetAttribute(k.f, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
    if (e) { fprintf(stderr, "%s: %s\n", k.name, cudaGetErrorString(e)); return 1; }
  }
  unsigned char* img = (unsigned char*)malloc(65536);
  unsigned *areg = (unsigned*)malloc(1024 * 4), *cin = (unsigned*)malloc(128 * 128 * 4 + 64), *res = (unsigned*)malloc(128 * 128 * 4 + 64);
  unsigned meta[256];
  uint4* dimg; unsigned *dareg, *dcin, *dout, *dmeta;
  cudaMalloc(&dimg, 65536); cudaMalloc(&dareg, 1024 * 4); cudaMalloc(&dcin, 128 * 128 * 4 + 64); cudaMalloc(&dout, 128 * 128 * 4 + 64);
  cudaMalloc(&dmeta, 256 * 4);
  char line[1024], seen[256] = {0};
  int rows = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == 'i') continue;
    int id, cls, astep, bstep, nk, scd, mode; char kname[128]; unsigned long long seed, da, db;
    if (sscanf(line, "%d %127s %llu %d %llx %llx %d %d %d %d %d", &id, kname, &seed, &cls, &da, &db, &astep, &bstep, &nk, &scd, &mode) != 11) {
      fprintf(stderr, "bad row: %s", line); return 2;
    }
    int ki = -1;
    for (int i = 0; i < (int)(sizeof KS / sizeof KS[0]); i++) if (!strcmp(KS[i].name, kname)) ki = i;
    if (ki < 0) { fprintf(stderr, "unknown kernel %s\n", kname); return 2; }
    if (id < from) continue;
    if (only_first) { if (seen[ki]) continue; seen[ki] = 1; }
    KI& k = KS[ki];
    fill(img, 16384, k.ea, cls, seed, 1);
    fill(img + 16384, 49152, k.eb, cls, seed, 2);
    fill_words(areg, 1024, k.ea, cls, seed, 3);
    if (k.ea != 3) fill((unsigned char*)areg, 4096, k.ea, cls, seed, 3);
    fill_words(cin, 128 * k.nr, k.ed, cls, seed, 4);
    for (int i = 0; i < 256; i++) meta[i] = meta_word(k.mk, mode, rnd(seed, 5, i));
    cudaMemcpy(dimg, img, 65536, cudaMemcpyHostToDevice);
    cudaMemcpy(dareg, areg, 4096, cudaMemcpyHostToDevice);
    cudaMemcpy(dcin, cin, 128 * k.nr * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dmeta, meta, 1024, cudaMemcpyHostToDevice);
    cudaMemset(dout, 0xee, 128 * k.nr * 4 + 4);
    k.f<<<1, k.threads, 65536>>>(dimg, dareg, dcin, dmeta, dout, da, db, astep, bstep, nk, scd);
    cudaError_t e = cudaDeviceSynchronize();
    if (e) { fprintf(stderr, "row %d: %s\n", id, cudaGetErrorString(e)); printf("FAILED %d\n", id); fclose(o); return 1; }
    int nw = k.threads * k.nr;
    cudaMemcpy(res, dout, 128 * k.nr * 4 + 4, cudaMemcpyDeviceToHost);
    // record: id, nwords, smem base, fnv(img), fnv(areg), fnv(cin), fnv(meta), then the D words
    uint64_t h[4] = {fnv(img, 65536), fnv((unsigned char*)areg, 4096), fnv((unsigned char*)cin, 128 * k.nr * 4), fnv((unsigned char*)meta, 1024)};
    int hdr[3] = {id, nw, (int)res[128 * k.nr]};
    fwrite(hdr, 4, 3, o); fwrite(h, 8, 4, o); fwrite(res, 4, nw, o);
    rows++;
  }
  fclose(o);
  printf("%d rows\n", rows);
  return 0;
}
'''

def table():
    out = []
    for kk in K:
        name, n, d, a, b, rs, ta, tb, sa, sb, sel, sat = kk
        out.append(f'  {{"{name}", {name}, {nregs(n, d)}, {ECODE[a]}, {ECODE[b]}, {DCODE[d]}, {MCODE[a]}, 128}},')
    out.append("#ifndef SP_WGMMA_ONLY")
    for mm in M:
        name, kk, d, a, sel, _ = mm
        na, nb, nc = mma_regs(kk, d, a)
        out.append(f'  {{"{name}", {name}, {nc}, {ECODE[a]}, {ECODE[a]}, {DCODE[d]}, {MCODE[a]}, 32}},')
    out.append("#endif")
    return "\n".join(out)

# ---------------- rows ----------------
SW = {0: 0, 1: 128, 2: 64, 3: 32}
ASPLIT = 16384  # A's part of the image; B's from here on

def desc(start, lbo, sbo, mode, base_off=0):
    assert start % 16 == 0 and lbo % 16 == 0 and sbo % 16 == 0 and lbo < (1 << 18) and sbo < (1 << 18)
    return (start >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (base_off << 49) | (mode << 62)

def layout(rng, rows, kb, mn_major):
    """A descriptor (start, lbo, sbo, mode), the byte step of a second k step and the extent, for
    a rows x K operand whose rows hold kb bytes of K (32: A, 64: B)."""
    mode = rng.choice([0, 1, 2, 3])
    sw = SW[mode]
    kc = kb // 16  # 16-byte core-matrix columns along K
    if not mn_major:
        if mode == 0:
            if rng.random() < 0.5:
                lbo, sbo = 128, 128 * kc          # core matrices K-inner
            else:
                lbo, sbo = (rows // 8) * 128, 128  # MN-inner
            if rng.random() < 0.3:
                lbo += 16 * rng.randrange(0, 8); sbo += 16 * rng.randrange(0, 8)
            step = kc * lbo if lbo >= sbo else (rows // 8) * sbo
            step = max(step, 16 * ((kc * lbo + (rows // 8) * sbo) // 16))
            start = 16 * rng.randrange(0, 8)
        else:
            sbo = 8 * sw * rng.choice([1, 1, 2])
            if kb > sw:
                # the row's K does not fit one swizzle atom: the next atom at LBO (a guess the
                # rows test: the atom after all rows, or a random distance)
                lbo = (rows // 8) * sbo if rng.random() < 0.5 else 16 * rng.randrange(8 * sw // 16, 1024)
                start = 0; step = 16 * ((lbo * (kb // sw) + (rows // 8) * sbo) // 16)
            else:
                lbo = 16 * rng.randrange(1, 64)  # ignored when K fits the swizzle atom
                if kb == sw:
                    start = 0; step = (rows // 8) * sbo
                else:
                    start = 32 * rng.randrange(0, (sw - kb) // 32 + 1)
                    step = (rows // 8) * sbo
        foot = start + (rows // 8) * sbo + kc * lbo + 256
    else:
        # MN-major 16-bit: core matrix 8 (MN) x 8 (K); K = kb / 2 rows
        kg = kb // 16  # groups of 8 K rows
        start = 0
        if mode == 0:
            if rng.random() < 0.5:
                sbo, lbo = 128, (rows // 8) * 128; step = kg * lbo
            else:
                lbo, sbo = 128, 128 * kg; step = (rows // 8) * sbo
        else:
            nat = max(1, rows * 2 // sw)
            if rng.random() < 0.5:
                lbo, sbo = 8 * sw, nat * 8 * sw; step = kg * sbo
            else:
                sbo, lbo = 8 * sw, kg * 8 * sw; step = nat * lbo
        foot = start + step + kg * sbo + 2 * lbo + (rows // 8 + 1) * max(lbo, sbo)
    return start, lbo, sbo, mode, step, foot

def rows_for(rng):
    out = []
    rid = 0
    for kk in K:
        name, n, d, a, b, rs, ta, tb, sa, sb, sel, sat = kk
        nrow = 4 if n <= 64 else 3
        for r in range(nrow + 2):
            cls = [0, 0, 1, 1, 2, 3][r] if r < 6 else rng.randrange(4)
            mode = [0, 1, 0, 2, 0, 1][r % 6]
            for _ in range(200):
                nk = rng.choice([1, 2])
                sa_, la, sba, ma, stepa, exa = layout(rng, 64, 32, ta == 1)
                sb_, lb, sbb, mb, stepb, exb = layout(rng, n, 64, tb == 1)
                if exa + (nk - 1) * stepa <= ASPLIT - 16 and exb + (nk - 1) * stepb <= 65536 - ASPLIT - 16:
                    break
            else:
                raise SystemExit(f"no layout fits for {name}")
            scd = 0 if r == 2 else 1
            da = desc(sa_, la, sba, ma)
            db = desc(ASPLIT + sb_, lb, sbb, mb)
            out.append(f"{rid}\t{name}\t{rng.randrange(1, 1 << 40)}\t{cls}\t{da:x}\t{db:x}\t{stepa}\t{stepb}\t{nk}\t{scd}\t{mode}")
            rid += 1
    for mm in M:
        name = mm[0]
        for r in range(6):
            cls = [0, 0, 1, 2, 3, 1][r]
            mode = ([0, 1, 1, 0, 2, 1] if mm[5] else [0, 2, 0, 0, 0, 2])[r]
            nk = rng.choice([1, 2])
            out.append(f"{rid}\t{name}\t{rng.randrange(1, 1 << 40)}\t{cls}\t0\t0\t0\t0\t{nk}\t{0 if r == 5 else 1}\t{mode}")
            rid += 1
    return out

if __name__ == "__main__":
    with open("sp_calib.cu", "w") as f:
        f.write("// Generated by gen.py: one kernel per sparse wgmma / mma.sp form.\n")
        f.write("#include <cuda_runtime.h>\n")
        for kk in K:
            f.write(kernel(kk))
        # -DSP_WGMMA_ONLY leaves out the mma.sp kernels (the PTX the wgmma tests replay)
        f.write("#ifndef SP_WGMMA_ONLY\n")
        for mm in M:
            f.write(mkernel(mm))
        f.write("#endif\n")
        f.write(HOST.replace("@TABLE@", table()))
    rng = random.Random(30)
    with open("rows.tsv", "w") as f:
        f.write("id\tkernel\tseed\tclass\tdesc_a\tdesc_b\tastep\tbstep\tnk\tscale_d\tmeta_mode\n")
        f.write("\n".join(rows_for(rng)) + "\n")
