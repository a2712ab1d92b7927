// expect: global_race
// launch: --grid 1 --block 64 --arg buf:256:zero --arg buf:256:zero
// Thread t writes the int at byte 4t; thread t reads the byte at 4t + 5, inside the next thread's int.
extern "C" __global__ void gr_byte_overlap(int *a, char *out) {
    int t = threadIdx.x;
    a[t] = t;
    out[t] = ((const char *)a)[(4 * t + 5) % 256];
}
