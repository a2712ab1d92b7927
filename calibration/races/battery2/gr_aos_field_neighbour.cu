// expect: global_race
// launch: --grid 2 --block 64 --arg buf:1032 --arg buf:512:zero
// An array of {key, val} structs in global memory: thread i writes p[i].val and reads
// p[i + 1].val, which thread i + 1 writes (the neighbour's same field, across blocks too).
struct KV {
    int key, val;
};
extern "C" __global__ void gr_aos_field_neighbour(KV *p, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i].val = p[i].key * 3; // <-
    out[i] = p[i + 1].val; // <-
}
