// expect: race
// launch: --grid 1 --block 32 --arg buf:128:zero
// Lanes 2i and 2i+1 store different values to s[i] with one instruction: a write-write race
// inside one store of one warp.
extern "C" __global__ void sr_same_inst_ww(int *out) {
    __shared__ int s[16];
    int l = threadIdx.x;
    s[l / 2] = l;
    __syncthreads();
    out[l] = s[l / 2];
}
