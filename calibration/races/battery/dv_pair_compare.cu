// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A barrier under a comparison of each thread's element with its neighbour's (t ^ 1): of every pair
// of lanes with different elements exactly one takes the barrier, whatever the data.
extern "C" __global__ void dv_pair_compare(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    if (in[t] > in[t ^ 1]) __syncthreads(); // <-
    out[t] = s[t];
}
