// Texture objects: every sample is printed, so the GPU's own output is the reference for point and
// linear filtering (the weights' precision), the address modes (wrap, clamp, mirror, border) with
// normalised and texel coordinates, a CUDA array filled by cudaMemcpy2DToArray, a pitched 2-D
// allocation, a linear 1-D buffer read by tex1Dfetch, and 2-channel texels.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x)                                                                 \
  do {                                                                           \
    cudaError_t e_ = (x);                                                        \
    if (e_ != cudaSuccess) {                                                     \
      printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_));   \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

const int W = 5, H = 4, N = 24;

__global__ void sample2d(cudaTextureObject_t t, const float2 *at, float *out) {
  int i = threadIdx.x;
  if (i < N) out[i] = tex2D<float>(t, at[i].x, at[i].y);
}

__global__ void sample2dPairs(cudaTextureObject_t t, const float2 *at, float2 *out) {
  int i = threadIdx.x;
  if (i < N) out[i] = tex2D<float2>(t, at[i].x, at[i].y);
}

__global__ void fetch1d(cudaTextureObject_t t, float *out) {
  int i = threadIdx.x;
  out[i] = tex1Dfetch<float>(t, i - 2);
}

static cudaTextureObject_t make(cudaResourceDesc &res, cudaTextureAddressMode mode, bool linear,
                                bool normalized) {
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = mode;
  td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = normalized;
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &res, &td, nullptr);
  if (e != cudaSuccess) printf("cudaCreateTextureObject: %s\n", cudaGetErrorName(e));
  return t;
}

int main() {
  float h[H][W];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) h[y][x] = (float)(y * 10 + x * x) + 0.25f * x;
  // coordinates: texel centres, fractions a linear filter weighs, points outside on every side
  float2 hat[N];
  for (int i = 0; i < N; ++i) hat[i] = make_float2(-1.3f + 0.41f * i, -0.7f + 0.23f * i);
  float2 hn[N];  // the same, normalised
  for (int i = 0; i < N; ++i) hn[i] = make_float2(hat[i].x / W, hat[i].y / H);

  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fd, W, H));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, h, W * sizeof(float), W * sizeof(float), H,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc ra = {};
  ra.resType = cudaResourceTypeArray;
  ra.res.array.array = arr;

  float *pitched;
  size_t pitch;
  CHECK(cudaMallocPitch((void **)&pitched, &pitch, W * sizeof(float), H));
  CHECK(cudaMemcpy2D(pitched, pitch, h, W * sizeof(float), W * sizeof(float), H,
                     cudaMemcpyHostToDevice));
  cudaResourceDesc rp = {};
  rp.resType = cudaResourceTypePitch2D;
  rp.res.pitch2D.devPtr = pitched;
  rp.res.pitch2D.desc = fd;
  rp.res.pitch2D.width = W;
  rp.res.pitch2D.height = H;
  rp.res.pitch2D.pitchInBytes = pitch;

  float2 *dat, *dn;
  float *dout;
  CHECK(cudaMalloc(&dat, sizeof hat));
  CHECK(cudaMalloc(&dn, sizeof hn));
  CHECK(cudaMalloc(&dout, N * sizeof(float)));
  CHECK(cudaMemcpy(dat, hat, sizeof hat, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dn, hn, sizeof hn, cudaMemcpyHostToDevice));

  struct Case {
    const char *name;
    cudaResourceDesc *res;
    cudaTextureAddressMode mode;
    bool linear, normalized;
  } cases[] = {
      {"array point clamp", &ra, cudaAddressModeClamp, false, false},
      {"array linear clamp", &ra, cudaAddressModeClamp, true, false},
      {"array point border", &ra, cudaAddressModeBorder, false, false},
      {"array point wrap (normalised)", &ra, cudaAddressModeWrap, false, true},
      {"array linear wrap (normalised)", &ra, cudaAddressModeWrap, true, true},
      {"array point mirror (normalised)", &ra, cudaAddressModeMirror, false, true},
      {"array linear mirror (normalised)", &ra, cudaAddressModeMirror, true, true},
      {"array linear wrap (texel coordinates)", &ra, cudaAddressModeWrap, true, false},
      {"pitched linear clamp", &rp, cudaAddressModeClamp, true, false},
  };
  float out[N];
  for (auto &c : cases) {
    cudaTextureObject_t t = make(*c.res, c.mode, c.linear, c.normalized);
    sample2d<<<1, 32>>>(t, c.normalized ? dn : dat, dout);
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    printf("%s:", c.name);
    for (int i = 0; i < N; ++i) printf(" %.9g", out[i]);
    printf("\n");
    CHECK(cudaDestroyTextureObject(t));
  }

  // two channels per texel
  float2 h2[H][W];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) h2[y][x] = make_float2(h[y][x], -h[y][x] * 0.5f);
  cudaChannelFormatDesc fd2 = cudaCreateChannelDesc<float2>();
  cudaArray_t arr2;
  CHECK(cudaMallocArray(&arr2, &fd2, W, H));
  CHECK(cudaMemcpy2DToArray(arr2, 0, 0, h2, W * sizeof(float2), W * sizeof(float2), H,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc ra2 = {};
  ra2.resType = cudaResourceTypeArray;
  ra2.res.array.array = arr2;
  cudaTextureObject_t t2 = make(ra2, cudaAddressModeClamp, true, false);
  float2 *dout2;
  CHECK(cudaMalloc(&dout2, N * sizeof(float2)));
  sample2dPairs<<<1, 32>>>(t2, dat, dout2);
  float2 out2[N];
  CHECK(cudaMemcpy(out2, dout2, sizeof out2, cudaMemcpyDeviceToHost));
  printf("float2 linear clamp:");
  for (int i = 0; i < N; ++i) printf(" %.9g/%.9g", out2[i].x, out2[i].y);
  printf("\n");

  // a linear buffer through tex1Dfetch (integer coordinates; outside reads 0)
  float lin[8] = {1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f, 8.5f};
  float *dlin;
  CHECK(cudaMalloc(&dlin, sizeof lin));
  CHECK(cudaMemcpy(dlin, lin, sizeof lin, cudaMemcpyHostToDevice));
  cudaResourceDesc rl = {};
  rl.resType = cudaResourceTypeLinear;
  rl.res.linear.devPtr = dlin;
  rl.res.linear.desc = fd;
  rl.res.linear.sizeInBytes = sizeof lin;
  cudaTextureObject_t tl = make(rl, cudaAddressModeBorder, false, false);
  fetch1d<<<1, 12>>>(tl, dout);
  CHECK(cudaMemcpy(out, dout, 12 * sizeof(float), cudaMemcpyDeviceToHost));
  printf("tex1Dfetch:");
  for (int i = 0; i < 12; ++i) printf(" %.9g", out[i]);
  printf("\n");
  CHECK(cudaDestroyTextureObject(t2));
  CHECK(cudaDestroyTextureObject(tl));
  CHECK(cudaFreeArray(arr));
  CHECK(cudaFreeArray(arr2));
  printf("Test PASSED\n");
  return 0;
}
