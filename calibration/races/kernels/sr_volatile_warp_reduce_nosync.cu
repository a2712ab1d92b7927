// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:4:zero
// The classic volatile warp-synchronous tail (the last six steps of a reduction with no barrier and
// no __syncwarp()): under independent thread scheduling the lanes' reads and writes race.
__device__ void warp_tail(volatile int *s, int t) {
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
}
__global__ void volatile_warp_reduce_nosync(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) warp_tail(s, t);
    if (t == 0) *out = s[0];
}
