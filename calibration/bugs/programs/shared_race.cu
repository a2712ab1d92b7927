// Planted bug: neighbour read of shared memory with no barrier after the writes (racecheck's kind).
#include "common.cuh"

__global__ void neighbour(const float *in, float *out) {
    __shared__ float s[128];
    s[threadIdx.x] = in[threadIdx.x];
    out[threadIdx.x] = s[(threadIdx.x + 1) % 128];
}

int main() {
    float *in, *out;
    CHECK(cudaMalloc(&in, 128 * sizeof(float)));
    CHECK(cudaMalloc(&out, 128 * sizeof(float)));
    CHECK(cudaMemset(in, 0, 128 * sizeof(float)));
    neighbour<<<1, 128>>>(in, out);
    finish("neighbour");
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
