// expect: race
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero
// gn_atomic_ret_compact_shared without the barrier between the compaction and the reads: a
// thread reads slot t while the thread that took slot t with atomicAdd may still be writing it
// (the slots of warp 0 are filled by threads of every warp).
extern "C" __global__ void sr_atomic_ret_compact_nosync(const int *in, int *out) {
    __shared__ int buf[128];
    __shared__ int n;
    int t = threadIdx.x;
    if (t == 0) n = 0;
    buf[t] = 0;
    __syncthreads();
    int v = in[t];
    if (v & 1) {
        int i = atomicAdd(&n, 1);
        buf[i] = v;
    }
    out[t] = buf[t];
}
