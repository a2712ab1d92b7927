#!/usr/bin/env python3
"""Writes wgmma_calib.cu (one kernel per wgmma form) and rows.tsv (the launches).

    python3 gen.py        # in calibration/wgmma: rewrites wgmma_calib.cu and rows.tsv

Every row fills a 64 KiB shared-memory image from a seeded generator (gen_elem in the .cu; the
tests carry the same generator), points the A and B descriptors into it and dumps every thread's
D registers after `nk` wgmma steps (the second step's descriptors advanced by astep / bstep bytes).
"""
import random

# (name, n, dtype, atype, btype, a_from_regs, trans_a, trans_b, scale_a, scale_b)
K = []
def k(n, d, a, b, rs=False, ta=0, tb=0, sa=1, sb=1):
    name = f"w_{d}_{a}_{b}_n{n}{'_rs' if rs else ''}_t{ta}{tb}" + ("" if (sa, sb) == (1, 1) else f"_s{'m' if sa < 0 else 'p'}{'m' if sb < 0 else 'p'}")
    K.append((name, n, d, a, b, rs, ta, tb, sa, sb))

for n in (8, 16, 24, 64, 128, 256): k(n, "f32", "f16", "f16")
k(64, "f32", "f16", "f16", ta=1, tb=1); k(32, "f32", "f16", "f16", ta=0, tb=1); k(32, "f32", "f16", "f16", ta=1, tb=0)
k(256, "f32", "f16", "f16", ta=1, tb=1)
k(16, "f32", "f16", "f16", sa=-1); k(16, "f32", "f16", "f16", sb=-1)
k(8, "f16", "f16", "f16"); k(64, "f16", "f16", "f16"); k(32, "f16", "f16", "f16", ta=1, tb=1)
k(64, "f32", "f16", "f16", rs=True); k(8, "f32", "f16", "f16", rs=True, tb=1); k(32, "f16", "f16", "f16", rs=True)
k(16, "f32", "f16", "f16", rs=True, sa=-1)
k(8, "f32", "bf16", "bf16"); k(64, "f32", "bf16", "bf16"); k(32, "f32", "bf16", "bf16", ta=1, tb=1)
k(32, "f32", "bf16", "bf16", rs=True)
k(8, "f32", "tf32", "tf32"); k(64, "f32", "tf32", "tf32"); k(256, "f32", "tf32", "tf32"); k(32, "f32", "tf32", "tf32", rs=True)
k(8, "f32", "e4m3", "e4m3"); k(64, "f32", "e4m3", "e4m3"); k(16, "f32", "e5m2", "e5m2"); k(32, "f32", "e4m3", "e5m2")
k(32, "f16", "e4m3", "e4m3"); k(16, "f32", "e4m3", "e4m3", rs=True); k(24, "f32", "e5m2", "e4m3", sa=-1, sb=-1)
k(8, "s32", "s8", "s8"); k(32, "s32", "s8", "s8"); k(256, "s32", "s8", "s8"); k(16, "s32", "u8", "s8")
k(24, "s32", "u8", "u8"); k(8, "s32", "s8", "u8"); k(16, "s32", "s8", "s8", rs=True)
k(8, "s32", "b1", "b1"); k(64, "s32", "b1", "b1"); k(256, "s32", "b1", "b1")

KDIM = {"f16": 16, "bf16": 16, "tf32": 8, "e4m3": 32, "e5m2": 32, "s8": 32, "u8": 32, "b1": 256}
ECODE = {"f16": 1, "bf16": 2, "tf32": 3, "e4m3": 4, "e5m2": 5, "s8": 6, "u8": 6, "b1": 7}
DCODE = {"f32": 8, "f16": 9, "s32": 10}

def nregs(n, d):
    return n // 4 if d == "f16" else n // 2

def asm_for(kk):
    name, n, d, a, b, rs, ta, tb, sa, sb = kk
    kd = KDIM[a]
    nr = nregs(n, d)
    dl = ", ".join(f"%{i}" for i in range(nr))
    base = nr
    if rs:
        aop = "{" + ", ".join(f"%{base + i}" for i in range(4)) + "}"
        nxt = base + 4
    else:
        aop = f"%{base}"; nxt = base + 1
    bop = f"%{nxt}"; pred = f"%{nxt + 1}"
    if a in ("s8", "u8"):
        op = f"wgmma.mma_async.sync.aligned.m64n{n}k{kd}.s32.{a}.{b}.satfinite"
        tail = "p"
    elif a == "b1":
        op = f"wgmma.mma_async.sync.aligned.m64n{n}k{kd}.s32.b1.b1.and.popc"
        tail = "p"
    elif a in ("f16", "bf16"):
        op = f"wgmma.mma_async.sync.aligned.m64n{n}k{kd}.{d}.{a}.{b}"
        tail = f"p, {sa}, {sb}, {tb}" if rs else f"p, {sa}, {sb}, {ta}, {tb}"
    else:
        op = f"wgmma.mma_async.sync.aligned.m64n{n}k{kd}.{d}.{a}.{b}"
        tail = f"p, {sa}, {sb}"
    s = '"{\\n.reg .pred p;\\nsetp.ne.b32 p, ' + pred + ', 0;\\n' + op + " {" + dl + "}, " + aop + ", " + bop + ", " + tail + ';\\n}\\n"'
    cons = "f" if d == "f32" else "r"
    outs = ", ".join(f'"+{cons}"(d[{i}])' for i in range(nr))
    ins = (", ".join(f'"r"(ar[{i}])' for i in range(4)) + ", " if rs else '"l"(da), ') + '"l"(db), "r"(sc)'
    return s, outs, ins

def kernel(kk):
    name, n, d, a, b, rs, ta, tb, sa, sb = kk
    nr = nregs(n, d)
    s, outs, ins = asm_for(kk)
    ty = "float" if d == "f32" else "unsigned"
    conv = "__uint_as_float" if d == "f32" else ""
    back = "__float_as_uint" if d == "f32" else ""
    return f"""
extern "C" __global__ void __launch_bounds__(128) {name}(const uint4* img, const unsigned* areg, const unsigned* cin,
    unsigned* out, unsigned long long desc_a, unsigned long long desc_b, int astep, int bstep, int nk, int scale_d) {{
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

HOST = r'''
// ---- host ----
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
typedef void (*KF)(const uint4*, const unsigned*, const unsigned*, unsigned*, unsigned long long, unsigned long long, int, int, int, int);
struct KI { const char* name; KF f; int nr, ea, eb, ed, rs; };
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

// a float format's bits: E exponent bits, M mantissa bits
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
      case 0: return (maxf << M);                              // +inf (e4m3: NaN-free pattern, see below)
      case 1: return (1u << (E + M)) | (maxf << M);            // -inf
      case 2: return (maxf << M) | mmask;                      // NaN
      case 3: return 1u << (E + M);                            // -0
      case 4: return (s << (E + M)) | ((maxf - 1) << M) | mmask; // largest finite (below inf)
      default: return (s << (E + M)) | 1;                     // smallest subnormal
    }
  }
  uint32_t e;
  if (cls == 2) e = (uint32_t)((r >> 1) % maxf);             // any finite exponent, subnormals too
  else e = bias + band_lo + (uint32_t)((r >> 1) % band_w);
  return (s << (E + M)) | (e << M) | ((uint32_t)(r >> 8) & mmask);
}
// element bits of kind ek (1 f16, 2 bf16, 3 tf32, 4 e4m3, 5 e5m2, 6 8-bit int, 7 b1 word,
// 8 f32 accumulator, 9 f16 accumulator, 10 s32 accumulator)
static uint32_t gen_elem(int ek, int cls, uint64_t r) {
  switch (ek) {
    case 1: return fgen(5, 10, cls, r, -3, 7);
    case 2: return fgen(8, 7, cls, r, -3, 7);
    case 3: return fgen(8, 23, cls, r, -3, 7);
    case 4: return fgen(4, 3, cls, r, -3, 7);
    case 5: return fgen(5, 2, cls, r, -3, 7);
    case 6:
      if (cls == 0) return (uint32_t)((r >> 8) % 9 + 252) & 0xff;  // -4..4
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
static int ebytes(int ek) { return ek == 1 || ek == 2 ? 2 : ek == 4 || ek == 5 || ek == 6 ? 1 : 4; }
// fills n bytes of element kind ek from the generator (stream, idx counted in elements)
static void fill(unsigned char* p, int nbytes, int ek, int cls, uint64_t seed, uint64_t stream) {
  int w = ebytes(ek);
  for (int i = 0; i < nbytes / w; i++) {
    uint32_t v = gen_elem(ek, cls, rnd(seed, stream, i));
    memcpy(p + i * w, &v, w);
  }
}
static void fill_words(unsigned* p, int nwords, int ek, int cls, uint64_t seed, uint64_t stream) {
  int w = ek == 9 ? 2 : 1;  // f16 accumulators: two per register
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
  if (argc < 3) { fprintf(stderr, "usage: %s ROWS.tsv OUT.bin [every]\n", argv[0]); return 2; }
  FILE* f = fopen(argv[1], "r");
  if (!f) { perror(argv[1]); return 2; }
  int only_first = argc > 3 && !strcmp(argv[3], "first");  // one launch per kernel (for ncu)
  int from = argc > 3 && !only_first ? atoi(argv[3]) : 0;     // resume after a failed row
  FILE* o = fopen(argv[2], from ? "ab" : "wb");
  if (!o) { perror(argv[2]); return 2; }
  for (auto& k : KS) {
    cudaError_t e = cudaFuncSetAttribute(k.f, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
    if (e) { fprintf(stderr, "%s: %s\n", k.name, cudaGetErrorString(e)); return 1; }
  }
  unsigned char* img = (unsigned char*)malloc(65536);
  unsigned *areg = (unsigned*)malloc(512 * 4), *cin = (unsigned*)malloc(128 * 128 * 4 + 64), *res = (unsigned*)malloc(128 * 128 * 4 + 64);
  uint4* dimg; unsigned *dareg, *dcin, *dout;
  cudaMalloc(&dimg, 65536); cudaMalloc(&dareg, 512 * 4); cudaMalloc(&dcin, 128 * 128 * 4 + 64); cudaMalloc(&dout, 128 * 128 * 4 + 64);
  char line[1024], seen[64] = {0};
  int rows = 0, bad = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == 'i') continue;
    int id, cls, astep, bstep, nk, scd; char kname[128]; unsigned long long seed, da, db;
    if (sscanf(line, "%d %127s %llu %d %llx %llx %d %d %d %d", &id, kname, &seed, &cls, &da, &db, &astep, &bstep, &nk, &scd) != 10) {
      fprintf(stderr, "bad row: %s", line); return 2;
    }
    int ki = -1;
    for (int i = 0; i < (int)(sizeof KS / sizeof KS[0]); i++) if (!strcmp(KS[i].name, kname)) ki = i;
    if (ki < 0) { fprintf(stderr, "unknown kernel %s\n", kname); return 2; }
    if (id < from) continue;
    if (only_first) { if (seen[ki]) continue; seen[ki] = 1; }
    KI& k = KS[ki];
    fill(img, 32768, k.ea, cls, seed, 1);
    fill(img + 32768, 32768, k.eb, cls, seed, 2);
    fill_words(areg, 512, k.ea == 7 ? 7 : k.ea, cls, seed, 3);
    if (k.ea != 3 && k.ea != 7) fill(( unsigned char*)areg, 2048, k.ea, cls, seed, 3);
    fill_words(cin, 128 * k.nr, k.ed, cls, seed, 4);
    cudaMemcpy(dimg, img, 65536, cudaMemcpyHostToDevice);
    cudaMemcpy(dareg, areg, 2048, cudaMemcpyHostToDevice);
    cudaMemcpy(dcin, cin, 128 * k.nr * 4, cudaMemcpyHostToDevice);
    cudaMemset(dout, 0xee, 128 * k.nr * 4 + 4);
    k.f<<<1, 128, 65536>>>(dimg, dareg, dcin, dout, da, db, astep, bstep, nk, scd);
    cudaError_t e = cudaDeviceSynchronize();
    if (e) { fprintf(stderr, "row %d: %s\n", id, cudaGetErrorString(e)); printf("FAILED %d\n", id); fclose(o); return 1; }
    cudaMemcpy(res, dout, 128 * k.nr * 4 + 4, cudaMemcpyDeviceToHost);
    // record: id, nwords, smem base, fnv(img), fnv(areg), fnv(cin), then the D words
    uint64_t h[3] = {fnv(img, 65536), fnv((unsigned char*)areg, 2048), fnv((unsigned char*)cin, 128 * k.nr * 4)};
    int hdr[3] = {id, 128 * k.nr, (int)res[128 * k.nr]};
    fwrite(hdr, 4, 3, o); fwrite(h, 8, 3, o); fwrite(res, 4, 128 * k.nr, o);
    rows++;
  }
  fclose(o);
  printf("%d rows\n", rows);
  return bad;
}
'''

def table():
    out = []
    for kk in K:
        name, n, d, a, b, rs, ta, tb, sa, sb = kk
        out.append(f'  {{"{name}", {name}, {nregs(n, d)}, {ECODE[a]}, {ECODE[b]}, {DCODE[d]}, {int(rs)}}},')
    return "\n".join(out)

# ---------------- rows ----------------
SW = {0: 0, 1: 128, 2: 64, 3: 32}  # descriptor mode -> swizzle bytes

def desc(start, lbo, sbo, mode, base_off=0):
    assert start % 16 == 0 and lbo % 16 == 0 and sbo % 16 == 0
    return (start >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (base_off << 49) | (mode << 62)

def layout(rng, rows, kbytes_rows, mn_major, ebytes, region):
    """A descriptor (start, lbo, sbo, mode) for a rows x K operand, and the byte step of a second k step.
    K-major: every row holds 32 bytes of K (two 16-byte core-matrix columns).
    MN-major (16-bit): K = 16 rows of `rows` elements."""
    mode = rng.choice([0, 1, 2, 3])
    sw = SW[mode]
    if not mn_major:
        if mode == 0:
            if rng.random() < 0.5:
                lbo, sbo = 128, 256          # core matrices K-inner
            else:
                lbo, sbo = (rows // 8) * 128, 128  # MN-inner
            if rng.random() < 0.3:
                lbo += 16 * rng.randrange(0, 8); sbo += 16 * rng.randrange(0, 8)
            step = 2 * lbo
            start = 16 * rng.randrange(0, 8)
        else:
            sbo = 8 * sw * rng.choice([1, 1, 2])
            lbo = 16 * rng.randrange(1, 64)  # ignored by the documented K-major swizzled layouts
            if sw == 32:
                start = 0; step = (rows // 8) * sbo
            else:
                start = 32 * rng.randrange(0, sw // 32 - 1); step = 32
        extent = start + step + (rows // 8) * sbo + 2 * lbo + 256
    else:
        # MN-major 16-bit: core matrix 8 (MN) x 8 (K); per CUTLASS's table SBO steps MN (no
        # swizzle) or K groups (swizzled), LBO the other one
        start = 0
        if mode == 0:
            if rng.random() < 0.5:
                sbo, lbo = 128, (rows // 8) * 128; step = 2 * lbo
            else:
                lbo, sbo = 128, 256; step = (rows // 8) * sbo
        else:
            nat = max(1, rows * 2 // sw)
            if rng.random() < 0.5:
                lbo, sbo = 8 * sw, nat * 8 * sw; step = 2 * sbo
            else:
                sbo, lbo = 8 * sw, 2 * 8 * sw; step = nat * lbo
        extent = start + 2 * step + 2 * sbo + 2 * lbo + (rows // 8 + 1) * max(lbo, sbo)
    return start, lbo, sbo, mode, step, extent

def rows_for(rng):
    out = []
    rid = 0
    for kk in K:
        name, n, d, a, b, rs, ta, tb, sa, sb = kk
        eb = 2 if a in ("f16", "bf16") else 1
        nrow = 3 if n <= 64 else 2
        for r in range(nrow + 2):
            cls = [0, 1, 1, 2, 3][r % 5] if r < 5 else rng.randrange(4)
            for _ in range(100):
                sa_, la, sba, ma, stepa, exa = layout(rng, 64, 32, ta == 1, eb, 0)
                sb_, lb, sbb, mb, stepb, exb = layout(rng, n, 32, tb == 1, eb, 1)
                if exa <= 32768 - 16 and exb <= 32768 - 16:
                    break
            else:
                raise SystemExit(f"no layout fits for {name}")
            nk = rng.choice([1, 2])
            scd = 0 if r == 1 else 1
            da = desc(sa_, la, sba, ma)
            db = desc(32768 + sb_, lb, sbb, mb)
            out.append(f"{rid}\t{name}\t{rng.randrange(1, 1 << 40)}\t{cls}\t{da:x}\t{db:x}\t{stepa}\t{stepb}\t{nk}\t{scd}")
            rid += 1
    # base-offset probes: 128B swizzle with nonzero base offset field
    for bo in (1, 3):
        name = "w_f32_f16_f16_n64_t00"
        da = desc(0, 16, 1024, 1, bo); db = desc(32768, 16, 1024, 1, 0)
        out.append(f"{rid}\t{name}\t{rng.randrange(1, 1 << 40)}\t0\t{da:x}\t{db:x}\t32\t32\t1\t1"); rid += 1
        da = desc(0, 16, 1024, 1, 0); db = desc(32768, 16, 1024, 1, bo)
        out.append(f"{rid}\t{name}\t{rng.randrange(1, 1 << 40)}\t0\t{da:x}\t{db:x}\t32\t32\t1\t1"); rid += 1
    return out

if __name__ == "__main__":
    with open("wgmma_calib.cu", "w") as f:
        f.write("// Generated by gen.py: one kernel per wgmma form (one warpgroup, 64 KiB dynamic shared image).\n")
        f.write("#include <cuda_runtime.h>\n")
        for kk in K:
            f.write(kernel(kk))
        f.write(HOST.replace("@TABLE@", table()))
    rng = random.Random(90)
    with open("rows.tsv", "w") as f:
        f.write("id\tkernel\tseed\tclass\tdesc_a\tdesc_b\tastep\tbstep\tnk\tscale_d\n")
        f.write("\n".join(rows_for(rng)) + "\n")
