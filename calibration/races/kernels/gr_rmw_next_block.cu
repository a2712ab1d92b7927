// expect: global_race
// launch: --grid 4 --block 32 --arg buf:512
// Each block adds the first element of the next block's segment to its own last element, while
// that block doubles its segment in place: a read-modify-write across blocks.
extern "C" __global__ void gr_rmw_next_block(float *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = gridDim.x * blockDim.x;
    a[i] = a[i] * 2.0f;
    if (threadIdx.x == blockDim.x - 1 && i + 1 < n) a[i] += a[i + 1];
}
