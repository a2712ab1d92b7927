// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero --arg i32:128
// The kernel of gr_wrap_index_grid with n equal to the thread count: no index wraps.
extern "C" __global__ void gn_wrap_index_grid(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i % n] = i;
}
