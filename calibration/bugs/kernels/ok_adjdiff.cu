// CORRECT: seed 004 adjacent difference with its one needed barrier.
extern "C" __global__ void ok_adjdiff(float* b, const float* a, int num)
{
    __shared__ float s_data[1024];
    unsigned tx = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < num) {
        s_data[tx] = a[i];
    }
    __syncthreads();
    if (tx > 0) {
        b[i] = s_data[tx] - s_data[tx - 1];
    } else if (i > 0) {
        b[i] = s_data[tx] - a[i - 1];
    } else {
        b[i] = s_data[tx] - 0.0f;
    }
}
