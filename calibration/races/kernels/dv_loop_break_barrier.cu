// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A loop with a barrier in its body whose threads leave it by `break` on their own data: the
// threads whose input is below the iteration leave while the others wait at the next barrier.
extern "C" __global__ void dv_loop_break_barrier(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x, acc = 0;
    int limit = (in[t] & 7) + 1;
    for (int it = 0; it < 8; ++it) {
        if (it >= limit) break;
        s[t] = acc + it;
        __syncthreads();
        acc += s[(t + 1) % 64];
        __syncthreads();
    }
    out[t] = acc;
}
