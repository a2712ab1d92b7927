// Same-value writes: every thread sets a flag to 1, every lane stores the same word to s[t % 2];
// and a real race: every lane stores its own index to one word.
__global__ void sameValue(int *out, int flag)
{
    __shared__ int done;
    __shared__ int s[2];
    if (threadIdx.x == 0)
        done = 0;
    __syncthreads();
    if (flag)
        done = 1;
    s[threadIdx.x % 2] = 7;
    __syncthreads();
    out[threadIdx.x] = done + s[threadIdx.x % 2];
}

__global__ void lastWriterWins(int *out)
{
    __shared__ int last;
    last = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = last;
}
