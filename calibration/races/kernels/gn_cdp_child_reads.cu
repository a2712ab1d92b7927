// expect: none
// launch: --grid 2 --block 32 --arg buf:256:zero --arg buf:256:zero --nvrtc-option=-rdc=true --kernel gn_cdp_child_reads
// Dynamic parallelism: each block writes its part, a barrier, then thread 0 launches a child grid
// that reads it. A launch orders the launching thread's earlier writes (and, through the
// barrier, the block's) before the child.
__global__ void child(const int *a, int *out, int base) { out[base + threadIdx.x] = a[base + threadIdx.x] + 1; }
extern "C" __global__ void gn_cdp_child_reads(int *a, int *out) {
    int b = blockIdx.x * 32;
    a[b + threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) child<<<1, 32>>>(a, out, b);
}
