// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A lambda that writes the shared slot; the barrier is after the lambda's first call's read, not
// before it: warp 1 reads warp 0's first write with no barrier between (the write is named at
// the lambda's line, the call site as context).
extern "C" __global__ void sr_lambda_barrier_skipped_write(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    auto put = [&](int v) { s[t] = v; }; // <-
    put(in[t]);
    int a = s[t ^ 32]; // <-
    __syncthreads();
    put(a + 1);
    __syncthreads();
    out[t] = s[t ^ 32];
}
