// A kernel warpscope cannot emulate (a layered texture read, `tex.a2d`) beside one it can: the refused
// launch fails, and its error reaches the next synchronisation as a failed kernel's would, once
// (not sticky: later work runs). Not a GPU program (texture object 0 is no texture).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fetch(cudaTextureObject_t t, float *out) {
    float4 v = tex2DLayered<float4>(t, threadIdx.x + 0.5f, 0.5f, 1);
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

__global__ void fill(float *out) { out[threadIdx.x] = 2.0f * threadIdx.x; }

int main() {
    float *out;
    cudaMalloc(&out, 32 * sizeof(float));
    cudaMemset(out, 0, 32 * sizeof(float));
    fetch<<<1, 32>>>(0, out);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    cudaError_t last = cudaGetLastError();
    printf("fetch: launch %s, sync %s, last %s\n", cudaGetErrorName(launch), cudaGetErrorName(sync),
           cudaGetErrorName(last));
    cudaError_t again = cudaDeviceSynchronize();
    printf("after it: sync %s\n", cudaGetErrorName(again));
    fill<<<1, 32>>>(out);
    launch = cudaGetLastError();
    float h[32];
    cudaError_t copy = cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
    printf("fill: launch %s, memcpy %s, out[31] %g\n", cudaGetErrorName(launch), cudaGetErrorName(copy), h[31]);
    return sync == cudaSuccess ? 0 : 1;
}
