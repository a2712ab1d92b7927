// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// A strong (volatile) write against a plain read of another warp with nothing ordering them:
// only two strong accesses are exempt, so the pair races.
extern "C" __global__ void sr_shared_strong_vs_plain(int *out) {
    __shared__ int word;
    int t = threadIdx.x;
    if (t == 0) word = 0;
    __syncthreads();
    if (t == 32) *(volatile int *)&word = 5;
    if (t == 0) out[0] = word;
}
