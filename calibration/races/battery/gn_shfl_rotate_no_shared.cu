// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero
// A rotation within each warp by __shfl_sync instead of a shared buffer, then each thread writes
// its own element.
extern "C" __global__ void gn_shfl_rotate_no_shared(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int r = __shfl_sync(0xffffffffu, v, (threadIdx.x + 1) % 32);
    out[i] = r - v;
}
