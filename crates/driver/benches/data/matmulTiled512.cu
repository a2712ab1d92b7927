// The benchmark launch of `check` against `analyze`: a tiled matrix multiply C = A B of 512 x 512
// floats with 16 x 16 shared tiles (grid 32 x 32, block 16 x 16).
#define T 16
#define N 512

extern "C" __global__ void matmulTiled512(float *C, const float *A, const float *B)
{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float sum = 0.0f;
    for (int t = 0; t < N / T; t++) {
        As[ty][tx] = A[row * N + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * N + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = sum;
}
