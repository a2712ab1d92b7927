// BUG (out of bounds, global): no `if (i < n)` guard; the launch has more threads than elements.
extern "C" __global__ void oob_global_noguard(float* out, const float* in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i];
}
