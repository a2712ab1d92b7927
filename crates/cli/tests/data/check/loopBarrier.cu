// A loop over tiles: the barrier at the end of the body keeps the next iteration's stores after
// this iteration's reads. With one iteration (n = 1) it has nothing to order in that launch.
__global__ void tiles(const int *in, int *out, int n)
{
    __shared__ int s[64];
    int acc = 0;
    for (int i = 0; i < n; i++) {
        s[threadIdx.x] = in[i * 64 + threadIdx.x];
        __syncthreads();
        acc += s[63 - threadIdx.x];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}
