// expect: global_race
// launch: --grid 4 --block 32 --arg buf:520:zero
// Each thread reads its left neighbour, then (after a block barrier) overwrites its own element:
// the first thread of each block reads the element the last thread of the previous block
// overwrites; a barrier does not order blocks (race between blocks).
extern "C" __global__ void gr_interblock_halo(int *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int left = a[i - 1];
    __syncthreads();
    a[i] = left + 1;
}
