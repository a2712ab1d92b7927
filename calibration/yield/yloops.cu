// Loops that ptxas gives a YIELD (loops over volatile loads) and where their lanes rejoin on the
// H200. Every kernel walks chains through a table `next` the host fills (no thread of a launch
// writes what a walk reads, so every trip count is the program's), in shapes that tell the rules
// apart: code after the loop, a branch after it, a __syncwarp or __syncthreads after it, the loop
// inside an if, on one side of an if/else, with lanes that skip it, nested in a counted loop, two
// walks in a row, a loop with two exits, a lane-private volatile counter, a root search in a
// device function, warps spinning on a flag another warp sets (timing decides); and the same shapes through plain loads (no YIELD) for contrast.
// Prints one checksum per kernel (the counters come from ncu).
#include <cstdio>
#include <cstdlib>
#define N 16384
#define B 128

template <class P> __device__ __forceinline__ int walk(P next, int u) {
  int c = 0;
  for (; u >= 0; u = next[u]) c++;
  return c;
}

// the walk, the store after it
__global__ void yWalk(volatile const int *next, int *out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  out[v] = walk(next, next[v]);
}
__global__ void pWalk(const int *next, int *out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  out[v] = walk(next, next[v]);
}
// a branch after the loop (a loop of the lane's trip count on one side)
__global__ void yBranch(volatile const int *next, int *out, int *out2) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  int c = walk(next, next[v]), a = v;
  if (c & 1) {
    for (int i = 0; i < c; i++) a = a * 31 + (v ^ i);
    out[v] = a;
  } else {
    out2[v] = c;
  }
}
__global__ void pBranch(const int *next, int *out, int *out2) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  int c = walk(next, next[v]), a = v;
  if (c & 1) {
    for (int i = 0; i < c; i++) a = a * 31 + (v ^ i);
    out[v] = a;
  } else {
    out2[v] = c;
  }
}
// __syncwarp after the loop
__global__ void ySyncwarp(volatile const int *next, int *out, int *out2) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  int c = walk(next, next[v]);
  out2[v] = c;
  __syncwarp();
  out[v] = c + 1;
}
// __syncthreads after the loop
__global__ void ySyncthreads(volatile const int *next, int *out, int *out2) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  int c = walk(next, next[v]);
  out2[v] = c;
  __syncthreads();
  out[v] = c + 1;
}
// the loop inside an if: the if's join after it
__global__ void yInIf(volatile const int *next, int *out, int *out2, int k) {
  int v = blockIdx.x * blockDim.x + threadIdx.x, c = v & 7;
  if (v % k != 0) {
    c = walk(next, next[v]);
    out2[v] = c;
  }
  out[v] = c + 1;
}
__global__ void pInIf(const int *next, int *out, int *out2, int k) {
  int v = blockIdx.x * blockDim.x + threadIdx.x, c = v & 7;
  if (v % k != 0) {
    c = walk(next, next[v]);
    out2[v] = c;
  }
  out[v] = c + 1;
}
// the loop on one side of an if/else, a store on the other
__global__ void yOneSide(volatile const int *next, int *out, int *out2, int k) {
  int v = blockIdx.x * blockDim.x + threadIdx.x, c;
  if (v % k == 0) {
    c = walk(next, next[v]);
  } else {
    c = (v * 7) & 15;
    out2[v] = c;
  }
  out[v] = c + 1;
}
// lanes that skip the loop (no trip, no YIELD) and lanes that walk
__global__ void ySkip(volatile const int *next, int *out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x, c = 0;
  int u = (v & 3) ? next[v] : -1;
  while (u >= 0) { c++; u = next[u]; }
  out[v] = c;
}
// the walk inside a counted loop
__global__ void yNested(volatile const int *next, int *out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x, c = 0;
  for (int j = 0; j < 3; j++) c += walk(next, next[(v * 7 + j * 1237) & (N - 1)]) + j;
  out[v] = c;
}
__global__ void pNested(const int *next, int *out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x, c = 0;
  for (int j = 0; j < 3; j++) c += walk(next, next[(v * 7 + j * 1237) & (N - 1)]) + j;
  out[v] = c;
}
// two walks in a row, a store between them and one after
__global__ void yTwo(volatile const int *next, int *out, int *out2) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  int a = walk(next, next[v]);
  out2[v] = a;
  int b = walk(next, next[(v * 5 + 11) & (N - 1)]);
  out[v] = a + b;
}
// a loop with two exits: the chain's end, or a marked node
__global__ void yBreak(volatile const int *next, const int *mark, int *out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x, c = 0;
  for (int u = next[v]; u >= 0; u = next[u]) {
    c++;
    if (mark[u]) break;
  }
  out[v] = c;
}
// a lane-private volatile counter counted up to the lane's target
__global__ void ySelf(volatile int *buf, const int *tgt, int *out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  volatile int *p = &buf[v];
  while (*p < tgt[v]) *p = *p + 1;
  out[v] = *p * 2;
}
// a root search in a device function (union-find's find on a fixed forest)
__device__ __noinline__ int findRoot(volatile const int *parent, int v) {
  int p = parent[v];
  while (p != v) { v = p; p = parent[v]; }
  return v;
}
__global__ void yFind(volatile const int *parent, int *out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  out[v] = findRoot(parent, v);
}

// warps 1.. of a block spin on a flag warp 0 sets (timing decides the trips)
__global__ void ySpin(volatile int *flag, int *out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 32) {
    if (threadIdx.x == 0) flag[blockIdx.x] = 1;
  } else {
    while (flag[blockIdx.x] == 0) {}
  }
  out[v] = threadIdx.x >> 5;
}

static unsigned s = 5;
static unsigned rnd() { s = s * 1103515245u + 12345u; return s >> 16; }

int main() {
  static int next[N], parent[N], mark[N], tgt[N], out[N];
  for (int v = 0; v < N; v++) {
    int r = rnd() % 9;
    next[v] = (r == 0 || v < 3) ? -1 : v - 1 - (r % 3);
    parent[v] = (rnd() % 7 == 0 || v == 0) ? v : (int)(rnd() % v);
    mark[v] = rnd() % 11 == 0;
    tgt[v] = rnd() % 6;
  }
  int *dn, *dp, *dm, *dt, *db, *o1, *o2;
  cudaMalloc(&dn, sizeof next); cudaMalloc(&dp, sizeof next); cudaMalloc(&dm, sizeof next);
  cudaMalloc(&dt, sizeof next); cudaMalloc(&db, sizeof next); cudaMalloc(&o1, sizeof next);
  cudaMalloc(&o2, sizeof next);
  cudaMemcpy(dn, next, sizeof next, cudaMemcpyHostToDevice);
  cudaMemcpy(dp, parent, sizeof next, cudaMemcpyHostToDevice);
  cudaMemcpy(dm, mark, sizeof next, cudaMemcpyHostToDevice);
  cudaMemcpy(dt, tgt, sizeof next, cudaMemcpyHostToDevice);
  cudaMemset(db, 0, sizeof next);
  const char *names[] = {"yWalk", "pWalk", "yBranch", "pBranch", "ySyncwarp", "ySyncthreads", "yInIf",
                         "pInIf", "yOneSide", "ySkip", "yNested", "pNested", "yTwo", "yBreak",
                         "ySelf", "yFind", "yOneSide4", "ySpin"};
  for (int k = 0; k < 18; k++) {
    cudaMemset(o1, 0, sizeof next); cudaMemset(o2, 0, sizeof next);
    dim3 g(N / B), b(B);
    switch (k) {
      case 0: yWalk<<<g, b>>>(dn, o1); break;
      case 1: pWalk<<<g, b>>>(dn, o1); break;
      case 2: yBranch<<<g, b>>>(dn, o1, o2); break;
      case 3: pBranch<<<g, b>>>(dn, o1, o2); break;
      case 4: ySyncwarp<<<g, b>>>(dn, o1, o2); break;
      case 5: ySyncthreads<<<g, b>>>(dn, o1, o2); break;
      case 6: yInIf<<<g, b>>>(dn, o1, o2, 3); break;
      case 7: pInIf<<<g, b>>>(dn, o1, o2, 3); break;
      case 8: yOneSide<<<g, b>>>(dn, o1, o2, 2); break;
      case 9: ySkip<<<g, b>>>(dn, o1); break;
      case 10: yNested<<<g, b>>>(dn, o1); break;
      case 11: pNested<<<g, b>>>(dn, o1); break;
      case 12: yTwo<<<g, b>>>(dn, o1, o2); break;
      case 13: yBreak<<<g, b>>>(dn, dm, o1); break;
      case 14: ySelf<<<g, b>>>(db, dt, o1); break;
      case 15: yFind<<<g, b>>>(dp, o1); break;
      case 16: yOneSide<<<g, b>>>(dn, o1, o2, 4); break;
      case 17: cudaMemset(db, 0, sizeof next); ySpin<<<g, b>>>(db, o1); break;
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("%s: %s\n", names[k], cudaGetErrorString(e)); return 1; }
    long long sum = 0;
    cudaMemcpy(out, o1, sizeof out, cudaMemcpyDeviceToHost);
    for (int v = 0; v < N; v++) sum += (long long)out[v] * (v % 13 + 1);
    cudaMemcpy(out, o2, sizeof out, cudaMemcpyDeviceToHost);
    for (int v = 0; v < N; v++) sum += (long long)out[v] * (v % 7 + 1);
    printf("%s %lld\n", names[k], sum);
  }
  return 0;
}
