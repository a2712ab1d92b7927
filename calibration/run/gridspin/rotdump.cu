// bench12 texsurf's `rotate` (a float image resampled by a rotation through tex2D, linear
// filtering, normalised wrapped coordinates), every pixel printed: the coordinates the kernel
// computed and the fetched value, as 32-bit hex (x, y, u, v, value), to find where the
// emulator's bits and the GPU's part.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(2); } } while (0)

__global__ void rotate(cudaTextureObject_t tex, float *out, float2 *uv, int w, int h, float c, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = (x + 0.5f) / w - 0.5f, v = (y + 0.5f) / h - 0.5f;
  float ru = c * u - s * v + 0.5f, rv = s * u + c * v + 0.5f;
  uv[y * w + x] = make_float2(ru * 1.25f, rv * 1.25f);
  out[y * w + x] = tex2D<float>(tex, ru * 1.25f, rv * 1.25f);
}

int main() {
  const int W = 256, H = 192;
  std::vector<float> img(W * H);
  for (int y = 0; y < H; ++y) for (int x = 0; x < W; ++x) img[y * W + x] = sinf(x * 0.05f) * cosf(y * 0.07f) + ((x / 16 + y / 16) & 1);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CK(cudaMallocArray(&arr, &fd, W, H));
  CK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  cudaTextureObject_t tex;
  CK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
  float *dOut;
  float2 *dUv;
  CK(cudaMalloc(&dOut, W * H * 4));
  CK(cudaMalloc(&dUv, W * H * 8));
  const float ang = 0.3f, c = cosf(ang), s = sinf(ang);
  rotate<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(tex, dOut, dUv, W, H, c, s);
  CK(cudaGetLastError());
  std::vector<float> out(W * H);
  std::vector<float2> uv(W * H);
  CK(cudaMemcpy(out.data(), dOut, W * H * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(uv.data(), dUv, W * H * 8, cudaMemcpyDeviceToHost));
  for (int i = 0; i < W * H; i++) {
    unsigned a, b, r;
    memcpy(&a, &uv[i].x, 4);
    memcpy(&b, &uv[i].y, 4);
    memcpy(&r, &out[i], 4);
    printf("%d %d %08x %08x %08x\n", i % W, i / W, a, b, r);
  }
  return 0;
}
