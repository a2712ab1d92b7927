// Kernels of the driver tests: a header through -I, a macro through -D, two instantiations of a
// template kernel and a kernel that takes a struct by value.
#include "tile_math.cuh"

// A tree reduction over BLOCK threads: conflict-free, barriers where they are needed.
template <int BLOCK>
__global__ void blockSum(const float *in, float *out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

template __global__ void blockSum<256>(const float *, float *);
template __global__ void blockSum<128>(const float *, float *);

// Transpose of a d.w x d.h matrix through a TILE x TILE shared tile, scaled by d.s: the column
// read of the tile is a TILE-way bank conflict (TILE = 32).
__global__ void scaledTranspose(const float *in, float *out, Dims d)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < d.w && y < d.h)
        tile[threadIdx.y][threadIdx.x] = in[y * d.w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < d.h && y < d.w)
        out[y * d.h + x] = scaled(tile[threadIdx.x][threadIdx.y], d.s);
}
