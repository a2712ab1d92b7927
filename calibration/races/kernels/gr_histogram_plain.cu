// expect: global_race
// launch: --grid 2 --block 128 --arg buf:1024 --arg buf:64:zero --arg i32:256
// A histogram with plain increments: two threads with the same bin lose an update.
extern "C" __global__ void gr_histogram_plain(const unsigned *data, unsigned *bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned b = data[i] % 16;
        bins[b] = bins[b] + 1;
    }
}
