// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero --arg i32:3
// One barrier per iteration, between the write and the read. Iteration k reads the element of
// thread t+k: iteration 0 reads the thread's own element, so the first overlap with another
// thread is iteration 1's read of s[t+1] against thread t+1's write of iteration 2 (no barrier
// between them). Three iterations race; gn_second_iteration runs the same with two (race-free).
extern "C" __global__ void sr_second_iteration(int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, v = t;
    for (int k = 0; k < n; k++) {
        s[t] = v + k;
        __syncthreads();
        v = s[(t + k) % 64];
    }
    out[t] = v;
}
