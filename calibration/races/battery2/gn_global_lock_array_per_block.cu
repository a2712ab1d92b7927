// expect: none
// launch: --grid 4 --block 128 --arg buf:16 --arg buf:16:zero --arg buf:16:zero
// A lock per block in a global array: thread 0 of each block initialises its block's lock word, a
// barrier, then lane 0 of each warp takes that lock by atomicCAS, adds to its block's counter
// under it, fenced, and gives it back. No block touches another's lock or counter; within a block
// the first barrier orders the initialisation before every warp's atomicCAS (needed, as in
// gn_global_lock_init_cas), the second the counter's updates before thread 0's read.
extern "C" __global__ void gn_global_lock_array_per_block(int *locks, int *counts, int *out) {
    int t = threadIdx.x, b = blockIdx.x;
    if (t == 0) locks[b] = 0;
    __syncthreads();
    if ((t & 31) == 0) {
        while (atomicCAS(&locks[b], 0, 1) != 0) {
        }
        __threadfence();
        counts[b] = counts[b] + 1;
        __threadfence();
        atomicExch(&locks[b], 0);
    }
    __syncthreads();
    if (t == 0) out[b] = counts[b];
}
