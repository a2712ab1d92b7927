// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A __noinline__ helper stores into the kernel's shared array; the caller reads the slot another
// warp's call writes, with no barrier after the call.
__device__ __noinline__ void put(int *s, int k, int v) {
    s[k] = v * 5; // <-
}
extern "C" __global__ void sr_noinline_writer_shared(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    put(s, t, in[t]);
    out[t] = s[t ^ 32]; // <-
}
