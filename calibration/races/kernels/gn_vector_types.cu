// expect: none
// launch: --grid 2 --block 32 --arg buf:1024 --arg buf:1024:zero --arg buf:512:zero
// float4 loads and stores and int2 stores, each thread its own vector.
__global__ void vector_types(const float4 *in, float4 *out, int2 *idx) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    out[i] = make_float4(v.w, v.z, v.y, v.x);
    idx[i] = make_int2(i, -i);
}
