// Planted bug: only the first half of the input is copied to the device; the kernel reads all of it
// (initcheck's kind: 64 of 128 threads read bytes nothing wrote). A second launch reads what the
// first wrote, and a third reads a buffer cudaMemset filled: neither is a finding.
#include "common.cuh"

__global__ void scale(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

__global__ void add_one(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1.0f;
}

int main() {
    const int n = 128;
    float h[n];
    for (int i = 0; i < n; ++i) h[i] = float(i);
    float *in, *mid, *out, *zeros;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&mid, n * sizeof(float)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    CHECK(cudaMalloc(&zeros, n * sizeof(float)));
    CHECK(cudaMemcpy(in, h, n / 2 * sizeof(float), cudaMemcpyHostToDevice));  // half only
    CHECK(cudaMemset(zeros, 0, n * sizeof(float)));
    scale<<<2, 64>>>(in, mid, n);
    finish("scale");
    add_one<<<2, 64>>>(mid, out, n);
    finish("add_one");
    add_one<<<2, 64>>>(zeros, out, n);
    finish("add_one zeros");
    CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
    printf("out[5] = %g\n", h[5]);
    CHECK(cudaFree(in));
    CHECK(cudaFree(mid));
    CHECK(cudaFree(out));
    CHECK(cudaFree(zeros));
    return 0;
}
