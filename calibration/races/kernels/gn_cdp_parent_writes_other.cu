// expect: none
// launch: --grid 1 --block 32 --arg buf:256:zero --arg buf:256:zero --nvrtc-option=-rdc=true --kernel gn_cdp_parent_writes_other
// Twin of gr_cdp_parent_writes_after: after the launch the parent writes the other half of a[],
// which the child does not read.
__global__ void child(const int *a, int *out) { out[threadIdx.x] = a[threadIdx.x]; }
extern "C" __global__ void gn_cdp_parent_writes_other(int *a, int *out) {
    a[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 0) child<<<1, 32>>>(a, out);
    a[32 + threadIdx.x] = 2;
}
