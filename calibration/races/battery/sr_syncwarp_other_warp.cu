// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// __syncwarp() where a block barrier is needed: each thread reads the element of thread t ^ 32, a
// lane of the other warp.
extern "C" __global__ void sr_syncwarp_other_warp(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t] * 3; // <-
    __syncwarp();
    out[t] = s[t ^ 32]; // <-
}
