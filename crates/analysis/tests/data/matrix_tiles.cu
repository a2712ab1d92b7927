// A 16x64 tile of halves staged with cp.async.cg (16 bytes per lane), read as four 16x16 A fragments
// with ldmatrix.x4 and written back with stmatrix.x4; one warp. Three layouts of the shared tile:
// row pitch 64 halves (128 B, column reads conflict), 72 halves (144 B, padded), 64 halves with the
// 16-byte chunk index XORed with the row (CuTe Swizzle<3,4,3> on bytes).
// Build: nvcc -arch=sm_90 -ptx -o matrix_tiles.ptx matrix_tiles.cu
#include <cuda_fp16.h>

template <int P, bool SWZ>
__device__ void tile(const __half* __restrict__ g, unsigned* __restrict__ out) {
  __shared__ __align__(128) __half s[16 * 72];
  unsigned lane = threadIdx.x;
  unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(s));
#pragma unroll
  for (int i = 0; i < 4; i++) {
    int chunk = i * 32 + lane, r = chunk / 8, c = chunk % 8;
    int cc = SWZ ? (c ^ (r % 8)) : c;
    unsigned dst = base + r * P * 2 + cc * 16;
    const __half* src = g + r * 64 + c * 8;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
  }
  asm volatile("cp.async.commit_group;\n cp.async.wait_group 0;" ::: "memory");
  __syncwarp();
  unsigned acc = 0;
#pragma unroll
  for (int k = 0; k < 4; k++) {
    int row = lane % 16, c = lane / 16 + 2 * k;
    int cc = SWZ ? (c ^ (row % 8)) : c;
    unsigned a = base + row * P * 2 + cc * 16;
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                 : "r"(a)
                 : "memory");
    acc ^= r0 + r1 * 3 + r2 * 5 + r3 * 7;
    __syncwarp();
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(r3),
                 "r"(r2), "r"(r1), "r"(r0)
                 : "memory");
  }
  out[lane] = acc;
}

extern "C" __global__ void tile128(const __half* g, unsigned* out) { tile<64, false>(g, out); }
extern "C" __global__ void tile144(const __half* g, unsigned* out) { tile<72, false>(g, out); }
extern "C" __global__ void tileSwizzled(const __half* g, unsigned* out) { tile<64, true>(g, out); }
