// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero
// __syncthreads_or() and __syncthreads_count() (bar.red) order the block as __syncthreads() does:
// the exchanges after them are race-free.
extern "C" __global__ void gn_syncthreads_or(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    int any = __syncthreads_or(s[t] < 0);
    out[t] = s[127 - t] + any;
    int c = __syncthreads_count(out[t] > 0);
    s[t] = c;
    __syncthreads();
    out[t] += s[(t + 5) % 128];
}
