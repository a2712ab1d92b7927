// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero
// Lanes 2i and 2i+1 store the same value to s[i] with one instruction: a same-value write,
// benign (not reported unless --report-same-value-writes).
extern "C" __global__ void gn_same_inst_same_value(int *out) {
    __shared__ int s[16];
    int l = threadIdx.x;
    s[l / 2] = l / 2;
    __syncthreads();
    out[l] = s[l / 2];
}
