// sm_90a instructions the emulator accepts: elect.sync (the lowest executing lane of the member
// mask, with its lane id), setmaxnreg (warp-specialised register reallocation: one warpgroup gives
// registers back, the other takes them), fence.proxy.async, prefetch.tensormap, and programmatic
// dependent launch (griddepcontrol.launch_dependents / griddepcontrol.wait, through
// cudaTriggerProgrammaticLaunchCompletion and cudaGridDependencySynchronize, the second kernel
// launched with cudaLaunchAttributeProgrammaticStreamSerialization).
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ unsigned elect(unsigned mask, unsigned *lane) {
  unsigned is, l;
  asm volatile("{ .reg .pred p; elect.sync %1|p, %2; selp.u32 %0, 1, 0, p; }" : "=r"(is), "=r"(l) : "r"(mask));
  *lane = l;
  return is;
}

// out[warp * 32 + lane] = elected lane id << 8 | is-elected, for lanes that execute; the lanes that
// execute are those with (lane % k) >= s for the warp's (k, s).
__global__ void electk(unsigned *out) {
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned k = warp + 2, s = warp % 3;
  out[threadIdx.x] = 0xffffffffu;
  if (lane % k >= s) {
    unsigned mask = __activemask();
    unsigned l, is = elect(mask, &l);
    out[threadIdx.x] = l << 8 | is;
  }
}

// 256 threads: warpgroup 0 gives registers back (dec 40), warpgroup 1 takes more (inc 232);
// both then compute and write a value.
__global__ void __launch_bounds__(256, 1) realloc(const float *x, float *y) {
  unsigned wg = threadIdx.x / 128;
  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    y[threadIdx.x] = x[threadIdx.x] * 2.0f;
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    float a = x[threadIdx.x];
    y[threadIdx.x] = a * a + 1.0f;
  }
}

__global__ void fences(const float *x, float *y, const void *tmap) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(tmap) : "memory");
  __shared__ float s[64];
  s[threadIdx.x] = x[threadIdx.x];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("fence.proxy.async;" ::: "memory");
  asm volatile("fence.proxy.async.global;" ::: "memory");
  __syncthreads();
  y[threadIdx.x] = s[63 - threadIdx.x] + 0.5f;
}

__global__ void primary(float *y) {
  y[threadIdx.x] = threadIdx.x * 3.0f;
  cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void secondary(const float *y, float *z) {
  cudaGridDependencySynchronize();
  z[threadIdx.x] = y[threadIdx.x] + 1.0f;
}

int main() {
  unsigned *d_e, h_e[256];
  CHECK(cudaMalloc(&d_e, sizeof h_e));
  electk<<<1, 256>>>(d_e);
  CHECK(cudaMemcpy(h_e, d_e, sizeof h_e, cudaMemcpyDeviceToHost));
  for (int w = 0; w < 8; ++w) {
    printf("elect warp %d:", w);
    for (int l = 0; l < 32; ++l) {
      unsigned v = h_e[w * 32 + l];
      if (v == 0xffffffffu) printf(" -");
      else printf(" %u%s", v >> 8, v & 1 ? "*" : "");
    }
    printf("\n");
  }

  float *d_x, *d_y, *d_z, h[256];
  CHECK(cudaMalloc(&d_x, 256 * sizeof(float)));
  CHECK(cudaMalloc(&d_y, 256 * sizeof(float)));
  CHECK(cudaMalloc(&d_z, 256 * sizeof(float)));
  for (int i = 0; i < 256; ++i) h[i] = i * 0.25f - 7.0f;
  CHECK(cudaMemcpy(d_x, h, sizeof h, cudaMemcpyHostToDevice));
  realloc<<<2, 256>>>(d_x, d_y);
  CHECK(cudaMemcpy(h, d_y, sizeof h, cudaMemcpyDeviceToHost));
  double s = 0;
  for (int i = 0; i < 256; ++i) s += h[i] * (i % 7 + 1);
  printf("setmaxnreg: y[0] %g y[127] %g y[128] %g y[255] %g weighted %.3f\n", h[0], h[127], h[128], h[255], s);

  void *tmap;
  CHECK(cudaMalloc(&tmap, 128));
  CHECK(cudaMemset(tmap, 0, 128));
  fences<<<1, 64>>>(d_x, d_y, tmap);
  CHECK(cudaMemcpy(h, d_y, 64 * sizeof(float), cudaMemcpyDeviceToHost));
  printf("fences: y[0] %g y[63] %g\n", h[0], h[63]);

  primary<<<1, 128>>>(d_y);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(128);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&cfg, secondary, (const float *)d_y, d_z));
  CHECK(cudaMemcpy(h, d_z, 128 * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < 128; ++i) bad += h[i] != i * 3.0f + 1.0f;
  printf("dependent launch: z[0] %g z[127] %g %s\n", h[0], h[127], bad ? "WRONG" : "ok");
  return bad;
}
