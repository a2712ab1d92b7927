// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A loop whose condition is __syncthreads_and() of each thread's own test: the result is the
// same for the whole block, so every thread runs every barrier; between them each thread reads
// its neighbour's slot and a second barrier orders that read before the next write.
extern "C" __global__ void gn_syncthreads_and_while_uniform(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int v = in[t] & 1023, rounds = 0;
    do {
        s[t] = v;
        __syncthreads();
        v = (v + s[(t + 1) & 63]) / 2;
        __syncthreads();
        ++rounds;
    } while (!__syncthreads_and(v < 64 || rounds >= 8));
    out[t] = v;
}
