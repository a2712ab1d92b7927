// expect: race
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:4:zero
// Each warp's lane 0 writes its warp's count of positive elements (a ballot) to shared memory;
// thread 0 sums the four counts with no barrier after the other warps' writes.
extern "C" __global__ void sr_ballot_leader_no_barrier(const int *in, int *out) {
    __shared__ int cnt[4];
    int t = threadIdx.x;
    unsigned b = __ballot_sync(0xffffffffu, in[t] > 0);
    if ((t & 31) == 0) cnt[t / 32] = __popc(b); // <-
    if (t == 0) out[0] = cnt[0] + cnt[1] + cnt[2] + cnt[3]; // <-
}
