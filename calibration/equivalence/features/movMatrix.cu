// movmatrix (m8n8 .trans .b16): each lane holds one 32-bit register of an 8x8 matrix of 16-bit
// elements in the fragment layout ldmatrix gives (lane i: row i / 4, columns 2 (i % 4) and
// 2 (i % 4) + 1); movmatrix returns the transposed matrix in the same layout. Each warp transposes
// its input, transposes the result back (the identity), and transposes an ldmatrix fragment read
// from a shared tile; all three results are written.
// Launch: grid 2, block 128. Args: out (256 threads x 3 words), in (256 words + 2 x 1024 words).
__device__ __forceinline__ unsigned smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

extern "C" __global__ void movMatrix(unsigned *out, const unsigned *in)
{
    __shared__ __align__(16) unsigned tile[1024];
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    for (unsigned k = threadIdx.x; k < 1024; k += blockDim.x) tile[k] = in[256 + blockIdx.x * 1024 + k];
    __syncthreads();
    unsigned x = in[t], y, z, f, g;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(y) : "r"(x));
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(z) : "r"(y));
    // rows of the shared tile picked by the warp's lanes 0..7 (a scattered 8x8 tile)
    unsigned row = (in[(t & ~31u) + (lane & 7)] & 63) * 16 + (threadIdx.x >> 5) * 1024;
    unsigned a = smem(tile) + row;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(f) : "r"(a));
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(g) : "r"(f));
    out[t * 3] = y;
    out[t * 3 + 1] = z;
    out[t * 3 + 2] = g;
}
