// expect: global_race
// launch: --grid 2 --block 32 --arg buf:256:zero --arg buf:256:zero --nvrtc-option=-rdc=true --kernel gr_cdp_sibling_children
// Each block's thread 0 launches a child; both children write a[0..31]. Children of different
// blocks run in different streams and are not ordered with each other.
__global__ void child(int *a, int v) { a[threadIdx.x] = v; }
extern "C" __global__ void gr_cdp_sibling_children(int *a, int *out) {
    if (threadIdx.x == 0) child<<<1, 32>>>(a, blockIdx.x + 1);
    out[blockIdx.x * 32 + threadIdx.x] = 0;
}
