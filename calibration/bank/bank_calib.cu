// Shared-memory bank calibration: one kernel launch (one warp) per pattern of patterns.tsv, each doing
// exactly one shared-memory access of the pattern's width and op. Run under Nsight Compute by run.sh.
//
// Usage: bank_calib PATTERNS.tsv CHUNK NCHUNKS IDS_OUT
//   op ld, st, or ldg (8/16-byte loads through the ghost kernels: a cell gN is an inactive lane whose
//   address register holds N);
//   launches every row whose index i satisfies i % NCHUNKS == CHUNK, in file order, and writes the ids
//   it launched (one a line) to IDS_OUT so the profiler's rows can be matched to patterns.
// `warpscope calibrate` compiles this file with NVRTC (kernels only: the host part is left out
// under __CUDACC_RTC__).
#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <fstream>
#include <sstream>
#endif

#define SMEM_BYTES 32768
#define INACTIVE 0xffffffffu

// The address comes from global memory so the compiler cannot fold, fuse or drop the access; inline PTX
// with `volatile` fixes the width. Inactive lanes branch around it.
#define LD_KERNEL(NAME, ASM, ...)                                                        \
  __global__ void NAME(const unsigned* __restrict__ addrs, unsigned* __restrict__ out) { \
    __shared__ __align__(16) unsigned char smem[SMEM_BYTES];                             \
    unsigned lane = threadIdx.x;                                                         \
    unsigned a = addrs[lane];                                                            \
    unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));               \
    unsigned v0 = 0, v1 = 0, v2 = 0, v3 = 0;                                             \
    if (a != INACTIVE) {                                                                 \
      unsigned p = base + a;                                                             \
      asm volatile(ASM : __VA_ARGS__ : "r"(p) : "memory");                               \
    }                                                                                    \
    out[lane] = v0 ^ v1 ^ v2 ^ v3;                                                       \
  }

#define ST_KERNEL(NAME, ASM)                                                             \
  __global__ void NAME(const unsigned* __restrict__ addrs, unsigned* __restrict__ out) { \
    __shared__ __align__(16) unsigned char smem[SMEM_BYTES];                             \
    unsigned lane = threadIdx.x;                                                         \
    unsigned a = addrs[lane];                                                            \
    unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));               \
    if (a != INACTIVE) {                                                                 \
      unsigned p = base + a;                                                             \
      unsigned v = lane * 2654435761u;                                                   \
      asm volatile(ASM : : "r"(p), "r"(v) : "memory");                                   \
    }                                                                                    \
    if (lane == 0) out[0] = base;                                                        \
  }

LD_KERNEL(bank_ld_w1, "ld.volatile.shared.u8 %0, [%1];", "=r"(v0))
LD_KERNEL(bank_ld_w2, "ld.volatile.shared.u16 %0, [%1];", "=r"(v0))
LD_KERNEL(bank_ld_w4, "ld.volatile.shared.u32 %0, [%1];", "=r"(v0))
LD_KERNEL(bank_ld_w8, "ld.volatile.shared.v2.u32 {%0, %1}, [%2];", "=r"(v0), "=r"(v1))
LD_KERNEL(bank_ld_w16, "ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];", "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3))
// Ghost kernels: the lane's address register is computed for every lane from the low 31 bits, and
// bit 31 turns the lane off, so an inactive lane holds a chosen address (pattern cell `gN`).
#define LDG_KERNEL(NAME, ASM, ...)                                                       \
  __global__ void NAME(const unsigned* __restrict__ addrs, unsigned* __restrict__ out) { \
    __shared__ __align__(16) unsigned char smem[SMEM_BYTES];                             \
    unsigned lane = threadIdx.x;                                                         \
    unsigned a = addrs[lane];                                                            \
    unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));               \
    unsigned v0 = 0, v1 = 0, v2 = 0, v3 = 0;                                             \
    unsigned p = base + (a & 0x7fffffffu);                                               \
    if ((a >> 31) == 0) {                                                                \
      asm volatile(ASM : __VA_ARGS__ : "r"(p) : "memory");                               \
    }                                                                                    \
    out[lane] = v0 ^ v1 ^ v2 ^ v3 ^ p;                                                   \
  }

LDG_KERNEL(bank_ldg_w8, "ld.volatile.shared.v2.u32 {%0, %1}, [%2];", "=r"(v0), "=r"(v1))
LDG_KERNEL(bank_ldg_w16, "ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];", "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3))
ST_KERNEL(bank_st_w1, "st.volatile.shared.u8 [%0], %1;")
ST_KERNEL(bank_st_w2, "st.volatile.shared.u16 [%0], %1;")
ST_KERNEL(bank_st_w4, "st.volatile.shared.u32 [%0], %1;")
ST_KERNEL(bank_st_w8, "st.volatile.shared.v2.u32 [%0], {%1, %1};")
ST_KERNEL(bank_st_w16, "st.volatile.shared.v4.u32 [%0], {%1, %1, %1, %1};")

#ifndef __CUDACC_RTC__
typedef void (*Kernel)(const unsigned*, unsigned*);

static Kernel pick(int width, bool load, bool ghost) {
  if (ghost) return width == 8 ? bank_ldg_w8 : width == 16 ? bank_ldg_w16 : nullptr;
  switch (width) {
    case 1: return load ? bank_ld_w1 : bank_st_w1;
    case 2: return load ? bank_ld_w2 : bank_st_w2;
    case 4: return load ? bank_ld_w4 : bank_st_w4;
    case 8: return load ? bank_ld_w8 : bank_st_w8;
    case 16: return load ? bank_ld_w16 : bank_st_w16;
  }
  return nullptr;
}

#define CHECK(x)                                                                    \
  do {                                                                              \
    cudaError_t e = (x);                                                            \
    if (e != cudaSuccess) {                                                         \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      exit(1);                                                                      \
    }                                                                               \
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
  unsigned *d_addrs, *d_out;
  CHECK(cudaMalloc(&d_addrs, 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_out, 32 * sizeof(unsigned)));
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
    if (f.size() != 36) { fprintf(stderr, "line %d: %zu fields, want 36\n", line_no, f.size()); return 2; }
    int width = atoi(f[1].c_str());
    bool ghost = f[2] == "ldg";
    bool load = f[2] == "ld" || ghost;
    Kernel k = pick(width, load, ghost);
    if (!k || (!load && f[2] != "st")) { fprintf(stderr, "line %d: bad width/op\n", line_no); return 2; }
    unsigned h[32];
    for (int l = 0; l < 32; ++l) {
      const std::string& c = f[4 + l];
      if (c == "-") h[l] = INACTIVE;
      else if (c[0] == 'g' && ghost) h[l] = 0x80000000u | (unsigned)strtoul(c.c_str() + 1, 0, 10);
      else if (c[0] >= '0' && c[0] <= '9') h[l] = (unsigned)strtoul(c.c_str(), 0, 10);
      else { fprintf(stderr, "line %d: bad cell %s\n", line_no, c.c_str()); return 2; }
    }
    CHECK(cudaMemcpy(d_addrs, h, sizeof h, cudaMemcpyHostToDevice));
    k<<<1, 32>>>(d_addrs, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    fprintf(ids, "%s\t%d\t%s\n", f[0].c_str(), width, f[2].c_str());
  }
  fclose(ids);
  return 0;
}
#endif  // __CUDACC_RTC__
