// expect: race
// launch: --grid 1 --block 64 --dyn-smem 384 --arg buf:256:zero --arg i32:32
// Two arrays carved out of dynamic shared memory, the second at element n of the first: with
// n = 32 and 64 threads they overlap, and thread t+32's write of a[] meets thread t's write of b[]
// (race, launch-dependent); gn_dyn_overlap runs n = 64.
extern "C" __global__ void sr_dyn_overlap(int *out, int n) {
    extern __shared__ int buf[];
    int *a = buf, *b = buf + n;
    int t = threadIdx.x;
    a[t] = t;
    b[t] = 2 * t;
    __syncthreads();
    out[t] = a[t] + b[t];
}
