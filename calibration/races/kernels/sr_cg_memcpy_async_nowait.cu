// expect: race
// launch: --grid 1 --block 128 --arg buf:1024 --arg buf:512:zero
// gn_cg_memcpy_async_wait with the reads before cooperative_groups::wait(block): the copy may
// still be writing the elements a thread reads (and another thread's part of it is not ordered
// by any barrier before the read).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
extern "C" __global__ void sr_cg_memcpy_async_nowait(const int *in, int *out) {
    __shared__ int s[256];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, s, in, sizeof(int) * 256);
    int t = threadIdx.x;
    int v = s[255 - t] + s[(t * 37) % 256];
    cg::wait(block);
    out[t] = v;
}
