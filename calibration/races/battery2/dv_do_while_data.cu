// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A do/while whose exit depends on each thread's own data, a barrier inside: threads whose value
// reaches zero first stop arriving at the barrier.
extern "C" __global__ void dv_do_while_data(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int v = (in[t] & 7) + 1;
    int acc = 0;
    do {
        s[t] = v;
        __syncthreads(); // <-
        acc += s[63 - t];
        v -= 1;
    } while (v > 0);
    out[t] = acc;
}
