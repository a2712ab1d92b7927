// expect: none
// launch: --grid 1 --block 256 --arg buf:1024:zero --arg buf:4:zero
// The twin of sr_many_readers_late_write: a barrier orders the 256 reads of s[0] before thread
// 200's write (race-free).
extern "C" __global__ void gn_many_readers_late_write(int *out, int *done) {
    __shared__ int s[4];
    int t = threadIdx.x;
    if (t == 0) s[0] = 5;
    __syncthreads();
    out[t] = s[(t & 0) + (out[t] & 3)]; // out[] is zero: s[0], read by every thread
    __syncthreads();
    if (t == 200) s[0] = done[0] + 6;
    __syncthreads();
    if (t == 0) done[0] = s[0];
}
