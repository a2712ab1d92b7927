// expect: race
// launch: --grid 1 --block 32 --arg buf:128 --arg buf:128:zero
// A recursive device function that writes slots k, k+1, ..., k+d of a shared array: thread t
// writes t..t+2 and thread t+1 writes t+1..t+3, different values to the same bytes, no barrier.
__device__ void fill(int *s, int k, int d, int v) {
    if (d < 0) return;
    s[k] = v + d; // <-
    fill(s, k + 1, d - 1, v);
}
extern "C" __global__ void sr_recursive_fill_shared(const int *in, int *out) {
    __shared__ int s[40];
    int t = threadIdx.x;
    fill(s, t, 2, in[t] * 64 + t);
    __syncthreads();
    out[t] = s[t];
}
