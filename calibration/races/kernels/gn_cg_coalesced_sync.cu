// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero
// coalesced_threads() inside a branch taken by lanes 0..15: the group's sync() orders those lanes,
// and each reads a slot another lane of the group wrote.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gn_cg_coalesced_sync(int *out) {
    __shared__ int s[32];
    int l = threadIdx.x;
    if (l < 16) {
        cg::coalesced_group g = cg::coalesced_threads();
        s[l] = l + 100;
        g.sync();
        out[l] = s[15 - l];
    }
}
