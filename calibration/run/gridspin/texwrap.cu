// Linear filtering of float textures at normalised coordinates, in wrap and clamp mode: every
// sample's coordinates and fetched value as bits, one line each, to compare with the emulator bit
// for bit. Two textures: 256x192 (the size of bench12 texsurf's rotate) and 10x6, texels with
// full 23-bit mantissas. Coordinates: sweeps in 1/1024 of a texel across a texel (both 8- and
// 9-bit fraction steps) inside, at the wrap seam and below 0, points near texel centres (a few
// float steps away), values < 0, > 1 and far outside, and pseudo-random pairs in [-1.5, 2.5).
// Line: mode (w, c) texture (0, 1) u v value, as 32-bit hex.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

__global__ void fetch(cudaTextureObject_t tex, const float2 *uv, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(tex, uv[i].x, uv[i].y);
}

static unsigned hash(unsigned x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}

static float texel(int t, int x, int y) {
  unsigned h = hash((unsigned)(t * 1000003 + y * 4099 + x));
  return (float)(h % 1000003u) / 1000003.0f * 4.0f - 2.0f;
}

static float nudge(float f, int k) {
  unsigned b;
  memcpy(&b, &f, 4);
  b += k;
  memcpy(&f, &b, 4);
  return f;
}

static std::vector<float2> coords(int W, int H) {
  std::vector<float2> c;
  float vc = (2 + 0.5f) / H, uc = (3 + 0.5f) / W;
  // sweeps along u across texels 3, W-1 (the seam) and -1 (below 0), v at a texel centre
  const int us[3] = {3, W - 1, -1};
  for (int s = 0; s < 3; s++)
    for (int j = 0; j < 1024; j += (s == 0 ? 1 : 2)) c.push_back(make_float2((us[s] + j / 1024.0f) / W, vc));
  // along v across row H-1 and row 1, u between texel centres
  const int vs[2] = {H - 1, 1};
  for (int s = 0; s < 2; s++)
    for (int j = 0; j < 1024; j += 2) c.push_back(make_float2(uc + 0.37f / W, (vs[s] + j / 1024.0f) / H));
  // near texel centres and edges: a few float steps either side
  const float at[6] = {0.5f, 1.0f, 1.5f, (float)W - 0.5f, (float)W, 7.25f};
  for (int a = 0; a < 6; a++)
    for (int k = -3; k <= 3; k++) {
      c.push_back(make_float2(nudge(at[a] / W, k), vc));
      c.push_back(make_float2(uc, nudge(at[a] / H, k)));
    }
  // outside [0, 1): negative, above 1, far away
  const float far[14] = {-0.001f, -0.25f, -0.5f, -0.99f, -1.0f, -1.3f, 1.0f, 1.001f, 1.2f, 1.45f, 2.75f, -7.1f, 33.3f, -100.2f};
  for (int a = 0; a < 14; a++)
    for (int b = 0; b < 14; b += 3) c.push_back(make_float2(far[a], far[b] * 0.9f));
  // pseudo-random pairs in [-1.5, 2.5)
  for (unsigned k = 0; k < 768; k++)
    c.push_back(make_float2((hash(2 * k + 1) % 4000000u) / 1000000.0f - 1.5f, (hash(2 * k + 2) % 4000000u) / 1000000.0f - 1.5f));
  return c;
}

int main() {
  const int dims[2][2] = {{256, 192}, {10, 6}};
  for (int t = 0; t < 2; t++) {
    int W = dims[t][0], H = dims[t][1];
    std::vector<float> img(W * H);
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) img[y * W + x] = texel(t, x, y);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CK(cudaMallocArray(&arr, &fd, W, H));
    CK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
    std::vector<float2> c = coords(W, H);
    int n = (int)c.size();
    float2 *dUv;
    float *dOut;
    CK(cudaMalloc(&dUv, n * sizeof(float2)));
    CK(cudaMalloc(&dOut, n * sizeof(float)));
    CK(cudaMemcpy(dUv, c.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
    std::vector<float> r(n);
    for (int m = 0; m < 2; m++) {
      cudaResourceDesc rd = {};
      rd.resType = cudaResourceTypeArray;
      rd.res.array.array = arr;
      cudaTextureDesc td = {};
      td.addressMode[0] = td.addressMode[1] = m == 0 ? cudaAddressModeWrap : cudaAddressModeClamp;
      td.filterMode = cudaFilterModeLinear;
      td.readMode = cudaReadModeElementType;
      td.normalizedCoords = 1;
      cudaTextureObject_t tex;
      CK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
      fetch<<<(n + 127) / 128, 128>>>(tex, dUv, dOut, n);
      CK(cudaGetLastError());
      CK(cudaMemcpy(r.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost));
      for (int i = 0; i < n; i++) {
        unsigned u, v, x;
        memcpy(&u, &c[i].x, 4);
        memcpy(&v, &c[i].y, 4);
        memcpy(&x, &r[i], 4);
        printf("%c%d %08x %08x %08x\n", m == 0 ? 'w' : 'c', t, u, v, x);
      }
      CK(cudaDestroyTextureObject(tex));
    }
    CK(cudaFree(dUv));
    CK(cudaFree(dOut));
    CK(cudaFreeArray(arr));
  }
  return 0;
}
