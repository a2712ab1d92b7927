// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// sr_xor_butterfly_one_barrier with the second barrier after each step's read.
extern "C" __global__ void gn_xor_butterfly_two_barriers(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int v = in[t];
    for (int m = 1; m < 64; m <<= 1) {
        s[t] = v;
        __syncthreads();
        v += s[t ^ m];
        __syncthreads();
    }
    out[t] = v;
}
