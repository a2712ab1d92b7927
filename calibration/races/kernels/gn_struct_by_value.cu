// expect: none
// launch: --grid 2 --block 64 --arg struct:i32:128,f32:2.5,ptr=buf:512:zero,i16:3
// A struct passed by value (an int, a float, a pointer, a short): each thread scales its own
// element of the struct's buffer.
struct Params {
    int n;
    float scale;
    float *data;
    short bias;
};
__global__ void struct_by_value(Params p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) p.data[i] = p.scale * i + p.bias;
}
