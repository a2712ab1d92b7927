// Surface objects: a float4 CUDA array written by one kernel (surf2Dwrite, byte columns) and read
// by another (surf2Dread), with reads and writes outside the surface in zero mode (reads 0, writes
// dropped) and clamp mode (the nearest element); a uchar4 1-D surface written and read back; the
// written array then sampled as a texture. Every value read is printed as bits.
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

const int W = 64, H = 8;

__global__ void fill(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(make_float4(x, y, x * y, x + 0.5f * y), s, x * (int)sizeof(float4), y);
  // outside the surface in zero mode: dropped
  if (x == 0) surf2Dwrite(make_float4(-1, -1, -1, -1), s, -16, y, cudaBoundaryModeZero);
  if (x == 0) surf2Dwrite(make_float4(-2, -2, -2, -2), s, W * 16, y, cudaBoundaryModeZero);
}

// out[0..]: each element read back, then reads outside in zero and clamp modes
__global__ void readBack(cudaSurfaceObject_t s, float4 *out) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = surf2Dread<float4>(s, x * 16, y);
  if (x < 4) {
    int col[4] = {-16, W * 16, 3 * 16, -32};
    int row[4] = {0, H - 1, H + 2, -1};
    out[W * H + y * 8 + x] = surf2Dread<float4>(s, col[x], row[x] < 0 ? y : row[x], cudaBoundaryModeZero);
    out[W * H + y * 8 + 4 + x] = surf2Dread<float4>(s, col[x], row[x] < 0 ? y : row[x], cudaBoundaryModeClamp);
  }
}

__global__ void bytes(cudaSurfaceObject_t s, uchar4 *out, int n) {
  int x = threadIdx.x;
  surf1Dwrite(make_uchar4(x, 2 * x, 255 - x, 7), s, x * 4);
  __syncthreads();
  out[x] = surf1Dread<uchar4>(s, ((x + 1) % n) * 4);
}

__global__ void sample(cudaTextureObject_t t, float4 *out) {
  int x = threadIdx.x;
  out[x] = tex2D<float4>(t, x + 0.5f, 2.5f);
}

int main() {
  cudaChannelFormatDesc d = cudaCreateChannelDesc<float4>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &d, W, H, cudaArraySurfaceLoadStore));
  cudaResourceDesc res;
  memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaSurfaceObject_t s;
  CHECK(cudaCreateSurfaceObject(&s, &res));
  float4 *dout, *hout = new float4[W * H + 8 * H];
  CHECK(cudaMalloc(&dout, (W * H + 8 * H) * sizeof(float4)));
  fill<<<H, W>>>(s);
  readBack<<<H, W>>>(s, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout, dout, (W * H + 8 * H) * sizeof(float4), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float4 v = hout[y * W + x];
      ok = ok && v.x == x && v.y == y && v.z == x * y && v.w == x + 0.5f * y;
    }
  printf("surface written and read back: %s\n", ok ? "equal" : "DIFFERENT");
  for (int y = 0; y < H; ++y)
    for (int k = 0; k < 8; ++k) {
      float4 v = hout[W * H + y * 8 + k];
      unsigned b[4];
      memcpy(b, &v, 16);
      printf("row %d %s %d: %08x %08x %08x %08x\n", y, k < 4 ? "zero" : "clamp", k % 4, b[0], b[1], b[2], b[3]);
    }
  // the array as copied out: the dropped writes left nothing
  float4 *h2 = new float4[W * H];
  CHECK(cudaMemcpy2DFromArray(h2, W * sizeof(float4), a, 0, 0, W * sizeof(float4), H, cudaMemcpyDeviceToHost));
  bool same = memcmp(h2, hout, W * H * sizeof(float4)) == 0;
  printf("cudaMemcpy2DFromArray: %s\n", same ? "equal" : "DIFFERENT");
  ok = ok && same;

  // the written array as a texture
  cudaTextureDesc td;
  memset(&td, 0, sizeof(td));
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
  sample<<<1, W>>>(t, dout);
  CHECK(cudaMemcpy(h2, dout, W * sizeof(float4), cudaMemcpyDeviceToHost));
  bool tex = true;
  for (int x = 0; x < W; ++x) tex = tex && h2[x].x == x && h2[x].y == 2 && h2[x].w == x + 1.0f;
  printf("sampled as a texture: %s\n", tex ? "equal" : "DIFFERENT");
  ok = ok && tex;

  // a uchar4 1-D surface
  cudaChannelFormatDesc d8 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a8;
  CHECK(cudaMallocArray(&a8, &d8, 32, 0, cudaArraySurfaceLoadStore));
  res.res.array.array = a8;
  cudaSurfaceObject_t s8;
  CHECK(cudaCreateSurfaceObject(&s8, &res));
  uchar4 *d4, h4[32];
  CHECK(cudaMalloc(&d4, sizeof(h4)));
  bytes<<<1, 32>>>(s8, d4, 32);
  CHECK(cudaMemcpy(h4, d4, sizeof(h4), cudaMemcpyDeviceToHost));
  bool b8 = true;
  for (int x = 0; x < 32; ++x) {
    int y = (x + 1) % 32;
    b8 = b8 && h4[x].x == y && h4[x].y == 2 * y && h4[x].z == 255 - y && h4[x].w == 7;
  }
  printf("uchar4 surface: %s\n", b8 ? "equal" : "DIFFERENT");
  ok = ok && b8;

  CHECK(cudaDestroySurfaceObject(s));
  CHECK(cudaDestroySurfaceObject(s8));
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(a));
  CHECK(cudaFreeArray(a8));
  printf("%s\n", ok ? "Test PASSED" : "Test FAILED");
  return ok ? 0 : 1;
}
