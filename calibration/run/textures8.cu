// Texture objects over 8- and 16-bit channels: what a fetch returns for every texel value, read as
// normalised floats (unsigned / 255, signed / 127 clamped at -1, 16-bit / 65535 and / 32767), as
// the element type (zero- or sign-extended), and as half floats; then linear filtering of 8-bit
// and half texels. Every result is printed as its bits, so the emulator's output can be compared
// with the GPU's byte for byte.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x)                                                                      \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_));        \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

__global__ void sampleF(cudaTextureObject_t t, const float *xs, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, xs[i], 0.5f);
}

__global__ void sampleU(cudaTextureObject_t t, const float *xs, uint4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<uint4>(t, xs[i], 0.5f);
}

__global__ void sampleI(cudaTextureObject_t t, const float *xs, int4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<int4>(t, xs[i], 0.5f);
}

static float *dxs;
static void *dout;

// A width x 1 CUDA array of `desc` holding `bytes`, sampled at `xs` by the kernel `kind`
// ('f', 'u', 'i'); prints `name` and each result's four words in hex.
static int run(const char *name, cudaChannelFormatDesc desc, const void *bytes, int width, cudaTextureReadMode mode,
               cudaTextureFilterMode filter, const float *xs, int n, char kind) {
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &desc, width, 1));
  size_t texel = (desc.x + desc.y + desc.z + desc.w) / 8;
  CHECK(cudaMemcpy2DToArray(a, 0, 0, bytes, width * texel, width * texel, 1, cudaMemcpyHostToDevice));
  cudaResourceDesc res;
  memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc td;
  memset(&td, 0, sizeof(td));
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = filter;
  td.readMode = mode;
  td.normalizedCoords = 0;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
  CHECK(cudaMemcpy(dxs, xs, n * sizeof(float), cudaMemcpyHostToDevice));
  if (kind == 'f') sampleF<<<(n + 127) / 128, 128>>>(t, dxs, (float4 *)dout, n);
  if (kind == 'u') sampleU<<<(n + 127) / 128, 128>>>(t, dxs, (uint4 *)dout, n);
  if (kind == 'i') sampleI<<<(n + 127) / 128, 128>>>(t, dxs, (int4 *)dout, n);
  CHECK(cudaGetLastError());
  unsigned h[4 * 512];
  CHECK(cudaMemcpy(h, dout, n * 16, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) printf("%s %d: %08x %08x %08x %08x\n", name, i, h[4 * i], h[4 * i + 1], h[4 * i + 2], h[4 * i + 3]);
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(a));
  return 0;
}

int main() {
  CHECK(cudaMalloc(&dxs, 512 * sizeof(float)));
  CHECK(cudaMalloc(&dout, 512 * 16));
  float centres[256], fractions[129];
  for (int i = 0; i < 256; ++i) centres[i] = i + 0.5f;
  // across texels 0 -> 1 and 1 -> 2 in steps of 1/64 (texel centres at i + 0.5)
  for (int i = 0; i < 129; ++i) fractions[i] = 0.5f + i / 64.0f;
  unsigned char u8[256 * 4];
  unsigned short u16[256], h16[256];
  for (int i = 0; i < 256; ++i) {
    u8[4 * i] = i;
    u8[4 * i + 1] = 255 - i;
    u8[4 * i + 2] = (i * 7) & 255;
    u8[4 * i + 3] = 128;
    u16[i] = (unsigned short)(i * 257 + (i & 1) * 3);
    // half bit patterns: small and large normals, subnormals, zeros, infinities
    h16[i] = (unsigned short)((i * 0x0101) ^ 0x3c00);
  }
  int e = 0;
  e |= run("u8x4 norm", cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned), u8, 256,
           cudaReadModeNormalizedFloat, cudaFilterModePoint, centres, 256, 'f');
  e |= run("s8x4 norm", cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindSigned), u8, 256,
           cudaReadModeNormalizedFloat, cudaFilterModePoint, centres, 256, 'f');
  e |= run("u8x4 elem", cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned), u8, 256,
           cudaReadModeElementType, cudaFilterModePoint, centres, 256, 'u');
  e |= run("s8x4 elem", cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindSigned), u8, 256,
           cudaReadModeElementType, cudaFilterModePoint, centres, 256, 'i');
  e |= run("u16 norm", cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned), u16, 256,
           cudaReadModeNormalizedFloat, cudaFilterModePoint, centres, 256, 'f');
  e |= run("s16 norm", cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned), u16, 256,
           cudaReadModeNormalizedFloat, cudaFilterModePoint, centres, 256, 'f');
  e |= run("s16 elem", cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned), u16, 256,
           cudaReadModeElementType, cudaFilterModePoint, centres, 256, 'i');
  e |= run("f16", cudaCreateChannelDescHalf(), h16, 256, cudaReadModeElementType, cudaFilterModePoint, centres, 256,
           'f');
  e |= run("u8x4 linear", cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned), u8 + 4 * 250, 6,
           cudaReadModeNormalizedFloat, cudaFilterModeLinear, fractions, 129, 'f');
  e |= run("f16 linear", cudaCreateChannelDescHalf(), h16 + 60, 3, cudaReadModeElementType, cudaFilterModeLinear,
           fractions, 129, 'f');
  e |= run("u16 linear", cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned), u16 + 100, 3,
           cudaReadModeNormalizedFloat, cudaFilterModeLinear, fractions, 129, 'f');
  printf("%s\n", e ? "Test FAILED" : "Test PASSED");
  return e;
}
