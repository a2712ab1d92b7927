// expect: race
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero --arg i32:4
// An iterative smoothing whose one barrier sits at the top of the loop: it orders the previous
// iteration's reads before this iteration's writes, but nothing orders the write of s[t+1] before
// thread t's read of it in the same iteration.
extern "C" __global__ void sr_loop_barrier_wrong_place(const float *in, float *out, int iters) {
    __shared__ float s[128];
    int t = threadIdx.x;
    float v = in[t];
    for (int k = 0; k < iters; ++k) {
        __syncthreads();
        s[t] = v; // <-
        v = 0.5f * (v + s[(t + 1) % 128]); // <-
    }
    out[t] = v;
}
