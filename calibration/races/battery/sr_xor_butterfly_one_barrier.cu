// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A butterfly all-reduce through s[t ^ m] with one barrier per step: the read of step k (by thread
// t ^ m) and the write of step k+1 (by thread t) of one element have no barrier between them.
extern "C" __global__ void sr_xor_butterfly_one_barrier(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int v = in[t];
    for (int m = 1; m < 64; m <<= 1) {
        s[t] = v; // <-
        __syncthreads();
        v += s[t ^ m]; // <-
    }
    out[t] = v;
}
