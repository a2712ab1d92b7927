// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:4:zero
// Twin of sr_ballot_leader_no_barrier with the barrier between the leaders' writes and the sum.
extern "C" __global__ void gn_ballot_leader_barrier(const int *in, int *out) {
    __shared__ int cnt[4];
    int t = threadIdx.x;
    unsigned b = __ballot_sync(0xffffffffu, in[t] > 0);
    if ((t & 31) == 0) cnt[t / 32] = __popc(b);
    __syncthreads();
    if (t == 0) out[0] = cnt[0] + cnt[1] + cnt[2] + cnt[3];
}
