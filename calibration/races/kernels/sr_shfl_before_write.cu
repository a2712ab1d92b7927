// expect: race
// launch: --grid 1 --block 32 --arg buf:128:zero --arg buf:128:zero
// The same exchange with the shuffle before the shared write: nothing orders a lane's write
// with its neighbour's read (lanes of one warp are not ordered without a synchronisation).
extern "C" __global__ void sr_shfl_before_write(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x;
    int src = __shfl_sync(0xffffffffu, l, (l + 1) % 32);
    s[l] = in[l] * 3;
    out[l] = s[src];
}
