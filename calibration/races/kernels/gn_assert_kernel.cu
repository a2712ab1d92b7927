// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero
// A device assert that holds, then each thread's own element.
#include <cassert>
__global__ void assert_kernel(const unsigned *in, unsigned *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < 128);
    out[i] = in[i] | 1u;
}
