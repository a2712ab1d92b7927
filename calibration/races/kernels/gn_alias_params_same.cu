// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero --arg alias:0
// Both pointer parameters name the same buffer at the same offset: each thread reads and writes
// only its own element.
__global__ void alias_params_same(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1;
}
