// expect: global_race
// launch: --grid 1 --block 32 --arg buf:256:zero --arg buf:256:zero --nvrtc-option=-rdc=true --kernel gr_cdp_parent_reads_child
// Dynamic parallelism: thread 0 launches a child grid that writes a[], and the parent reads a[]
// right after the launch. Without a device-side cudaDeviceSynchronize (removed in CUDA 12) the
// child's writes and the parent's reads are unordered.
__global__ void child(int *a) { a[threadIdx.x] = threadIdx.x + 1; }
extern "C" __global__ void gr_cdp_parent_reads_child(int *a, int *out) {
    if (threadIdx.x == 0) child<<<1, 32>>>(a);
    __syncthreads();
    out[threadIdx.x] = a[threadIdx.x];
}
