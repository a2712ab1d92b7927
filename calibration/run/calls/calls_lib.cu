// Part of calls: device functions kept as real calls (another translation unit under -rdc=true,
// or every function under -G): a recursion whose depth differs by lane, a callee with a
// divergent branch and a loop, and two functions reached through a table of function pointers.

__device__ int depthSum(int n) {
  // recursion: depth n, different per lane
  return n <= 0 ? 0 : n + depthSum(n - 1);
}

__device__ int stepDiv(int x) {
  // a divergent branch and a data-dependent loop inside the callee
  int r = 0;
  if (x & 1) {
    for (int k = 0; k < (x & 7); ++k) r += k * x;
  } else {
    r = x / 3;
  }
  return r;
}

__device__ int opTwice(int x) { return 2 * x + 1; }
__device__ int opSquare(int x) { return x * x - (x & 5); }

__device__ int (*opTable[2])(int) = {opTwice, opSquare};
