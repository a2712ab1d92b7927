// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256:zero
// A loop whose trip count is the thread's index modulo 4, with __syncthreads_or() inside: threads
// leave after different numbers of barriers, so some wait at a barrier the others never reach.
extern "C" __global__ void dv_syncthreads_or_per_thread_loop(int *out) {
    int t = threadIdx.x;
    int any = 0;
    for (int k = 0; k <= (t & 3); ++k)
        any += __syncthreads_or(k == t); // <-
    out[t] = any;
}
