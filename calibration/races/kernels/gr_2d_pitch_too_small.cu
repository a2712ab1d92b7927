// expect: global_race
// launch: --grid 1 --block 20,4 --arg buf:1024:zero --arg i32:16
// A 2-D array addressed through a row pointer with a pitch (16 elements) smaller than the row
// width (20): elements 16..19 of row y are elements 0..3 of row y + 1, written by other threads.
extern "C" __global__ void gr_2d_pitch_too_small(float *base, int pitch) {
    float *row = base + threadIdx.y * pitch;
    row[threadIdx.x] = threadIdx.x + 100.0f * threadIdx.y;
}
