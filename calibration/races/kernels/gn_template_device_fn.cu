// expect: none
// launch: --kernel tiled_sum<float,4> --grid 2 --block 64 --arg buf:2048 --arg buf:512:zero
// A template kernel (element type, items per thread) calling a template device function: each
// thread sums its own N elements and writes its own output.
template <typename T, int N>
__device__ T sum_items(const T *p, int stride) {
    T acc = 0;
#pragma unroll
    for (int k = 0; k < N; ++k) acc += p[k * stride];
    return acc;
}
template <typename T, int N>
__global__ void tiled_sum(const T *in, T *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int total = gridDim.x * blockDim.x;
    out[i] = sum_items<T, N>(in + i, total);
}
template __global__ void tiled_sum<float, 4>(const float *, float *);
template __global__ void tiled_sum<double, 2>(const double *, double *);
