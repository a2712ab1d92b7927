// expect: none
// launch: --grid 1 --block 128 --arg buf:1024 --arg buf:512:zero
// cooperative_groups::memcpy_async of 256 ints into shared memory by the whole block, then
// cooperative_groups::wait(block) (which waits for the copy and synchronises the block) before
// each thread reads two elements another thread's part of the copy may have brought (race-free).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gn_cg_memcpy_async_wait(const int *in, int *out) {
    __shared__ int s[256];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, s, in, sizeof(int) * 256);
    cg::wait(block);
    int t = threadIdx.x;
    out[t] = s[255 - t] + s[(t * 37) % 256];
}
