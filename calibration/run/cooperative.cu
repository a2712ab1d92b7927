// Cooperative launches: every block of the grid resident at once, blocks waiting for each other
// at grid barriers (cooperative groups' grid.sync(), and its split form barrier_arrive /
// barrier_wait). The grid is sized from the occupancy API; one launch is one block too large
// (cudaErrorCooperativeLaunchTooLarge); one launch goes through cudaLaunchKernelEx with the
// cooperative attribute; one is a plain launch of a grid that fits at once (its grid barrier
// works on the GPU); a small kernel prints what a grid group knows of itself, launched
// plainly and cooperatively (CUDA 13 gives both a grid workspace: is_valid() in both).
#include <cmath>
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(x)                                                                      \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_));        \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

// `iters` smoothing steps of a ring of n values (n a multiple of blockDim.x), a and b swapped
// after each; each block stages a segment and its two neighbours in shared memory, and the grid
// waits at a grid barrier before the next step reads what other blocks wrote.
__global__ void smoothRing(float *a, float *b, int n, int iters) {
  cg::grid_group grid = cg::this_grid();
  extern __shared__ float tile[];
  for (int it = 0; it < iters; ++it) {
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
      int i = base + threadIdx.x;
      tile[threadIdx.x + 1] = a[i];
      if (threadIdx.x == 0) tile[0] = a[(i + n - 1) % n];
      if (threadIdx.x == blockDim.x - 1) tile[blockDim.x + 1] = a[(i + 1) % n];
      __syncthreads();
      b[i] = 0.25f * tile[threadIdx.x] + 0.5f * tile[threadIdx.x + 1] + 0.25f * tile[threadIdx.x + 2];
      __syncthreads();
    }
    grid.sync();
    float *t = a;
    a = b;
    b = t;
  }
}

// x /= |x|: per-block sums of squares, a grid barrier split around independent work, block 0
// adds the partial sums (slot gridDim.x gets the norm), a grid barrier, then every thread scales.
__global__ void gridNormalize(float *x, float *y, double *partial, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block cta = cg::this_thread_block();
  __shared__ double s[256];
  double v = 0.0;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
    v += (double)x[i] * x[i];
  s[threadIdx.x] = v;
  cta.sync();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    cta.sync();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
  auto token = grid.barrier_arrive();
  // work that needs no other block: y = 2x
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
    y[i] = 2.0f * x[i];
  grid.barrier_wait(std::move(token));
  if (grid.block_rank() == 0) {
    double t = 0.0;
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x) t += partial[b];
    s[threadIdx.x] = t;
    cta.sync();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
      if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
      cta.sync();
    }
    if (threadIdx.x == 0) partial[gridDim.x] = sqrt(s[0]);
  }
  grid.sync();
  double norm = partial[gridDim.x];
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
    x[i] = (float)(x[i] / norm);
}

// What the grid group says: validity (a grid workspace), blocks, this block's rank, threads.
__global__ void gridInfo(unsigned long long *out) {
  cg::grid_group grid = cg::this_grid();
  if (grid.thread_rank() == 0) {
    out[0] = grid.is_valid();
    out[1] = grid.num_blocks();
    out[2] = grid.size();
  }
  if (threadIdx.x == 0) out[3 + blockIdx.x] = grid.block_rank();
}

int main() {
  int dev = 0, coop = 0, sms = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  printf("cooperative launch: %d, SMs: %d\n", coop, sms);
  bool ok = true;

  // ---- smoothRing, cooperatively, on two blocks per SM
  const int threads = 256, n = 1 << 17, iters = 4;
  const size_t smem = (threads + 2) * sizeof(float);
  int perSm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, smoothRing, threads, smem));
  printf("smoothRing: %d blocks of %d threads per SM\n", perSm, threads);
  int blocks = (perSm < 2 ? perSm : 2) * sms;
  float *ha = new float[n], *hb = new float[n], *da, *db;
  for (int i = 0; i < n; ++i) ha[i] = (float)((i * 37) % 101);
  CHECK(cudaMalloc(&da, n * sizeof(float)));
  CHECK(cudaMalloc(&db, n * sizeof(float)));
  CHECK(cudaMemcpy(da, ha, n * sizeof(float), cudaMemcpyHostToDevice));
  int nn = n, it = iters;
  void *args[] = {&da, &db, &nn, &it};
  CHECK(cudaLaunchCooperativeKernel((void *)smoothRing, blocks, threads, args, smem, 0));
  CHECK(cudaDeviceSynchronize());
  // four steps: the result is in da
  CHECK(cudaMemcpy(hb, da, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int s = 0; s < iters; ++s) {
    float *t = new float[n];
    for (int i = 0; i < n; ++i)
      t[i] = 0.25f * ha[(i + n - 1) % n] + 0.5f * ha[i] + 0.25f * ha[(i + 1) % n];
    delete[] ha;
    ha = t;
  }
  double worst = 0.0, sum = 0.0;
  for (int i = 0; i < n; ++i) {
    worst = fmax(worst, fabs((double)ha[i] - hb[i]));
    sum += hb[i];
  }
  printf("smoothRing <<<%d, %d>>> x%d: sum %.3f, largest difference from the host %g\n", blocks, threads,
         iters, sum, worst);
  ok = ok && worst < 1e-3;

  // ---- the same kernel launched plainly with a grid that fits at once: the grid barrier works
  // (every block is resident), two steps from the start again
  for (int i = 0; i < n; ++i) ha[i] = (float)((i * 37) % 101);
  CHECK(cudaMemcpy(da, ha, n * sizeof(float), cudaMemcpyHostToDevice));
  smoothRing<<<blocks, threads, smem>>>(da, db, n, 2);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hb, da, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int s = 0; s < 2; ++s) {
    float *t = new float[n];
    for (int i = 0; i < n; ++i)
      t[i] = 0.25f * ha[(i + n - 1) % n] + 0.5f * ha[i] + 0.25f * ha[(i + 1) % n];
    delete[] ha;
    ha = t;
  }
  worst = 0.0;
  for (int i = 0; i < n; ++i) worst = fmax(worst, fabs((double)ha[i] - hb[i]));
  printf("smoothRing plain <<<%d, %d>>> x2: largest difference from the host %g\n", blocks, threads, worst);
  ok = ok && worst < 1e-3;

  // ---- one block more than fit at once
  cudaError_t e = cudaLaunchCooperativeKernel((void *)smoothRing, perSm * sms + 1, threads, args, smem, 0);
  cudaError_t last = cudaGetLastError();
  cudaError_t after = cudaGetLastError();
  printf("%d blocks: %s; cudaGetLastError: %s; then %s\n", perSm * sms + 1, cudaGetErrorName(e),
         cudaGetErrorName(last), cudaGetErrorName(after));
  ok = ok && e == cudaErrorCooperativeLaunchTooLarge;

  // ---- gridNormalize through cudaLaunchKernelEx with the cooperative attribute
  const int m = 100000;
  float *hx = new float[m], *hy = new float[m], *dx, *dy;
  double *dp;
  double sq = 0.0;
  for (int i = 0; i < m; ++i) {
    hx[i] = (float)(i % 13) - 6.0f;
    sq += (double)hx[i] * hx[i];
  }
  CHECK(cudaMalloc(&dx, m * sizeof(float)));
  CHECK(cudaMalloc(&dy, m * sizeof(float)));
  int gblocks = sms;
  CHECK(cudaMalloc(&dp, (gblocks + 1) * sizeof(double)));
  CHECK(cudaMemcpy(dx, hx, m * sizeof(float), cudaMemcpyHostToDevice));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(gblocks);
  cfg.blockDim = dim3(256);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&cfg, gridNormalize, dx, dy, dp, m));
  CHECK(cudaDeviceSynchronize());
  double norm = 0.0;
  CHECK(cudaMemcpy(&norm, dp + gblocks, sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hy, dx, m * sizeof(float), cudaMemcpyDeviceToHost));
  double unit = 0.0;
  for (int i = 0; i < m; ++i) unit += (double)hy[i] * hy[i];
  CHECK(cudaMemcpy(hy, dy, m * sizeof(float), cudaMemcpyDeviceToHost));
  bool twice = true;
  for (int i = 0; i < m; ++i) twice = twice && hy[i] == 2.0f * hx[i];
  printf("gridNormalize <<<%d, 256>>>: norm %.6f (host %.6f), |x|^2 after %.6f, y = 2x: %s\n", gblocks, norm,
         sqrt(sq), unit, twice ? "yes" : "no");
  ok = ok && fabs(norm - sqrt(sq)) < 1e-6 * sqrt(sq) && fabs(unit - 1.0) < 1e-4 && twice;

  // ---- the grid group, plain and cooperative
  unsigned long long *di, hi[3 + 4];
  CHECK(cudaMalloc(&di, sizeof(hi)));
  for (int c = 0; c < 2; ++c) {
    CHECK(cudaMemset(di, 0xff, sizeof(hi)));
    if (c == 0) {
      gridInfo<<<4, 64>>>(di);
      CHECK(cudaGetLastError());
    } else {
      void *iargs[] = {&di};
      CHECK(cudaLaunchCooperativeKernel((void *)gridInfo, 4, 64, iargs, 0, 0));
    }
    CHECK(cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost));
    printf("gridInfo %s: valid %llu, blocks %llu, threads %llu, ranks %llu %llu %llu %llu\n",
           c ? "cooperative" : "plain", hi[0], hi[1], hi[2], hi[3], hi[4], hi[5], hi[6]);
    ok = ok && hi[0] == 1 && hi[1] == 4 && hi[2] == 256 && hi[6] == 3;
  }

  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dp));
  CHECK(cudaFree(di));
  printf("%s\n", ok ? "Test PASSED" : "Test FAILED");
  return ok ? 0 : 1;
}
