// expect: none
// launch: --grid 2 --block 32 --arg buf:1024 --arg buf:1024:zero
// memcpy and memset in device code on each thread's own 16-byte record.
#include <cstring>
struct Rec {
    int key;
    int val;
    float w[2];
};
__global__ void device_memcpy(const Rec *in, Rec *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Rec r;
    memcpy(&r, &in[i], sizeof(Rec));
    r.val += r.key;
    memset(&out[i], 0, sizeof(Rec));
    memcpy(&out[i], &r, 8);
}
