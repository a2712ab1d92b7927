// expect: global_race
// launch: --grid 2 --block 64 --arg buf:64:zero
struct Stats { int count; int max; };
// Every thread updates one shared struct's fields with plain stores.
extern "C" __global__ void gr_struct_field(Stats *s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s->count += 1;
    if (i > s->max) s->max = i;
}
