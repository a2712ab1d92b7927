// expect: none
// launch: --grid 2 --block 64 --arg buf:516 --arg buf:512:zero
// A 1-D stencil with its coefficients in `__constant__` memory, reading an input it never writes.
__constant__ float coeff[3] = {0.25f, 0.5f, 0.25f};
__global__ void constant_coeffs(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float l = i > 0 ? in[i - 1] : 0.0f;
    out[i] = coeff[0] * l + coeff[1] * in[i] + coeff[2] * in[i + 1];
}
