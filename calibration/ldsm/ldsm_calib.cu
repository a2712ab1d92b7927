// ldmatrix (LDSM), stmatrix (STSM) and cp.async (LDGSTS) calibration: one kernel launch (one warp) per
// pattern of a patterns table, each executing exactly one LDSM / STSM / LDGSTS of the pattern's form.
// Run under Nsight Compute by run.sh.
//
// Usage: ldsm_calib PATTERNS.tsv CHUNK NCHUNKS IDS_OUT
//   launches every row whose index i satisfies i % NCHUNKS == CHUNK, in file order, and writes the ids it
//   launched (one a line) to IDS_OUT so the profiler's rows can be matched to patterns.
//
// Table columns: id, kind (ldsm|stsm|ldgsts), form, desc, a0..a31, g0..g31.
//   ldsm/stsm forms: x1 x2 x4 x1t x2t x4t (t = .trans); aL is lane L's row address (bytes into the shared
//     buffer), '-' = the lane's predicate is off (the instruction is predicated per lane).
//   ldgsts forms: ca4 ca8 ca16 cg16 cg16z0 (cg, 16 B, src-size 0: all zero-fill) cg16z8 (src-size 8);
//     aL is the shared destination, gL the global source (bytes into the source buffer), '-' = off.
// `warpscope calibrate` compiles the kernels alone with NVRTC (the host part is hidden under
// __CUDACC_RTC__) and launches them as main() does.
#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#endif

#define SMEM_BYTES 40960
#define GLOBAL_BYTES (4u << 20)
#define INACTIVE 0xffffffffu

// Addresses come from global memory so the compiler cannot fold them; the predicate is per lane.
#define LDSM_KERNEL(NAME, SHAPE)                                                                   \
  __global__ void NAME(const unsigned* __restrict__ addrs, const unsigned* __restrict__ src,       \
                       const unsigned char* __restrict__ in, unsigned* __restrict__ out) {        \
    __shared__ __align__(128) unsigned char smem[SMEM_BYTES];                                     \
    unsigned lane = threadIdx.x;                                                                  \
    unsigned a = addrs[lane];                                                                     \
    unsigned on = a != INACTIVE;                                                                  \
    unsigned p = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + (on ? a : 0u);           \
    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;                                                      \
    asm volatile("{\n .reg .pred q;\n setp.ne.u32 q, %5, 0;\n @q ldmatrix.sync.aligned." SHAPE   \
                 ".shared.b16 {%0, %1, %2, %3}, [%4];\n}"                                         \
                 : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3)                                         \
                 : "r"(p), "r"(on)                                                                \
                 : "memory");                                                                     \
    out[lane] = r0 ^ r1 ^ r2 ^ r3;                                                                \
  }

// x1 and x2 name fewer destination registers; the macro above is for x4, these for the others.
#define LDSM_KERNEL1(NAME, SHAPE)                                                                  \
  __global__ void NAME(const unsigned* __restrict__ addrs, const unsigned* __restrict__ src,       \
                       const unsigned char* __restrict__ in, unsigned* __restrict__ out) {        \
    __shared__ __align__(128) unsigned char smem[SMEM_BYTES];                                     \
    unsigned lane = threadIdx.x;                                                                  \
    unsigned a = addrs[lane];                                                                     \
    unsigned on = a != INACTIVE;                                                                  \
    unsigned p = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + (on ? a : 0u);           \
    unsigned r0 = 0;                                                                              \
    asm volatile("{\n .reg .pred q;\n setp.ne.u32 q, %2, 0;\n @q ldmatrix.sync.aligned." SHAPE   \
                 ".shared.b16 {%0}, [%1];\n}"                                                     \
                 : "+r"(r0)                                                                       \
                 : "r"(p), "r"(on)                                                                \
                 : "memory");                                                                     \
    out[lane] = r0;                                                                               \
  }

#define LDSM_KERNEL2(NAME, SHAPE)                                                                  \
  __global__ void NAME(const unsigned* __restrict__ addrs, const unsigned* __restrict__ src,       \
                       const unsigned char* __restrict__ in, unsigned* __restrict__ out) {        \
    __shared__ __align__(128) unsigned char smem[SMEM_BYTES];                                     \
    unsigned lane = threadIdx.x;                                                                  \
    unsigned a = addrs[lane];                                                                     \
    unsigned on = a != INACTIVE;                                                                  \
    unsigned p = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + (on ? a : 0u);           \
    unsigned r0 = 0, r1 = 0;                                                                      \
    asm volatile("{\n .reg .pred q;\n setp.ne.u32 q, %3, 0;\n @q ldmatrix.sync.aligned." SHAPE   \
                 ".shared.b16 {%0, %1}, [%2];\n}"                                                 \
                 : "+r"(r0), "+r"(r1)                                                             \
                 : "r"(p), "r"(on)                                                                \
                 : "memory");                                                                     \
    out[lane] = r0 ^ r1;                                                                          \
  }

#define STSM_KERNEL(NAME, SHAPE, REGS)                                                             \
  __global__ void NAME(const unsigned* __restrict__ addrs, const unsigned* __restrict__ src,       \
                       const unsigned char* __restrict__ in, unsigned* __restrict__ out) {        \
    __shared__ __align__(128) unsigned char smem[SMEM_BYTES];                                     \
    unsigned lane = threadIdx.x;                                                                  \
    unsigned a = addrs[lane];                                                                     \
    unsigned on = a != INACTIVE;                                                                  \
    unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));                        \
    unsigned p = base + (on ? a : 0u);                                                            \
    unsigned v = lane * 2654435761u;                                                              \
    asm volatile("{\n .reg .pred q;\n setp.ne.u32 q, %1, 0;\n @q stmatrix.sync.aligned." SHAPE   \
                 ".shared.b16 [%0], " REGS ";\n}"                                                 \
                 :                                                                                \
                 : "r"(p), "r"(on), "r"(v)                                                        \
                 : "memory");                                                                     \
    if (lane == 0) out[0] = base;                                                                 \
  }

// cp.async: the copy, its commit and a wait; the shared word is not read back (no other shared access).
#define LDGSTS_KERNEL(NAME, ASM)                                                                   \
  __global__ void NAME(const unsigned* __restrict__ addrs, const unsigned* __restrict__ src,       \
                       const unsigned char* __restrict__ in, unsigned* __restrict__ out) {        \
    __shared__ __align__(128) unsigned char smem[SMEM_BYTES];                                     \
    unsigned lane = threadIdx.x;                                                                  \
    unsigned a = addrs[lane];                                                                     \
    unsigned on = a != INACTIVE;                                                                  \
    unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));                        \
    unsigned p = base + (on ? a : 0u);                                                            \
    const unsigned char* g = in + (on ? src[lane] : 0u);                                          \
    asm volatile("{\n .reg .pred q;\n setp.ne.u32 q, %1, 0;\n @q " ASM ";\n"                     \
                 " cp.async.commit_group;\n cp.async.wait_group 0;\n}"                            \
                 :                                                                                \
                 : "r"(p), "r"(on), "l"(g)                                                        \
                 : "memory");                                                                     \
    if (lane == 0) out[0] = base;                                                                 \
  }

LDSM_KERNEL1(ldsm_x1, "m8n8.x1")
LDSM_KERNEL2(ldsm_x2, "m8n8.x2")
LDSM_KERNEL(ldsm_x4, "m8n8.x4")
LDSM_KERNEL1(ldsm_x1t, "m8n8.x1.trans")
LDSM_KERNEL2(ldsm_x2t, "m8n8.x2.trans")
LDSM_KERNEL(ldsm_x4t, "m8n8.x4.trans")
STSM_KERNEL(stsm_x1, "m8n8.x1", "{%2}")
STSM_KERNEL(stsm_x2, "m8n8.x2", "{%2, %2}")
STSM_KERNEL(stsm_x4, "m8n8.x4", "{%2, %2, %2, %2}")
STSM_KERNEL(stsm_x1t, "m8n8.x1.trans", "{%2}")
STSM_KERNEL(stsm_x2t, "m8n8.x2.trans", "{%2, %2}")
STSM_KERNEL(stsm_x4t, "m8n8.x4.trans", "{%2, %2, %2, %2}")
LDGSTS_KERNEL(ldgsts_ca4, "cp.async.ca.shared.global [%0], [%2], 4")
LDGSTS_KERNEL(ldgsts_ca8, "cp.async.ca.shared.global [%0], [%2], 8")
LDGSTS_KERNEL(ldgsts_ca16, "cp.async.ca.shared.global [%0], [%2], 16")
LDGSTS_KERNEL(ldgsts_cg16, "cp.async.cg.shared.global [%0], [%2], 16")
LDGSTS_KERNEL(ldgsts_cg16z0, "cp.async.cg.shared.global [%0], [%2], 16, 0")
LDGSTS_KERNEL(ldgsts_cg16z8, "cp.async.cg.shared.global [%0], [%2], 16, 8")

#ifndef __CUDACC_RTC__
typedef void (*Kernel)(const unsigned*, const unsigned*, const unsigned char*, unsigned*);

static Kernel pick(const std::string& kind, const std::string& form) {
  struct E { const char* k; const char* f; Kernel fn; };
  static const E table[] = {
      {"ldsm", "x1", ldsm_x1},       {"ldsm", "x2", ldsm_x2},         {"ldsm", "x4", ldsm_x4},
      {"ldsm", "x1t", ldsm_x1t},     {"ldsm", "x2t", ldsm_x2t},       {"ldsm", "x4t", ldsm_x4t},
      {"stsm", "x1", stsm_x1},       {"stsm", "x2", stsm_x2},         {"stsm", "x4", stsm_x4},
      {"stsm", "x1t", stsm_x1t},     {"stsm", "x2t", stsm_x2t},       {"stsm", "x4t", stsm_x4t},
      {"ldgsts", "ca4", ldgsts_ca4}, {"ldgsts", "ca8", ldgsts_ca8},   {"ldgsts", "ca16", ldgsts_ca16},
      {"ldgsts", "cg16", ldgsts_cg16}, {"ldgsts", "cg16z0", ldgsts_cg16z0},
      {"ldgsts", "cg16z8", ldgsts_cg16z8},
  };
  for (const E& e : table)
    if (kind == e.k && form == e.f) return e.fn;
  return nullptr;
}

#define CHECK(x)                                                                           \
  do {                                                                                     \
    cudaError_t e = (x);                                                                   \
    if (e != cudaSuccess) {                                                                \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s PATTERNS.tsv CHUNK NCHUNKS IDS_OUT\n", argv[0]);
    return 2;
  }
  int chunk = atoi(argv[2]), nchunks = atoi(argv[3]);
  std::ifstream in(argv[1]);
  if (!in) { fprintf(stderr, "cannot open %s\n", argv[1]); return 2; }
  FILE* ids = fopen(argv[4], "w");
  if (!ids) { fprintf(stderr, "cannot write %s\n", argv[4]); return 2; }
  unsigned *d_addrs, *d_src, *d_out;
  unsigned char* d_in;
  CHECK(cudaMalloc(&d_addrs, 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_src, 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_out, 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_in, GLOBAL_BYTES));
  CHECK(cudaMemset(d_in, 0x5a, GLOBAL_BYTES));
  std::string line;
  std::getline(in, line);  // header
  int row = 0, line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    int index = row++;
    if (index % nchunks != chunk) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, '\t')) f.push_back(cell);
    if (f.size() != 68) { fprintf(stderr, "line %d: %zu fields, want 68\n", line_no, f.size()); return 2; }
    Kernel k = pick(f[1], f[2]);
    if (!k) { fprintf(stderr, "line %d: unknown kind/form %s %s\n", line_no, f[1].c_str(), f[2].c_str()); return 2; }
    unsigned ha[32], hg[32];
    for (int l = 0; l < 32; ++l) {
      ha[l] = f[4 + l] == "-" ? INACTIVE : (unsigned)strtoul(f[4 + l].c_str(), 0, 10);
      hg[l] = (unsigned)strtoul(f[36 + l].c_str(), 0, 10);
      if (ha[l] != INACTIVE && ha[l] + 16 > SMEM_BYTES) { fprintf(stderr, "line %d: a%d out of range\n", line_no, l); return 2; }
      if (hg[l] + 16 > GLOBAL_BYTES) { fprintf(stderr, "line %d: g%d out of range\n", line_no, l); return 2; }
    }
    CHECK(cudaMemcpy(d_addrs, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_src, hg, sizeof hg, cudaMemcpyHostToDevice));
    k<<<1, 32>>>(d_addrs, d_src, d_in, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    fprintf(ids, "%s\t%s\t%s\n", f[0].c_str(), f[1].c_str(), f[2].c_str());
  }
  fclose(ids);
  return 0;
}
#endif  // __CUDACC_RTC__
