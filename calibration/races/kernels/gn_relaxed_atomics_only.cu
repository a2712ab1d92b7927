// expect: none
// launch: --grid 2 --block 32 --arg buf:4:zero --arg buf:128:zero
// The twin of gr_relaxed_load_vs_store with both sides strong: a relaxed load and a relaxed store
// (`st.relaxed.gpu`) do not race (morally strong); the value read is either.
extern "C" __global__ void gn_relaxed_atomics_only(int *w, int *out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        int v;
        asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(w) : "memory");
        out[0] = v;
    } else {
        asm volatile("st.relaxed.gpu.global.b32 [%0], %1;" ::"l"(w), "r"(42) : "memory");
    }
}
