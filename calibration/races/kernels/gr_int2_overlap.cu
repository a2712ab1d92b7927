// expect: global_race
// launch: --grid 1 --block 32 --arg buf:264:zero
// Thread t stores an int2 at bytes 8t..8t+8 and thread t + 1 an int at bytes 8t+4..8t+8: an 8-byte
// store and a 4-byte store of two threads overlap (write-write race).
__global__ void int2_overlap(int *a) {
    int t = threadIdx.x;
    reinterpret_cast<int2 *>(a)[t] = make_int2(t, -t);
    if (t > 0) a[2 * t - 1] = 7;
}
