// expect: race
// launch: --grid 1 --block 32 --arg buf:128:zero
// Lanes write a shared slot, __syncwarp(0x0000ffff) by lanes 0-15 only, and lanes 0-15 then read
// the slot of lane t + 16, which the upper half wrote without joining the synchronisation.
__global__ void syncwarp_half_mask_shared(int *out) {
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = t * 5;
    if (t < 16) {
        __syncwarp(0x0000ffffu);
        out[t] = s[t + 16];
    }
}
