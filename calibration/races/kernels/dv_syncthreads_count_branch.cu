// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// __syncthreads_count() (bar.red.popc) reached by the even threads only.
extern "C" __global__ void dv_syncthreads_count_branch(const int *in, int *out) {
    int t = threadIdx.x;
    int n = 0;
    if (t % 2 == 0) n = __syncthreads_count(in[t] > 0);
    out[t] = n;
}
