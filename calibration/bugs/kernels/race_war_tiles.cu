// BUG (race, WAR): the next tile overwrites s[] while other threads may still read the current one
// (the barrier at the end of the loop body is missing).
extern "C" __global__ void race_war_tiles(float* out, const float* in, int n)
{
    __shared__ float s[64];
    int tid = threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < 2; ++t) {
        s[tid] = in[(blockIdx.x * 2 + t) * 64 + tid];
        __syncthreads();
        acc += s[63 - tid];
        // missing __syncthreads()
    }
    out[blockIdx.x * 64 + tid] = acc;
}
