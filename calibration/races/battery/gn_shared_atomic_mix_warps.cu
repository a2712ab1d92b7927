// expect: none
// launch: --grid 1 --block 128 --arg buf:512:zero
// Four warps update four shared words with atomicAdd, atomicOr, atomicAnd and atomicXor, then
// read them after a barrier.
extern "C" __global__ void gn_shared_atomic_mix_warps(unsigned *out) {
    __shared__ unsigned s[4];
    int t = threadIdx.x;
    if (t < 4) s[t] = 0xffu;
    __syncthreads();
    switch (t / 32) {
    case 0: atomicAdd(&s[t % 4], 1u); break;
    case 1: atomicOr(&s[t % 4], 1u << (t % 32)); break;
    case 2: atomicAnd(&s[t % 4], ~(1u << (t % 8))); break;
    default: atomicXor(&s[t % 4], 1u << (t % 16)); break;
    }
    __syncthreads();
    out[t] = s[t % 4];
}
