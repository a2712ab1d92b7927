// expect: none
// launch: --grid 2 --block 64 --arg buf:1536 --arg buf:1536:zero
// memcpy-style copies of 12-byte structs, one element per thread, from one array to another.
struct Rec { int key; float val; short a; short b; };
extern "C" __global__ void gn_struct_copy(const Rec *src, Rec *dst) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Rec r = src[i];
    r.val += 1.0f;
    dst[i] = r;
}
