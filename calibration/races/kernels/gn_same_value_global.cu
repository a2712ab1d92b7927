// expect: none
// launch: --grid 2 --block 64 --arg buf:4:zero --arg buf:512
// Every thread that sees a negative input sets one global word to 1 (a benign same-value write,
// not reported by default; sv_same_value_global lists it with --report-same-value-writes).
extern "C" __global__ void gn_same_value_global(int *found, const int *in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[i] != 12345) *found = 1;
}
