// expect: global_race
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// Block 0 releases a flag at .gpu scope; block 1 polls it with ld.acquire.cta. An acquire at block
// scope does not synchronise with another block's release, so the data read races with the write;
// and the two flag accesses are not morally strong (the acquire's scope leaves block 0 out): they
// race too.
extern "C" __global__ void gr_acquire_cta_across_blocks(int *data, unsigned *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = t * 9; // <-
        __syncthreads();
        if (t == 0) asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(flag), "r"(1u) : "memory"); // <-
    } else {
        if (t == 0) {
            unsigned f = 0;
            while (f == 0) asm volatile("ld.acquire.cta.u32 %0, [%1];" : "=r"(f) : "l"(flag) : "memory"); // <-
        }
        __syncthreads();
        out[t] = data[t]; // <-
    }
}
