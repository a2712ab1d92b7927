// expect: none
// launch: --grid 2 --block 64 --arg buf:4096 --arg i32:1000
// A grid-stride loop that reads the element it will own in its next iteration before writing
// the current one (x[i] = x[i] + x[i + stride]): every element it reads, writes or reads ahead
// is its own (stride apart), so no other thread touches it (race-free).
extern "C" __global__ void gn_grid_stride_lookahead(int *x, int n) {
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int next = i + stride < n ? x[i + stride] : 0;
        x[i] = x[i] + next;
    }
}
