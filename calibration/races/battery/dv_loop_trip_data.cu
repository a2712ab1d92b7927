// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A barrier in a loop whose trip count each thread reads from its own input element (0 to 3): the
// threads of a warp run different numbers of iterations.
extern "C" __global__ void dv_loop_trip_data(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = 0;
    int n = in[t] & 3;
    for (int i = 0; i < n; ++i) {
        s[t] += i;
        __syncthreads(); // <-
    }
    out[t] = s[t];
}
