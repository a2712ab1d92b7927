// expect: global_race
// launch: --grid 2 --block 32 --arg buf:256:zero
// The racing store sits in a function that is called, not inlined.
__device__ __noinline__ void put(int *a, int i, int v) { a[i] = v; }
extern "C" __global__ void gr_noinline_helper(int *a) {
    put(a, threadIdx.x % 8, blockIdx.x * 32 + threadIdx.x);
}
