// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg i32:1
// A generic pointer chosen at run time between a shared array and a global buffer: with
// use_shared = 1 both warps go through it to shared memory, and warp 1 reads what warp 0 writes
// with no barrier.
__device__ __noinline__ int *pick(int *sh, int *gl, int use_shared) { return use_shared ? sh : gl; }
extern "C" __global__ void sr_generic_ptr_shared_or_global(int *g, int use_shared) {
    __shared__ int s[64];
    int *p = pick(s, g, use_shared);
    int t = threadIdx.x;
    if (t < 32)
        p[t] = t * 9; // <-
    else
        g[t] = p[t - 32]; // <-
}
