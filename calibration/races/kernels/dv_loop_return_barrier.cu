// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256:zero --arg i32:3
// A loop with a barrier whose thread 5 returns in iteration `stop`: the others wait at the
// barrier of that iteration for a thread that has left (barrier divergence).
extern "C" __global__ void dv_loop_return_barrier(int *out, int stop) {
    __shared__ int s[64];
    int t = threadIdx.x;
    for (int it = 0; it < 6; ++it) {
        if (t == 5 && it == stop) return;
        s[t] = t * it;
        __syncthreads();
        out[t] += s[(t + it) % 64];
        __syncthreads();
    }
}
