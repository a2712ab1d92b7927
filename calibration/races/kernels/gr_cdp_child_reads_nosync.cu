// expect: global_race
// launch: --grid 2 --block 32 --arg buf:256:zero --arg buf:256:zero --nvrtc-option=-rdc=true --kernel gr_cdp_child_reads_nosync
// gn_cdp_child_reads without the barrier: a launch orders only the launching thread's earlier
// writes before the child grid, so the child's reads of what threads 1-31 wrote race with those
// writes.
__global__ void child(const int *a, int *out, int base) { out[base + threadIdx.x] = a[base + threadIdx.x] + 1; }
extern "C" __global__ void gr_cdp_child_reads_nosync(int *a, int *out) {
    int b = blockIdx.x * 32;
    a[b + threadIdx.x] = threadIdx.x;
    if (threadIdx.x == 0) child<<<1, 32>>>(a, out, b);
}
