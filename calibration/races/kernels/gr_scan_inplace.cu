// expect: global_race
// launch: --grid 2 --block 128 --arg buf:1024:zero
// One step of an in-place scan: a[i] += a[i - 1] reads the element the previous thread writes.
extern "C" __global__ void gr_scan_inplace(int *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0) a[i] += a[i - 1];
}
