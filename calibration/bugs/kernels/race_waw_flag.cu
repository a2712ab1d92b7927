// BUG (race, WAW): lane 0 of every warp writes the same shared word in the same barrier interval.
extern "C" __global__ void race_waw_flag(float* out, const float* in, int n)
{
    __shared__ float flag;
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    if (tid % 32 == 0) {
        flag = in[i];
    }
    __syncthreads();
    out[i] = flag;
}
