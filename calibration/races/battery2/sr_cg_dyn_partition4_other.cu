// expect: race
// launch: --grid 1 --block 32 --arg buf:128 --arg buf:128:zero
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// A group of 4 from the run-time `tiled_partition(block, 4)`: its sync() orders the 4 threads of
// one group only, but each thread then reads the slot of the next group (t + 4).
extern "C" __global__ void sr_cg_dyn_partition4_other(const int *in, int *out) {
    __shared__ int s[36];
    cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 4);
    int t = threadIdx.x;
    s[t] = in[t] * 3; // <-
    g.sync();
    out[t] = s[(t + 4) & 31]; // <-
}
