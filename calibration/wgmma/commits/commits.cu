// Which wgmma.commit_group ptxas turns into an HGMMA of its own (`HGMMA.64x8x16.F16 RZ,
// gdesc[URZ], RZ, !UPT, gsb0`), and what Nsight Compute counts of it. Each kernel is one
// warpgroup (or two, kV) running m64n8k16 f16 products from shared memory with the commit placed
// differently. Written for warpscope's calibration; see README.md.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define FENCE() asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory")
#define COMMIT() asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory")
#define WAIT0() asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory")
#define WAIT1() asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory")
#define MMA(d, da, db)                                                                           \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"                                     \
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, %4, %5, p, 1, " \
               "1, 0, 0;\n}\n"                                                                   \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                 \
               : "l"(da), "l"(db), "r"(1))

extern __shared__ __align__(1024) unsigned char smem[];

// no swizzle, K-major: 128-byte core matrices, leading byte offset 128, stride byte offset 1024
__device__ __forceinline__ uint64_t desc(const void* p) {
  uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
  return ((a & 0x3ffff) >> 4) | (8ull << 16) | (64ull << 32);
}

// shared memory filled with small halves (exact products), made visible to the async proxy
__device__ void fill() {
  uint16_t* h = (uint16_t*)smem;
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) h[i] = 0x3c00 + ((i * 7) % 5) * 0x100;
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
}

#define PROLOG            \
  fill();                 \
  float d[4] = {0, 0, 0, 0}; \
  uint64_t da = desc(smem), db = desc(smem + 8192);
#define EPILOG                                      \
  for (int j = 0; j < 4; j++) out[threadIdx.x * 4 + j] = d[j];

// straight line: folded into the second HGMMA
extern "C" __global__ void kA(float* out, int n) { PROLOG FENCE(); MMA(d, da, db); MMA(d, da, db); COMMIT(); WAIT0(); EPILOG }
// a loop of products, the commit after it: one HGMMA of ptxas's
extern "C" __global__ void kB(float* out, int n) { PROLOG FENCE(); for (int i = 0; i < n; i++) { MMA(d, da + i, db); } COMMIT(); WAIT0(); EPILOG }
// commit and wait inside the loop: folded
extern "C" __global__ void kC(float* out, int n) { PROLOG for (int i = 0; i < n; i++) { FENCE(); MMA(d, da + i, db); COMMIT(); WAIT0(); } EPILOG }
// the product under an if, the commit after the join
extern "C" __global__ void kD(float* out, int n) { PROLOG FENCE(); if (n > 3) { MMA(d, da, db); } COMMIT(); WAIT0(); EPILOG }
// an empty group
extern "C" __global__ void kE(float* out, int n) { PROLOG FENCE(); COMMIT(); WAIT0(); EPILOG }
// a global store between the product and the commit: folded
extern "C" __global__ void kF(float* out, int n) { PROLOG FENCE(); MMA(d, da, db); out[1024 + n] = 1.0f; COMMIT(); WAIT0(); EPILOG }
// two commits in a row: the second is ptxas's
extern "C" __global__ void kG(float* out, int n) { PROLOG FENCE(); MMA(d, da, db); COMMIT(); COMMIT(); WAIT0(); EPILOG }
// __syncthreads between: folded
extern "C" __global__ void kH(float* out, int n) { PROLOG FENCE(); MMA(d, da, db); __syncthreads(); COMMIT(); WAIT0(); EPILOG }
// a product on each side of an if
extern "C" __global__ void kI(float* out, int n) { PROLOG FENCE(); if (n > 3) { MMA(d, da, db); } else { MMA(d, da + 2, db); } COMMIT(); WAIT0(); EPILOG }
// commits in a loop, then a product and a commit after it: all folded
extern "C" __global__ void kJ(float* out, int n) { PROLOG for (int i = 0; i < n; i++) { FENCE(); MMA(d, da + i, db); COMMIT(); } MMA(d, da, db); COMMIT(); WAIT0(); EPILOG }
// pipelined (wait_group 1), CUTLASS's way: folded
extern "C" __global__ void kK(float* out, int n) { PROLOG FENCE(); MMA(d, da, db); COMMIT(); for (int i = 1; i < n; i++) { FENCE(); MMA(d, da + i, db); COMMIT(); WAIT1(); } WAIT0(); EPILOG }
// a store under an if between: folded
extern "C" __global__ void kL(float* out, int n) { PROLOG FENCE(); MMA(d, da, db); if (n > 3) out[1024 + n] = 1.0f; COMMIT(); WAIT0(); EPILOG }
// mixed: a folded commit, then a loop of products with the commit after it (ptxas's)
extern "C" __global__ void kM(float* out, int n) { PROLOG FENCE(); MMA(d, da, db); COMMIT(); for (int i = 0; i < n; i++) { MMA(d, da + i, db); } COMMIT(); WAIT0(); EPILOG }
// a wgmma.fence between the product and the commit
extern "C" __global__ void kO(float* out, int n) { PROLOG FENCE(); MMA(d, da, db); FENCE(); COMMIT(); WAIT0(); EPILOG }
// a wait between the product and the commit
extern "C" __global__ void kQ(float* out, int n) { PROLOG FENCE(); MMA(d, da, db); WAIT0(); COMMIT(); WAIT0(); EPILOG }
// a loop of stores between the product and the commit
extern "C" __global__ void kT(float* out, int n) { PROLOG FENCE(); MMA(d, da, db); for (int i = 0; i < n; i++) out[1024 + i] = 0; COMMIT(); WAIT0(); EPILOG }
// a named barrier under an if between: folded
extern "C" __global__ void kU(float* out, int n) { PROLOG FENCE(); MMA(d, da, db); if (n > 3) asm volatile("bar.sync 1, 128;"); COMMIT(); WAIT0(); EPILOG }
// two warpgroups, only the second runs kB's loop and commit
extern "C" __global__ void kV(float* out, int n) {
  PROLOG
  if (threadIdx.x >= 128) { FENCE(); for (int i = 0; i < n; i++) { MMA(d, da + i, db); } COMMIT(); WAIT0(); }
  EPILOG
}

typedef void (*K)(float*, int);
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5;
  struct { const char* name; K k; int threads; } ks[] = {
      {"kA", kA, 128}, {"kB", kB, 128}, {"kC", kC, 128}, {"kD", kD, 128}, {"kE", kE, 128},
      {"kF", kF, 128}, {"kG", kG, 128}, {"kH", kH, 128}, {"kI", kI, 128}, {"kJ", kJ, 128},
      {"kK", kK, 128}, {"kL", kL, 128}, {"kM", kM, 128}, {"kO", kO, 128}, {"kQ", kQ, 128},
      {"kT", kT, 128}, {"kU", kU, 128}, {"kV", kV, 256}};
  float* out;
  cudaMalloc(&out, 4096 * sizeof(float));
  float host[1024];
  for (auto& k : ks) {
    cudaMemset(out, 0, 4096 * sizeof(float));
    k.k<<<2, k.threads, 16384>>>(out, n);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("%s: %s\n", k.name, cudaGetErrorString(e)); return 1; }
    cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    double s = 0;
    for (int i = 0; i < 1024; i++) s += host[i] * (1 + i % 3);
    printf("%s %.1f\n", k.name, s);
  }
  return 0;
}
