// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero
// A stencil reading one buffer and writing another.
extern "C" __global__ void gn_two_buffers(const float *in, float *out) {
    int n = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float l = i > 0 ? in[i - 1] : 0.0f, r = i < n - 1 ? in[i + 1] : 0.0f;
    out[i] = 0.25f * l + 0.5f * in[i] + 0.25f * r;
}
