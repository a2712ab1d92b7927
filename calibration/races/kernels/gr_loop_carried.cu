// expect: global_race
// launch: --grid 2 --block 64 --arg buf:1024:zero --arg i32:4
// A relaxation loop updating in place: each sweep reads neighbours other threads are writing.
extern "C" __global__ void gr_loop_carried(float *u, int sweeps) {
    int n = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int s = 0; s < sweeps; s++) {
        if (i > 0 && i < n - 1) u[i] = 0.5f * (u[i - 1] + u[i + 1]);
        __syncthreads();
    }
}
