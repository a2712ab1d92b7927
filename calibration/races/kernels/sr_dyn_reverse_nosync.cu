// expect: race
// launch: --grid 1 --block 64 --dyn-smem 256 --arg buf:256 --arg buf:256:zero
// Reversal through dynamic shared memory with the barrier between write and read missing.
extern "C" __global__ void sr_dyn_reverse_nosync(const int *in, int *out) {
    extern __shared__ int s[];
    int t = threadIdx.x, n = blockDim.x;
    s[t] = in[t];
    out[t] = s[n - 1 - t];
}
