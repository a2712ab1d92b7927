// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A relaxation loop whose only barrier is the __syncthreads_count() that decides whether to go on:
// in one iteration thread t reads s[t + 1] and thread t + 1 writes it (no barrier between).
extern "C" __global__ void sr_syncthreads_count_loop_war(const int *in, int *out) {
    __shared__ int s[65];
    int t = threadIdx.x;
    s[t] = in[t] & 255;
    if (t == 0) s[64] = 0;
    __syncthreads();
    int left, it = 0;
    do {
        int r = s[t + 1]; // <-
        int v = (s[t] + r) / 2;
        s[t] = v; // <-
        left = __syncthreads_count(v > 8);
    } while (left > 0 && ++it < 16);
    out[t] = s[t];
}
