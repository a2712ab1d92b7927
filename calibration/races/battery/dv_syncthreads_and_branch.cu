// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:4:zero
// __syncthreads_and() (a barrier that also reduces) reached by the odd threads only.
extern "C" __global__ void dv_syncthreads_and_branch(const int *in, int *out) {
    int t = threadIdx.x;
    int all = 1;
    if (t & 1) all = __syncthreads_and(in[t] > 0); // <-
    if (t == 1) *out = all;
}
