// expect: global_race
// launch: --grid 2 --block 32 --arg buf:4:zero --arg buf:128:zero
// Block 0 reads a word with a relaxed atomic load (`ld.relaxed.gpu`), block 1 stores it plainly:
// a strong access against a plain one of another thread races.
extern "C" __global__ void gr_relaxed_load_vs_store(int *w, int *out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        int v;
        asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(w) : "memory");
        out[0] = v;
    } else {
        *w = 42;
    }
}
