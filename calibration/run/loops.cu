// Loops ptxas unrolls, whose branch counters depend on trip counts the PTX does not show: a
// counted loop over a kernel parameter (unrolled with a remainder), a grid-stride loop (its trip
// count computed with an integer division), a per-thread trip count (lanes leave at different
// iterations), a nested loop with a break, and a loop over a shared array. Every launch's counters
// are compared with an H100's (calibration/run/h100/loops.ncu.csv).
#include <cstdio>
#include <cuda_runtime.h>

// g[i] += step, n times: ptxas unrolls by 4 and 16 with a remainder loop
__global__ void repeatAdd(int *g, const int *step, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; k++) g[i] += *step;
}

// grid-stride: each thread takes i, i + stride, ... below n
__global__ void gridStride(float *out, const float *in, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = 2.0f * in[i] + 1.0f;
}

// each lane loops (tid % m) times: lanes leave the loop at different iterations
__global__ void perLane(int *out, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  for (int k = 0; k < threadIdx.x % m; k++) s += k * t;
  out[t] = s;
}

// nested loops with a data-independent break
__global__ void nested(int *out, int rows, int cols, int stop) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++) {
      if (r * cols + c + (t & 3) > stop) break;
      s += r ^ c;
    }
  }
  out[t] = s;
}

// a reduction over a shared array whose length is a parameter
__global__ void sharedSum(int *out, const int *in, int len) {
  extern __shared__ int buf[];
  for (int i = threadIdx.x; i < len; i += blockDim.x) buf[i] = in[blockIdx.x * len + i];
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < len; i++) s += buf[i];
    out[blockIdx.x] = s;
  }
}

static int fails = 0;
static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    printf("%s: %s\n", what, cudaGetErrorString(e));
    fails++;
  }
}

int main() {
  const int N = 4096;
  int *g, *step, *out;
  float *fin, *fout;
  check(cudaMalloc(&g, N * sizeof(int)), "malloc g");
  check(cudaMalloc(&step, sizeof(int)), "malloc step");
  check(cudaMalloc(&out, N * sizeof(int)), "malloc out");
  check(cudaMalloc(&fin, N * sizeof(float)), "malloc fin");
  check(cudaMalloc(&fout, N * sizeof(float)), "malloc fout");
  int one = 3;
  check(cudaMemcpy(step, &one, sizeof(int), cudaMemcpyHostToDevice), "copy step");
  check(cudaMemset(g, 0, N * sizeof(int)), "memset g");

  // counted loops over n: below, at and above the unrolled bodies' sizes
  const int ns[] = {0, 1, 3, 4, 5, 13, 16, 17, 37};
  int total = 0;
  for (int n : ns) {
    repeatAdd<<<4, 128>>>(g, step, n);
    total += n;
  }
  int host[N];
  check(cudaMemcpy(host, g, N * sizeof(int), cudaMemcpyDeviceToHost), "copy g");
  for (int i = 0; i < 512; i++)
    if (host[i] != 3 * total) { printf("repeatAdd: g[%d] = %d, expected %d\n", i, host[i], 3 * total); fails++; break; }

  float fh[N];
  for (int i = 0; i < N; i++) fh[i] = (float)i;
  check(cudaMemcpy(fin, fh, N * sizeof(float), cudaMemcpyHostToDevice), "copy fin");
  // grid-stride: n a multiple of the grid, not one, smaller than the grid
  const unsigned lens[] = {4096, 3001, 100};
  for (unsigned n : lens) {
    check(cudaMemset(fout, 0, N * sizeof(float)), "memset fout");
    gridStride<<<3, 160>>>(fout, fin, n);
    check(cudaMemcpy(fh, fout, N * sizeof(float), cudaMemcpyDeviceToHost), "copy fout");
    for (unsigned i = 0; i < n; i++)
      if (fh[i] != 2.0f * i + 1.0f) { printf("gridStride(%u): out[%u] = %f\n", n, i, fh[i]); fails++; break; }
  }

  const int ms[] = {1, 5, 32, 33};
  for (int m : ms) {
    perLane<<<2, 96>>>(out, m);
    check(cudaMemcpy(host, out, 192 * sizeof(int), cudaMemcpyDeviceToHost), "copy perLane");
    for (int t = 0; t < 192; t++) {
      int s = 0;
      for (int k = 0; k < (t % 96) % m; k++) s += k * t;
      if (host[t] != s) { printf("perLane(%d): out[%d] = %d, expected %d\n", m, t, host[t], s); fails++; break; }
    }
  }

  nested<<<2, 64>>>(out, 6, 7, 25);
  check(cudaMemcpy(host, out, 128 * sizeof(int), cudaMemcpyDeviceToHost), "copy nested");
  for (int t = 0; t < 128; t++) {
    int s = 0;
    for (int r = 0; r < 6; r++)
      for (int c = 0; c < 7; c++) {
        if (r * 7 + c + (t & 3) > 25) break;
        s += r ^ c;
      }
    if (host[t] != s) { printf("nested: out[%d] = %d, expected %d\n", t, host[t], s); fails++; break; }
  }

  int ih[N];
  for (int i = 0; i < N; i++) ih[i] = i % 10;
  check(cudaMemcpy(g, ih, N * sizeof(int), cudaMemcpyHostToDevice), "copy in");
  const int len = 300;
  sharedSum<<<8, 64, len * sizeof(int)>>>(out, g, len);
  check(cudaMemcpy(host, out, 8 * sizeof(int), cudaMemcpyDeviceToHost), "copy sums");
  for (int b = 0; b < 8; b++) {
    int s = 0;
    for (int i = 0; i < len; i++) s += ih[b * len + i];
    if (host[b] != s) { printf("sharedSum: block %d = %d, expected %d\n", b, host[b], s); fails++; }
  }

  check(cudaGetLastError(), "launches");
  printf(fails ? "loops: FAILED\n" : "loops: PASSED\n");
  return fails ? 1 : 0;
}
