// expect: global_race
// launch: --grid 1 --block 64 --arg buf:256:zero --arg buf:256:zero --arg i32:3
// A global scratch row rewritten every iteration with one barrier: thread t reads element t+1 after
// the barrier, and thread t+1 overwrites it at the top of the next iteration with nothing between.
extern "C" __global__ void gr_loop_war_global_next_iter(int *g, int *out, int iters) {
    int t = threadIdx.x;
    int v = t;
    for (int k = 0; k < iters; ++k) {
        g[t] = v; // <-
        __syncthreads();
        v += g[(t + 1) % 64]; // <-
    }
    out[t] = v;
}
