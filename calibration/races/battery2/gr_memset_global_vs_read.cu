// expect: global_race
// launch: --grid 2 --block 32 --arg buf:256 --arg buf:256:zero
// Block 0's thread 0 clears the buffer with device-side memset while block 1 reads it.
#include <cstring>
extern "C" __global__ void gr_memset_global_vs_read(int *buf, int *out) {
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) memset(buf, 0, 64 * sizeof(int)); // <-
    } else {
        out[threadIdx.x] = buf[threadIdx.x * 2]; // <-
    }
}
