// expect: global_race
// launch: --grid 1 --block 32 --arg buf:256:zero --arg buf:256:zero --nvrtc-option=-rdc=true --kernel gr_cdp_parent_writes_after
// Thread 0 launches a child grid that reads a[]; then every parent thread overwrites a[]. The
// child may run at once or after the parent: its reads race with the parent's writes made after
// the launch.
__global__ void child(const int *a, int *out) { out[threadIdx.x] = a[threadIdx.x]; }
extern "C" __global__ void gr_cdp_parent_writes_after(int *a, int *out) {
    a[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 0) child<<<1, 32>>>(a, out);
    __syncthreads();
    a[threadIdx.x] = 2;
}
