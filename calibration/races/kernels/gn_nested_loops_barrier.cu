// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero --arg i32:3
// Barriers in nested loops whose trip counts depend on a parameter and the outer index only
// (block-uniform): no divergence, every exchange ordered (race-free).
extern "C" __global__ void gn_nested_loops_barrier(int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, v = t;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++) {
            s[t] = v + j;
            __syncthreads();
            v = s[(t + j + 1) % 64];
            __syncthreads();
        }
    }
    out[blockIdx.x * 64 + t] = v;
}
