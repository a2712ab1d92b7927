// expect: none
// launch: --grid 1 --block 32 --arg buf:256:zero --arg buf:256:zero --nvrtc-option=-rdc=true --kernel gn_cdp_tail_launch
// The CUDA 12 way for a parent to use a child's results: thread 0 launches a child that writes
// a[], then a tail launch (cudaStreamTailLaunch) of a kernel that reads them; a tail launch runs
// after the parent grid and all its other children complete.
__global__ void produce(int *a) { a[threadIdx.x] = threadIdx.x * 2; }
__global__ void consume(const int *a, int *out) { out[threadIdx.x] = a[31 - threadIdx.x] + 1; }
extern "C" __global__ void gn_cdp_tail_launch(int *a, int *out) {
    if (threadIdx.x == 0) {
        produce<<<1, 32>>>(a);
        consume<<<1, 32, 0, cudaStreamTailLaunch>>>(a, out);
    }
}
