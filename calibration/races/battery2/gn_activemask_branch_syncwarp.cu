// expect: none
// launch: --grid 1 --block 32 --arg buf:128 --arg buf:128:zero
// In a branch taken by the even lanes, the lanes synchronise with __syncwarp(__activemask()) and
// read another even lane's slot; the odd lanes never touch the array.
extern "C" __global__ void gn_activemask_branch_syncwarp(const int *in, int *out) {
    __shared__ int s[32];
    int t = threadIdx.x;
    if ((t & 1) == 0) {
        unsigned m = __activemask();
        s[t] = in[t];
        __syncwarp(m);
        out[t] = s[(t + 2) & 31];
    }
}
