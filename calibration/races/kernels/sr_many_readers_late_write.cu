// expect: race
// launch: --grid 1 --block 256 --arg buf:1024:zero --arg buf:4:zero
// Every thread of 8 warps reads s[0] (256 unordered readers of one word) after one barrier; then
// thread 200 (warp 6) overwrites s[0] with no barrier between: it races with every other warp's
// read, whatever the order of the readers. The twin gn_many_readers_late_write has a barrier
// before the write.
extern "C" __global__ void sr_many_readers_late_write(int *out, int *done) {
    __shared__ int s[4];
    int t = threadIdx.x;
    if (t == 0) s[0] = 5;
    __syncthreads();
    out[t] = s[(t & 0) + (out[t] & 3)]; // out[] is zero: s[0], read by every thread
    if (t == 200) s[0] = done[0] + 6;
    __syncthreads();
    if (t == 0) done[0] = s[0];
}
