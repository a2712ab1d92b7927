// expect: none
// launch: --grid 1 --block 32 --arg buf:4:zero --arg buf:128:zero
// gr_warp_atomic_plain_load with __syncwarp() between the atomics and the plain loads: every lane
// reads the total after the warp's synchronisation.
extern "C" __global__ void gn_warp_atomic_syncwarp_load(int *count, int *out) {
    int t = threadIdx.x;
    if (t < 16) atomicAdd(count, t + 1);
    __syncwarp();
    if (t >= 16) out[t] = *count;
}
