// BUG (uninitialised read, dynamic shared memory): only warp 0 fills its half, warp 0 reads the other half.
extern "C" __global__ void uninit_dyn(float* out, const float* in, int n)
{
    extern __shared__ float s[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    if (tid < 32) {
        s[tid] = in[i];
    }
    __syncthreads();
    out[i] = s[63 - tid];
}
