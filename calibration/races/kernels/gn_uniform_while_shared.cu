// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// A while loop whose condition is a shared flag thread 0 sets between barriers: every thread
// reads the same value after a barrier, so the loop's barriers are uniform (race-free).
extern "C" __global__ void gn_uniform_while_shared(int *out) {
    __shared__ int s[64];
    __shared__ int go;
    int t = threadIdx.x, v = t, k = 0;
    if (t == 0) go = 1;
    __syncthreads();
    while (go) {
        s[t] = v;
        __syncthreads();
        v += s[(t + 1) % 64];
        k++;
        __syncthreads();
        if (t == 0) go = k < 3;
        __syncthreads();
    }
    out[t] = v;
}
