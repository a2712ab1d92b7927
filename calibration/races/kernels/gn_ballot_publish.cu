// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero --arg buf:128:zero
// Lane 0 publishes a value in shared memory; every lane then votes (__ballot_sync over the
// whole warp) and reads it. The vote is taken to order lane 0's write before the other lanes'
// reads, as __syncwarp() would (see crates/analysis/src/warp_sync.rs).
extern "C" __global__ void gn_ballot_publish(const int *in, int *out) {
    __shared__ int v;
    int l = threadIdx.x;
    if (l == 0) v = in[0] + 7;
    unsigned b = __ballot_sync(0xffffffffu, in[l] >= 0);
    out[l] = v + __popc(b);
}
