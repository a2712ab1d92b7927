// expect: none
// launch: --grid 1 --block 32 --arg buf:256
// Each block adds the next block's elements (cyclically) to its own, in place. With one block, each
// thread reads and writes its own element.
extern "C" __global__ void gn_next_block_grid1(float *a) {
    int t = threadIdx.x;
    int nb = (blockIdx.x + 1) % gridDim.x;
    float v = a[nb * 32 + t];
    a[blockIdx.x * 32 + t] += v;
}
