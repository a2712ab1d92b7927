// Adjacent 16-bit shared stores: which ones ptxas pairs into one wider STS, and what the H200
// counts for them (calibration/halfst/README.md). Each kernel zeroes a 16 KB shared tile, writes
// 16-bit values by inline `st.shared.u16`/`.b16` (so the PTX keeps one store per half, as CuTe's
// epilogue has it) `reps` times, each thread and repetition to a place of its own (no two threads
// write one byte), and copies the tile out; the host prints a hash per launch.
#include <cstdint>
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define TILE 4096  // words

__device__ __forceinline__ uint32_t tile_base(uint32_t* s) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(s));
}

__device__ __forceinline__ void zero(uint32_t* s) {
  uint4* v = reinterpret_cast<uint4*>(s);
  for (int i = threadIdx.x; i < TILE / 4; i += blockDim.x) v[i] = make_uint4(0, 0, 0, 0);
  __syncthreads();
}

__device__ __forceinline__ void copy_out(uint32_t* s, uint32_t* out) {
  __syncthreads();
  for (int i = threadIdx.x; i < TILE; i += blockDim.x) out[blockIdx.x * TILE + i] = s[i];
}

__device__ __forceinline__ unsigned short val(int k) {
  return static_cast<unsigned short>((threadIdx.x * 40503u + blockIdx.x * 977u + k * 131u) >> 3);
}

// a word-aligned pair: [a] and [a+2]
__global__ void pair(uint32_t* out, int stride, int reps) {
  __shared__ __align__(16) uint32_t s[TILE];
  zero(s);
  for (int r = 0; r < reps; ++r) {
    uint32_t a = tile_base(s) + (((r * 128 + threadIdx.x) * stride) << 2);
    asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"(val(2 * r)) : "memory");
    asm volatile("st.shared.u16 [%0+2], %1;" ::"r"(a), "h"(val(2 * r + 1)) : "memory");
  }
  copy_out(s, out);
}

// the same pair, the upper half first
__global__ void pair_rev(uint32_t* out, int stride, int reps) {
  __shared__ __align__(16) uint32_t s[TILE];
  zero(s);
  for (int r = 0; r < reps; ++r) {
    uint32_t a = tile_base(s) + (((r * 128 + threadIdx.x) * stride) << 2);
    asm volatile("st.shared.b16 [%0+2], %1;" ::"r"(a), "h"(val(2 * r)) : "memory");
    asm volatile("st.shared.b16 [%0], %1;" ::"r"(a), "h"(val(2 * r + 1)) : "memory");
  }
  copy_out(s, out);
}

// adjacent halves across a word boundary: [a+2] and [a+4]
__global__ void odd(uint32_t* out, int stride, int reps) {
  __shared__ __align__(16) uint32_t s[TILE];
  zero(s);
  for (int r = 0; r < reps; ++r) {
    uint32_t a = tile_base(s) + (((r * 128 + threadIdx.x) * stride) << 3);
    asm volatile("st.shared.u16 [%0+2], %1;" ::"r"(a), "h"(val(2 * r)) : "memory");
    asm volatile("st.shared.u16 [%0+4], %1;" ::"r"(a), "h"(val(2 * r + 1)) : "memory");
  }
  copy_out(s, out);
}

// a gap between the halves: [a] and [a+4]
__global__ void gap(uint32_t* out, int stride, int reps) {
  __shared__ __align__(16) uint32_t s[TILE];
  zero(s);
  for (int r = 0; r < reps; ++r) {
    uint32_t a = tile_base(s) + (((r * 128 + threadIdx.x) * stride) << 3);
    asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"(val(2 * r)) : "memory");
    asm volatile("st.shared.u16 [%0+4], %1;" ::"r"(a), "h"(val(2 * r + 1)) : "memory");
  }
  copy_out(s, out);
}

// a word-aligned pair under two different predicates
__global__ void pred2(uint32_t* out, int stride, int reps) {
  __shared__ __align__(16) uint32_t s[TILE];
  zero(s);
  uint32_t p = threadIdx.x & 1, q = (threadIdx.x >> 1) & 1;
  for (int r = 0; r < reps; ++r) {
    uint32_t a = tile_base(s) + (((r * 128 + threadIdx.x) * stride) << 2);
    asm volatile(
        "{ .reg .pred p, q;\n setp.ne.u32 p, %2, 0;\n setp.ne.u32 q, %3, 0;\n"
        " @p st.shared.u16 [%0], %1;\n @q st.shared.u16 [%0+2], %4;\n}" ::"r"(a),
        "h"(val(2 * r)), "r"(p), "r"(q), "h"(val(2 * r + 1))
        : "memory");
  }
  copy_out(s, out);
}

// a word-aligned pair under one predicate
__global__ void pred1(uint32_t* out, int stride, int reps) {
  __shared__ __align__(16) uint32_t s[TILE];
  zero(s);
  uint32_t p = (threadIdx.x % 32) < 20;
  for (int r = 0; r < reps; ++r) {
    uint32_t a = tile_base(s) + (((r * 128 + threadIdx.x) * stride) << 2);
    asm volatile(
        "{ .reg .pred p;\n setp.ne.u32 p, %2, 0;\n"
        " @p st.shared.u16 [%0], %1;\n @p st.shared.u16 [%0+2], %3;\n}" ::"r"(a),
        "h"(val(2 * r)), "r"(p), "h"(val(2 * r + 1))
        : "memory");
  }
  copy_out(s, out);
}

// four halves of an 8-byte-aligned place
__global__ void quad(uint32_t* out, int stride, int reps) {
  __shared__ __align__(16) uint32_t s[TILE];
  zero(s);
  for (int r = 0; r < reps; ++r) {
    uint32_t a = tile_base(s) + (((r * 128 + threadIdx.x) * stride) << 3);
    asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"(val(4 * r)) : "memory");
    asm volatile("st.shared.u16 [%0+2], %1;" ::"r"(a), "h"(val(4 * r + 1)) : "memory");
    asm volatile("st.shared.u16 [%0+4], %1;" ::"r"(a), "h"(val(4 * r + 2)) : "memory");
    asm volatile("st.shared.u16 [%0+6], %1;" ::"r"(a), "h"(val(4 * r + 3)) : "memory");
  }
  copy_out(s, out);
}

// two word-aligned pairs 8 bytes apart, and a lone half after them
__global__ void pairs3(uint32_t* out, int stride, int reps) {
  __shared__ __align__(16) uint32_t s[TILE];
  zero(s);
  for (int r = 0; r < reps; ++r) {
    uint32_t a = tile_base(s) + (((r * 128 + threadIdx.x) * stride) << 4);
    asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"(val(5 * r)) : "memory");
    asm volatile("st.shared.u16 [%0+2], %1;" ::"r"(a), "h"(val(5 * r + 1)) : "memory");
    asm volatile("st.shared.u16 [%0+8], %1;" ::"r"(a), "h"(val(5 * r + 2)) : "memory");
    asm volatile("st.shared.u16 [%0+10], %1;" ::"r"(a), "h"(val(5 * r + 3)) : "memory");
    asm volatile("st.shared.u16 [%0+14], %1;" ::"r"(a), "h"(val(5 * r + 4)) : "memory");
  }
  copy_out(s, out);
}

// C++ halves as a CuTe epilogue writes them: converted floats to a row-major tile, two columns
// a thread
__global__ void cxx(uint32_t* out, int stride, int reps) {
  __shared__ __align__(16) uint32_t s[TILE];
  zero(s);
  __half* h = reinterpret_cast<__half*>(s);
  int row = threadIdx.x / 4, col = 2 * (threadIdx.x % 4) * stride;
  for (int r = 0; r < reps; ++r) {
    int i = (row + 32 * (r & 1)) * 64 + col + 16 * (r >> 1);
    h[i] = __float2half(0.25f * val(2 * r));
    h[i + 1] = __float2half(0.5f * val(2 * r + 1));
  }
  copy_out(s, out);
}

// the pair again, its trip count read from shared memory (a value the machine code's flow cannot
// know, as CuTe's mbarrier waits)
__global__ void flagged(uint32_t* out, int stride, int reps) {
  __shared__ __align__(16) uint32_t s[TILE];
  __shared__ int n;
  if (threadIdx.x == 0) n = reps;
  zero(s);
  for (int r = 0; r < n; ++r) {
    uint32_t a = tile_base(s) + (((r * 128 + threadIdx.x) * stride) << 3);
    asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"(val(2 * r)) : "memory");
    asm volatile("st.shared.u16 [%0+2], %1;" ::"r"(a), "h"(val(2 * r + 1)) : "memory");
    asm volatile("st.shared.u16 [%0+6], %1;" ::"r"(a), "h"(val(2 * r + 2)) : "memory");
  }
  copy_out(s, out);
}

typedef void (*Kernel)(uint32_t*, int, int);

int main() {
  struct {
    const char* name;
    Kernel k;
  } ks[] = {{"pair", pair},   {"pair_rev", pair_rev}, {"odd", odd},       {"gap", gap}, {"pred2", pred2},
            {"pred1", pred1}, {"quad", quad},         {"pairs3", pairs3}, {"cxx", cxx},
            {"flagged", flagged}};
  const int blocks = 2, threads = 128, reps = 3;
  uint32_t* d;
  cudaMalloc(&d, blocks * TILE * 4);
  static uint32_t hbuf[2 * TILE];
  for (auto& k : ks) {
    for (int stride = 1; stride <= 2; ++stride) {
      cudaMemset(d, 0xff, blocks * TILE * 4);
      k.k<<<blocks, threads>>>(d, stride, reps);
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) {
        printf("%s: %s\n", k.name, cudaGetErrorString(e));
        return 1;
      }
      cudaMemcpy(hbuf, d, blocks * TILE * 4, cudaMemcpyDeviceToHost);
      uint64_t f = 1469598103934665603ull;
      for (int i = 0; i < blocks * TILE; ++i) f = (f ^ hbuf[i]) * 1099511628211ull;
      printf("%s stride %d %016llx\n", k.name, stride, (unsigned long long)f);
    }
  }
  cudaFree(d);
  return 0;
}
