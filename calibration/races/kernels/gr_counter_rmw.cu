// expect: global_race
// launch: --grid 2 --block 64 --arg buf:64:zero
// A plain read-modify-write of one counter by every thread (lost updates).
extern "C" __global__ void gr_counter_rmw(unsigned *count) {
    count[0] = count[0] + 1;
}
