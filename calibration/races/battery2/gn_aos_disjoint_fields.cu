// expect: none
// launch: --grid 2 --block 64 --arg buf:1032 --arg buf:512:zero
// Twin of gr_aos_field_neighbour: thread i writes p[i].val and reads the neighbour's key, a field
// no thread writes.
struct KVpair {
    int key, val;
};
extern "C" __global__ void gn_aos_disjoint_fields(KVpair *p, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i].val = p[i].key * 3;
    out[i] = p[i + 1].key;
}
