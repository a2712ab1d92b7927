// Block-wide predicate reductions (PTX bar.red): __syncthreads_count, __syncthreads_and and
// __syncthreads_or, with a partial last warp (80 threads = 2.5 warps). Launch: grid 4, block 80.
// Args: out (320 ints), in (320 floats). out[i] = count * 4 + and * 2 + or, where count = threads of
// the block with in > 0.5, and = no NaN in the block, or = thread 37's input is > 0.5.
extern "C" __global__ void syncReduce(int *out, const float *in)
{
    unsigned int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;
    float v = in[i];
    int pos = v > 0.5f;
    int count = __syncthreads_count(pos);
    int all = __syncthreads_and(v == v);
    int any = __syncthreads_or(t == 37 && pos);
    out[i] = count * 4 + (all ? 2 : 0) + (any ? 1 : 0);
}
