// expect: none
// launch: --grid 2 --block 32 --arg buf:1028 --arg buf:1024:zero
// Twin of gr_coarsened_stencil_inplace writing a second buffer: the neighbours' elements are
// only read.
extern "C" __global__ void gn_coarsened_stencil_outofplace(const float *a, float *b) {
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
#pragma unroll
    for (int k = 0; k < 4; ++k) b[base + k] = 0.5f * (a[base + k] + a[base + k + 1]);
}
