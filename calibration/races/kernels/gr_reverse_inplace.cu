// expect: global_race
// launch: --grid 2 --block 64 --arg buf:512
// In-place reversal without a second buffer: thread i reads what thread n-1-i writes.
extern "C" __global__ void gr_reverse_inplace(float *a) {
    int n = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = a[n - 1 - i];
}
