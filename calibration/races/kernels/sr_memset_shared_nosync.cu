// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// Thread 0 clears a shared histogram with memset, and the other threads' atomics start with no
// barrier after it (a plain write against atomics of other warps).
#include <cstring>
__global__ void memset_shared_nosync(int *out) {
    __shared__ int hist[16];
    int t = threadIdx.x;
    if (t == 0) memset(hist, 0, sizeof(hist));
    atomicAdd(&hist[t % 16], 1);
    __syncthreads();
    if (t < 16) out[t] = hist[t];
}
