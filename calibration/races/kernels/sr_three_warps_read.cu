// expect: race
// launch: --grid 1 --block 128 --arg buf:512:zero
// Warps 0, 1 and 2 read s[0] with three different instructions (a 4-byte, a 2-byte and a 1-byte
// read: lines 13, 14, 15), then thread 96 (warp 3) writes s[0] (line 16) with no barrier since
// the reads: each of the three reads races with the write (three instruction pairs, each with
// the same write). Warp 0 fills s before a barrier, which orders that before them.
extern "C" __global__ void sr_three_warps_read(int *out) {
    __shared__ int s[32];
    int t = threadIdx.x, w = t / 32, v = 0;
    if (t < 32) s[t] = t + 1;
    __syncthreads();
    // one read per warp, each its own width
    if (t == 0) v = s[0];
    if (t == 32) v = *(volatile short *)s;
    if (t == 64) v = *(volatile char *)s;
    if (t == 96) s[0] = 5;
    out[t] = v + w;
}
