// expect: race
// launch: --grid 1 --block 128 --arg buf:512:zero
// Every thread adds to a shared counter with atomicAdd; lane 0 of each warp reads it with a plain
// load after __syncwarp(): the other warps' atomics are not ordered before that read.
extern "C" __global__ void sr_shared_atomic_then_syncwarp_read(int *out) {
    __shared__ int count;
    int t = threadIdx.x;
    if (t == 0) count = 0;
    __syncthreads();
    atomicAdd(&count, 1); // <-
    __syncwarp();
    if (t % 32 == 0) out[t / 32] = count; // <-
}
