// expect: race
// launch: --grid 1 --block 1024 --arg buf:4096 --arg buf:4096:zero
// A reversal through shared memory in a block of 1024 threads (32 warps) with no barrier: thread t
// reads the element of thread 1023 - t, a lane of another warp.
extern "C" __global__ void sr_block1024_reverse_nosync(const float *in, float *out) {
    __shared__ float s[1024];
    int t = threadIdx.x;
    s[t] = in[t]; // <-
    out[t] = s[1023 - t]; // <-
}
