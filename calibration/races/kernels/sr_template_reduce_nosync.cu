// expect: race
// launch: --kernel block_reduce<128> --grid 1 --block 128 --arg buf:512 --arg buf:4:zero
// A template tree reduction in shared memory whose loop has no __syncthreads(): the step's reads
// race with the previous step's writes of other warps.
template <int B>
__global__ void block_reduce(const int *in, int *out) {
    __shared__ int s[B];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int stride = B / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
    }
    if (t == 0) *out = s[0];
}
template __global__ void block_reduce<128>(const int *, int *);
