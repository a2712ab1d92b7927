// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A loop that synchronises only on even iterations (k % 2 == 0, the same for every thread): on odd
// iterations the write of s[t] and the neighbour's read of it are unordered.
extern "C" __global__ void sr_barrier_every_other_iteration(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int v = in[t];
    for (int k = 0; k < 4; ++k) {
        s[t] = v; // <-
        if (k % 2 == 0) __syncthreads();
        v += s[(t + 1) % 64]; // <-
        __syncthreads();
    }
    out[t] = v;
}
