// expect: global_race
// launch: --grid 2 --block 64 --arg buf:1548
// An in-place shift of 12-byte structs by one element: thread i copies element i into element
// i + 1, which thread i + 1 reads (across warps and across the block edge).
struct Rec { int key; float val; short a; short b; };
extern "C" __global__ void gr_struct_copy_shift(Rec *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Rec r = a[i];
    a[i + 1] = r;
}
