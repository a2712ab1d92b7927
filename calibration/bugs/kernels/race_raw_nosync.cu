// BUG (race, RAW): each thread reads its right neighbour's slot with no barrier after the writes.
extern "C" __global__ void race_raw_nosync(float* out, const float* in, int n)
{
    __shared__ float s[64];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    // missing __syncthreads()
    out[i] = s[(tid + 1) % 64];
}
