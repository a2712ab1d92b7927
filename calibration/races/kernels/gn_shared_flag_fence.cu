// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// A hand-off between two warps of one block through a volatile shared flag, with
// __threadfence_block() on both sides: warp 1 writes the data, fences and sets the flag; warp 0
// spins on the flag, fences and reads the data. The fences make the flag's write a release and
// its read an acquire at block scope, which orders the plain shared accesses (race-free). The
// reader is warp 0, so the emulator runs it first and it spins until warp 1 has run.
extern "C" __global__ void gn_shared_flag_fence(int *out) {
    __shared__ int data[32];
    __shared__ volatile int flag;
    int t = threadIdx.x, l = t % 32;
    if (t == 0) flag = 0;
    __syncthreads();
    if (t >= 32) {
        data[l] = l * 3 + 1;
        __syncwarp();
        if (l == 0) {
            __threadfence_block();
            flag = 1;
        }
    } else {
        if (l == 0) {
            while (flag == 0) {
            }
            __threadfence_block();
        }
        __syncwarp();
        out[l] = data[l];
    }
}
