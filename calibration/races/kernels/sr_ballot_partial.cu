// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero --arg buf:256:zero
// Lane 0 of warp 0 publishes a value in shared memory and warp 0 votes; warp 1 reads the value
// too: a vote orders the lanes of its own warp only, so warp 1's read races with the write.
extern "C" __global__ void sr_ballot_partial(const int *in, int *out) {
    __shared__ int v;
    int t = threadIdx.x;
    if (t == 0) v = in[0] + 7;
    unsigned b = __ballot_sync(0xffffffffu, in[t] >= 0);
    out[t] = v + __popc(b);
}
