// BUG (barrier in a loop whose trip count differs between warps): warp 1 runs one more iteration, so its
// second __syncthreads() is reached by part of the block only.
extern "C" __global__ void divergent_barrier_loop(float* out, const float* in, int n)
{
    __shared__ float s[64];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    float acc = 0.0f;
    s[tid] = in[i];
    for (int k = 0; k <= tid / 32; ++k) {
        __syncthreads();
        acc += s[(tid + k) % 64];
    }
    out[i] = acc;
}
