// The fp8 conversions of sm_89+ on every input class, for calibration/fp8 (own program): each
// conversion form the emulator lowers, over every f16 pattern, every pair of fp8 codes and a
// table of f32 values (specials, NaN payloads, both zeros, f32 subnormals, values at and beside
// every rounding boundary of both formats, and random bit patterns).
//   fp8_calib OUT.bin     writes the inputs and every form's outputs (layout: see main)
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

// f32 pairs: in[2i] to the upper byte, in[2i+1] to the lower; four forms a pair
__global__ void fromF32(const float *in, unsigned short *out, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pairs) return;
  float a = in[2 * i], b = in[2 * i + 1];
  unsigned short r0, r1, r2, r3;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r0) : "f"(a), "f"(b));
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r1) : "f"(a), "f"(b));
  asm("cvt.rn.satfinite.relu.e4m3x2.f32 %0, %1, %2;" : "=h"(r2) : "f"(a), "f"(b));
  asm("cvt.rn.satfinite.relu.e5m2x2.f32 %0, %1, %2;" : "=h"(r3) : "f"(a), "f"(b));
  out[i] = r0; out[pairs + i] = r1; out[2 * pairs + i] = r2; out[3 * pairs + i] = r3;
}

// f16x2 words: four forms a word
__global__ void fromF16(const unsigned *in, unsigned short *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned a = in[i];
  unsigned short r0, r1, r2, r3;
  asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(r0) : "r"(a));
  asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(r1) : "r"(a));
  asm("cvt.rn.satfinite.relu.e4m3x2.f16x2 %0, %1;" : "=h"(r2) : "r"(a));
  asm("cvt.rn.satfinite.relu.e5m2x2.f16x2 %0, %1;" : "=h"(r3) : "r"(a));
  out[i] = r0; out[n + i] = r1; out[2 * n + i] = r2; out[3 * n + i] = r3;
}

// fp8 pairs (every 16-bit pattern) widened to f16x2: four forms
__global__ void toF16(unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  unsigned short a = (unsigned short)i;
  unsigned r0, r1, r2, r3;
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r0) : "h"(a));
  asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(r1) : "h"(a));
  asm("cvt.rn.relu.f16x2.e4m3x2 %0, %1;" : "=r"(r2) : "h"(a));
  asm("cvt.rn.relu.f16x2.e5m2x2 %0, %1;" : "=r"(r3) : "h"(a));
  out[i] = r0; out[65536 + i] = r1; out[2 * 65536 + i] = r2; out[3 * 65536 + i] = r3;
}

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float fl(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: fp8_calib OUT.bin\n"); return 2; }
  // the f32 table
  std::vector<float> f;
  const uint32_t special[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
                              0x7f800001u, 0xff800001u, 0x7fffffffu, 0xffffffffu, 0x7fa00000u, 0x00000001u,
                              0x80000001u, 0x007fffffu, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu};
  for (uint32_t s : special) f.push_back(fl(s));
  // every exponent from 2^-30 to 2^20: the top 6 mantissa bits (k << 17) and the patterns one
  // ulp below and above each, both signs (every rounding boundary and tie of both formats, their
  // subnormals included)
  for (int e = -30; e <= 20; e++)
    for (uint32_t k = 0; k < 64; k++)
      for (int d = -1; d <= 1; d++)
        for (uint32_t sg = 0; sg < 2; sg++) {
          uint32_t u = (sg << 31) | ((uint32_t)(e + 127) << 23) | (k << 17);
          f.push_back(fl(u + d));
        }
  // random bit patterns (xorshift), and random values in the formats' ranges
  uint32_t x = 0x9e3779b9u;
  auto next = [&]() { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x; };
  for (int i = 0; i < 8192; i++) f.push_back(fl(next()));
  for (int i = 0; i < 16384; i++) {
    uint32_t r = next();
    int e = (int)(r % 48) - 28;
    f.push_back(fl((r & 0x80000000u) | ((uint32_t)(e + 127) << 23) | (next() & 0x7fffffu)));
  }
  if (f.size() % 2) f.push_back(0.0f);
  int pairs = (int)(f.size() / 2);
  // every f16 pattern in both halves: word i = (i << 16) | perm(i)
  std::vector<unsigned> h(65536);
  for (uint32_t i = 0; i < 65536; i++) h[i] = (i << 16) | ((i * 40503u + 12345u) & 0xffffu);

  float *df; unsigned *dh, *dw; unsigned short *o1, *o2;
  cudaMalloc(&df, f.size() * 4); cudaMalloc(&dh, 65536 * 4); cudaMalloc(&dw, 4 * 65536 * 4);
  cudaMalloc(&o1, 4 * pairs * 2); cudaMalloc(&o2, 4 * 65536 * 2);
  cudaMemcpy(df, f.data(), f.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dh, h.data(), 65536 * 4, cudaMemcpyHostToDevice);
  fromF32<<<(pairs + 255) / 256, 256>>>(df, o1, pairs);
  fromF16<<<256, 256>>>(dh, o2, 65536);
  toF16<<<256, 256>>>(dw);
  std::vector<unsigned short> r1(4 * pairs), r2(4 * 65536);
  std::vector<unsigned> r3(4 * 65536);
  cudaMemcpy(r1.data(), o1, r1.size() * 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(r2.data(), o2, r2.size() * 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(r3.data(), dw, r3.size() * 4, cudaMemcpyDeviceToHost);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(err)); return 1; }
  // layout: u32 pairs, then the f32 table (2 pairs floats), fromF32's 4 x pairs u16,
  // fromF16's 4 x 65536 u16 (inputs: word i = (i << 16) | ((i * 40503 + 12345) & 0xffff)),
  // toF16's 4 x 65536 u32 (input i)
  FILE *o = fopen(argv[1], "wb");
  uint32_t np = (uint32_t)pairs;
  fwrite(&np, 4, 1, o);
  fwrite(f.data(), 4, f.size(), o);
  fwrite(r1.data(), 2, r1.size(), o);
  fwrite(r2.data(), 2, r2.size(), o);
  fwrite(r3.data(), 4, r3.size(), o);
  fclose(o);
  // a summary a person can read: NaN and infinity codes
  printf("pairs %d\n", pairs);
  for (int i = 0; i < 9; i++)
    printf("f32 %08x %08x -> e4m3 %04x e5m2 %04x relu %04x %04x\n", bits(f[2 * i]), bits(f[2 * i + 1]),
           r1[i], r1[pairs + i], r1[2 * pairs + i], r1[3 * pairs + i]);
  printf("e4m3 0x7f7f -> %08x, 0xffff -> %08x; e5m2 0x7d7e -> %08x, 0xfcff -> %08x\n", r3[0x7f7f], r3[0xffff],
         r3[65536 + 0x7d7e], r3[65536 + 0xfcff]);
  printf("relu: e4m3 0xff80 -> %08x, 0x38b8 -> %08x; e5m2 0xfe80 -> %08x, 0x3cbc -> %08x\n", r3[131072 + 0xff80],
         r3[131072 + 0x38b8], r3[196608 + 0xfe80], r3[196608 + 0x3cbc]);
  return 0;
}
