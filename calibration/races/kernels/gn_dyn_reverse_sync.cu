// expect: none
// launch: --grid 2 --block 64 --dyn-smem 256 --arg buf:512 --arg buf:512:zero
// Reversal through dynamic shared memory with the barrier.
extern "C" __global__ void gn_dyn_reverse_sync(const int *in, int *out) {
    extern __shared__ int s[];
    int t = threadIdx.x, n = blockDim.x, b = blockIdx.x * n;
    s[t] = in[b + t];
    __syncthreads();
    out[b + t] = s[n - 1 - t];
}
