// expect: none
// launch: --grid 1 --block 128 --arg buf:512:zero --arg buf:4:zero
// Every thread whose element is negative sets one shared flag to 1: writes of the same value,
// benign by the verifiers' convention (not reported unless --report-same-value-writes).
extern "C" __global__ void gn_same_value_shared(const int *in, int *out) {
    __shared__ int any;
    if (threadIdx.x == 0) any = 0;
    __syncthreads();
    if (in[threadIdx.x] <= 0) any = 1;
    __syncthreads();
    if (threadIdx.x == 0) out[0] = any;
}
