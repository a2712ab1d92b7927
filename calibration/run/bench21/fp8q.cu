// Low-precision conversions and math: per-block scaled quantization of floats to
// __nv_fp8_e4m3 (satfinite) and __nv_fp8_e5m2, pairs through __nv_fp8x2_e4m3 from float2,
// dequantized back; the block's absolute maximum by __reduce_max_sync on the bits; a histogram
// of the e4m3 codes in shared memory; __half2 and __nv_bfloat162 fused multiply-adds, __hmax2,
// __habs2 and h2sqrt over the dequantized pairs. Checked bit for bit against the host's
// conversions (the same headers' host paths); prints hashes and sums.
#include <cuda_fp8.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <cstring>
#include <vector>

constexpr int BLK = 256;
constexpr int PER = 16;  // floats a thread

__global__ void quant(const float* in, unsigned char* q4, unsigned char* q5, float* scales,
                      unsigned* hist) {
  __shared__ unsigned sh[256];
  __shared__ unsigned wmax[BLK / 32];
  __shared__ float scale;
  sh[threadIdx.x] = 0;
  const float* p = in + ((size_t)blockIdx.x * BLK + threadIdx.x) * PER;
  unsigned m = 0;
  for (int i = 0; i < PER; ++i) m = max(m, __float_as_uint(p[i]) & 0x7fffffffu);
  m = __reduce_max_sync(0xffffffffu, m);
  if ((threadIdx.x & 31) == 0) wmax[threadIdx.x / 32] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned b = 0;
    for (int w = 0; w < BLK / 32; ++w) b = max(b, wmax[w]);
    float amax = __uint_as_float(b);
    scale = amax > 0.0f ? 448.0f / amax : 1.0f;
    scales[blockIdx.x] = scale;
  }
  __syncthreads();
  size_t o = ((size_t)blockIdx.x * BLK + threadIdx.x) * PER;
  for (int i = 0; i < PER; i += 2) {
    float2 v = make_float2(p[i] * scale, p[i + 1] * scale);
    __nv_fp8x2_e4m3 pr(v);
    unsigned short raw = pr.__x;
    q4[o + i] = raw & 0xff;
    q4[o + i + 1] = raw >> 8;
    atomicAdd(&sh[raw & 0xff], 1u);
    atomicAdd(&sh[raw >> 8], 1u);
    __nv_fp8_e5m2 a(p[i]), b(p[i + 1]);
    q5[o + i] = a.__x;
    q5[o + i + 1] = b.__x;
  }
  __syncthreads();
  if (sh[threadIdx.x]) atomicAdd(&hist[threadIdx.x], sh[threadIdx.x]);
}

// dequantize pairs and combine them in half2 and bfloat162 arithmetic
__global__ void mix(const unsigned char* q4, const unsigned char* q5, const float* scales,
                    unsigned* hbits, unsigned* bbits, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
  if (i >= n) return;
  __nv_fp8x2_e4m3 a;
  a.__x = (unsigned short)(q4[i] | (q4[i + 1] << 8));
  __nv_fp8_e5m2 b0, b1;
  b0.__x = q5[i];
  b1.__x = q5[i + 1];
  float inv = 1.0f / scales[i / (BLK * PER)];
  __half2 ha = static_cast<__half2>(a);  // fp8x2 -> half2
  __half2 hs = __float2half2_rn(inv);
  __half2 hb = __halves2half2(static_cast<__half>(b0), static_cast<__half>(b1));
  __half2 h = __hfma2(ha, hs, __hneg2(hb));
  h = __hmax2(__habs2(h), __float2half2_rn(0.0625f));
  h = h2sqrt(h);
  float2 fa = static_cast<float2>(a);
  __nv_bfloat162 ba = __floats2bfloat162_rn(fa.x * inv, fa.y * inv);
  __nv_bfloat162 bb = __floats2bfloat162_rn(float(b0), float(b1));
  __nv_bfloat162 r = __hfma2(ba, bb, __float2bfloat162_rn(1.5f));
  r = __hmin2(r, __float2bfloat162_rn(1000.0f));
  hbits[i / 2] = *reinterpret_cast<unsigned*>(&h);
  bbits[i / 2] = *reinterpret_cast<unsigned*>(&r);
}

static unsigned short hb16(__half h) { unsigned short u; memcpy(&u, &h, 2); return u; }
static unsigned short bb16(__nv_bfloat16 h) { unsigned short u; memcpy(&u, &h, 2); return u; }

int main() {
  const int B = 320;
  const int N = B * BLK * PER;
  std::vector<float> in(N);
  unsigned s = 4242;
  for (int i = 0; i < N; ++i) {
    s = s * 1664525u + 1013904223u;
    float mag = (float)((s >> 8) & 0xffff) / 65536.0f;
    int ex = (int)((s >> 3) & 31) - 16;                   // 2^-16 .. 2^15
    float v = ldexpf(mag + 0.001f, ex);
    if ((s & 7) == 0) v = -v;
    if ((s & 0x3ff) == 5) v = 0.0f;
    in[i] = v;
  }
  float* din; unsigned char *q4, *q5; float* sc; unsigned *hist, *hb, *bbv;
  cudaMalloc(&din, N * 4); cudaMalloc(&q4, N); cudaMalloc(&q5, N); cudaMalloc(&sc, B * 4);
  cudaMalloc(&hist, 256 * 4); cudaMalloc(&hb, N / 2 * 4); cudaMalloc(&bbv, N / 2 * 4);
  cudaMemcpy(din, in.data(), N * 4, cudaMemcpyHostToDevice);
  cudaMemset(hist, 0, 1024);
  quant<<<B, BLK>>>(din, q4, q5, sc, hist);
  mix<<<(N / 2 + 255) / 256, 256>>>(q4, q5, sc, hb, bbv, N);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 2; }
  std::vector<unsigned char> g4(N), g5(N);
  std::vector<float> gs(B);
  std::vector<unsigned> gh(256), ghb(N / 2), gbb(N / 2);
  cudaMemcpy(g4.data(), q4, N, cudaMemcpyDeviceToHost);
  cudaMemcpy(g5.data(), q5, N, cudaMemcpyDeviceToHost);
  cudaMemcpy(gs.data(), sc, B * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(gh.data(), hist, 1024, cudaMemcpyDeviceToHost);
  cudaMemcpy(ghb.data(), hb, N / 2 * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(gbb.data(), bbv, N / 2 * 4, cudaMemcpyDeviceToHost);
  int bad = 0, badh = 0, badb = 0;
  std::vector<unsigned> hh(256, 0);
  unsigned h4 = 2166136261u, h5 = 2166136261u, hh2 = 0, hbf = 0;
  for (int b = 0; b < B; ++b) {
    float amax = 0;
    for (int i = 0; i < BLK * PER; ++i) amax = fmaxf(amax, fabsf(in[(size_t)b * BLK * PER + i]));
    float scale = amax > 0.0f ? 448.0f / amax : 1.0f;
    if (scale != gs[b]) ++bad;
    for (int i = 0; i < BLK * PER; ++i) {
      size_t k = (size_t)b * BLK * PER + i;
      __nv_fp8_storage_t c4 = __nv_cvt_float_to_fp8(in[k] * scale, __NV_SATFINITE, __NV_E4M3);
      __nv_fp8_storage_t c5 = __nv_cvt_float_to_fp8(in[k], __NV_SATFINITE, __NV_E5M2);
      if (c4 != g4[k] || c5 != g5[k]) ++bad;
      hh[c4]++;
      h4 = (h4 ^ g4[k]) * 16777619u;
      h5 = (h5 ^ g5[k]) * 16777619u;
    }
  }
  for (int c = 0; c < 256; ++c) if (hh[c] != gh[c]) ++bad;
  for (int j = 0; j < N / 2; ++j) {
    int i = 2 * j;
    __nv_fp8x2_e4m3 a; a.__x = (unsigned short)(g4[i] | (g4[i + 1] << 8));
    __nv_fp8_e5m2 b0, b1; b0.__x = g5[i]; b1.__x = g5[i + 1];
    float inv = 1.0f / gs[i / (BLK * PER)];
    float2 fa = static_cast<float2>(a);
    __half ha0 = __float2half_rn(fa.x), ha1 = __float2half_rn(fa.y), hs = __float2half_rn(inv);
    __half hb0 = __float2half_rn(float(b0)), hb1 = __float2half_rn(float(b1));
    float r0 = __half2float(__float2half_rn(__half2float(ha0) * __half2float(hs) - __half2float(hb0)));
    float r1 = __half2float(__float2half_rn(__half2float(ha1) * __half2float(hs) - __half2float(hb1)));
    r0 = fmaxf(fabsf(r0), 0.0625f); r1 = fmaxf(fabsf(r1), 0.0625f);
    unsigned short x0 = hb16(__float2half_rn(sqrtf(r0))), x1 = hb16(__float2half_rn(sqrtf(r1)));
    unsigned want = x0 | ((unsigned)x1 << 16);
    if (want != ghb[j]) ++badh;
    float ba0 = __bfloat162float(__float2bfloat16_rn(fa.x * inv)), ba1 = __bfloat162float(__float2bfloat16_rn(fa.y * inv));
    float bb0 = __bfloat162float(__float2bfloat16_rn(float(b0))), bb1 = __bfloat162float(__float2bfloat16_rn(float(b1)));
    float q0 = fminf(__bfloat162float(__float2bfloat16_rn(fmaf(ba0, bb0, 1.5f))), 1000.0f);
    float q1 = fminf(__bfloat162float(__float2bfloat16_rn(fmaf(ba1, bb1, 1.5f))), 1000.0f);
    unsigned wantb = bb16(__float2bfloat16_rn(q0)) | ((unsigned)bb16(__float2bfloat16_rn(q1)) << 16);
    if (wantb != gbb[j]) ++badb;
    hh2 = hh2 * 31u + ghb[j];
    hbf = hbf * 31u + gbb[j];
  }
  // the half sqrt may round differently from the host's float sqrt rounded to half: allow none
  bad += badh + badb;
  printf("quant: e4m3 hash %08x e5m2 hash %08x code 0x7e %u code 0x00 %u scale0 %.6g\n", h4, h5, gh[0x7e], gh[0], gs[0]);
  printf("mix: half2 hash %08x bf162 hash %08x (%d half, %d bf16 differ)\n", hh2, hbf, badh, badb);
  printf("%s (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
