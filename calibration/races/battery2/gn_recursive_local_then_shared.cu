// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A recursive function (registers and the stack only) computes each thread's value; the thread
// writes its own slot, a barrier, then it reads another warp's slot.
__device__ int digits(unsigned v) { return v < 10 ? 1 : 1 + digits(v / 10); }
extern "C" __global__ void gn_recursive_local_then_shared(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = digits((unsigned)in[t]);
    __syncthreads();
    out[t] = s[t ^ 32];
}
