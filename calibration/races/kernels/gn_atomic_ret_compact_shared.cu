// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:516:zero
// Stream compaction in shared memory: each thread whose input is odd takes a slot with the
// return value of a shared atomicAdd and writes its value there; after a barrier each thread
// reads one slot below the count. Every slot has one writer (the atomic hands out distinct
// indices) and the barrier orders the writes before the reads (race-free).
extern "C" __global__ void gn_atomic_ret_compact_shared(const int *in, int *out) {
    __shared__ int buf[128];
    __shared__ int n;
    int t = threadIdx.x;
    if (t == 0) n = 0;
    __syncthreads();
    int v = in[t];
    if (v & 1) {
        int i = atomicAdd(&n, 1);
        buf[i] = v;
    }
    __syncthreads();
    int m = n;
    out[t] = t < m ? buf[t] : 0;
    if (t == 0) out[128] = m;
}
