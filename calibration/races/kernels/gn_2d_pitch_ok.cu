// expect: none
// launch: --grid 1 --block 20,4 --arg buf:1024:zero --arg i32:32
// gr_2d_pitch_too_small's kernel with a pitch of 32 elements: the rows do not overlap.
extern "C" __global__ void gn_2d_pitch_ok(float *base, int pitch) {
    float *row = base + threadIdx.y * pitch;
    row[threadIdx.x] = threadIdx.x + 100.0f * threadIdx.y;
}
