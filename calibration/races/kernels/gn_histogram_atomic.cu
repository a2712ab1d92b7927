// expect: none
// launch: --grid 2 --block 128 --arg buf:1024 --arg buf:64:zero --arg i32:256
// A histogram with atomic increments: atomics do not race with atomics.
extern "C" __global__ void gn_histogram_atomic(const unsigned *data, unsigned *bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[data[i] % 16], 1u);
}
