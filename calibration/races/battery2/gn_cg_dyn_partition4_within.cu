// expect: none
// launch: --grid 1 --block 32 --arg buf:128 --arg buf:128:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Twin of sr_cg_dyn_partition4_other: each thread reads the slot of another thread of its own
// group of 4 after the group's sync().
extern "C" __global__ void gn_cg_dyn_partition4_within(const int *in, int *out) {
    __shared__ int s[32];
    cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 4);
    int t = threadIdx.x;
    s[t] = in[t] * 3;
    g.sync();
    out[t] = s[(t & ~3) | ((t + 1) & 3)];
}
