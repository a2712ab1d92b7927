// expect: none
// launch: --grid 1 --block 64 --dyn-smem 512 --arg buf:256:zero --arg i32:64
// The twin of sr_dyn_overlap with n = 64: the two arrays do not overlap (race-free).
extern "C" __global__ void gn_dyn_overlap(int *out, int n) {
    extern __shared__ int buf[];
    int *a = buf, *b = buf + n;
    int t = threadIdx.x;
    a[t] = t;
    b[t] = 2 * t;
    __syncthreads();
    out[t] = a[t] + b[t];
}
