// expect: race
// launch: --grid 1 --block 32 --arg buf:128:zero
// Lanes 16..31 write their slots before the branch; lanes 0..15 then sync their coalesced group
// (which does not hold lanes 16..31) and read those slots: the group's sync orders nothing with
// the writers.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void sr_cg_coalesced_outsider(int *out) {
    __shared__ int s[32];
    int l = threadIdx.x;
    if (l >= 16) s[l] = l + 100;
    if (l < 16) {
        cg::coalesced_group g = cg::coalesced_threads();
        g.sync();
        out[l] = s[l + 16];
    }
}
