// expect: race
// launch: --grid 1 --block 32 --arg buf:128:zero
// Lanes 16-31 write s[lane] and return; lanes 0-15 then run __syncwarp() and read s[lane+16].
// bar.warp.sync waits for the non-exited lanes of its mask only, and orders the accesses of the
// lanes that execute it: the exited lanes' writes are not ordered before the reads (race; the
// twin gn_syncwarp_exited has the writers run __syncwarp() before they return).
extern "C" __global__ void sr_syncwarp_exited(int *out) {
    __shared__ int s[32];
    int l = threadIdx.x;
    if (l >= 16) {
        s[l] = l * 3;
        return;
    }
    __syncwarp();
    out[l] = s[l + 16];
}
