// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero
// A shared table filled before a barrier and then read by every thread, many threads per element
// (s[0] by all, s[t / 2] by pairs, s[t % 8] by sixteen): no writes after the barrier.
extern "C" __global__ void gn_read_read_shared(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[0] + s[t / 2] + s[t % 8];
}
