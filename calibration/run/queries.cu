// Stream and array queries and peer copies on a one-GPU machine, with their answers printed:
// cudaStreamGetFlags / GetPriority / GetDevice (priorities outside the device's range clamp),
// cudaMemcpyPeer / cudaMemcpyPeerAsync between device 0 and itself (and the error for a device
// that does not exist), cudaGetChannelDesc of CUDA arrays of several formats.
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void iota(int *p) { p[threadIdx.x] = 3 * threadIdx.x + 1; }

int main() {
    int least, greatest;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    printf("priority range: least %d greatest %d\n", least, greatest);
    cudaStream_t s[4];
    CHECK(cudaStreamCreate(&s[0]));
    CHECK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithPriority(&s[2], cudaStreamNonBlocking, -3));
    CHECK(cudaStreamCreateWithPriority(&s[3], cudaStreamDefault, -100));
    for (int i = 0; i < 4; i++) {
        unsigned flags;
        int prio, dev;
        CHECK(cudaStreamGetFlags(s[i], &flags));
        CHECK(cudaStreamGetPriority(s[i], &prio));
        CHECK(cudaStreamGetDevice(s[i], &dev));
        printf("stream %d: flags %u priority %d device %d\n", i, flags, prio, dev);
    }
    unsigned f0;
    int p0;
    CHECK(cudaStreamGetFlags(0, &f0));
    CHECK(cudaStreamGetPriority(0, &p0));
    printf("default stream: flags %u priority %d\n", f0, p0);
    // peer copies on one device
    int *a, *b, h[32];
    CHECK(cudaMalloc(&a, 32 * sizeof(int)));
    CHECK(cudaMalloc(&b, 32 * sizeof(int)));
    iota<<<1, 32>>>(a);
    CHECK(cudaMemcpyPeer(b, 0, a, 0, 32 * sizeof(int)));
    CHECK(cudaMemcpy(h, b, sizeof(h), cudaMemcpyDeviceToHost));
    printf("peer copy: %d %d %d\n", h[0], h[1], h[31]);
    CHECK(cudaMemset(b, 0, 32 * sizeof(int)));
    CHECK(cudaMemcpyPeerAsync(b + 8, 0, a, 0, 8 * sizeof(int), s[1]));
    CHECK(cudaStreamSynchronize(s[1]));
    CHECK(cudaMemcpy(h, b, sizeof(h), cudaMemcpyDeviceToHost));
    printf("peer copy async: %d %d %d %d\n", h[7], h[8], h[15], h[16]);
    cudaError_t bad = cudaMemcpyPeer(b, 1, a, 0, 4);
    printf("peer copy to device 1: %s\n", cudaGetErrorName(bad));
    cudaGetLastError();
    // channel formats of arrays
    cudaChannelFormatDesc want[3] = {cudaCreateChannelDesc<float4>(), cudaCreateChannelDesc<uchar2>(),
                                     cudaCreateChannelDesc<short>()};
    for (int i = 0; i < 3; i++) {
        cudaArray_t arr;
        CHECK(cudaMallocArray(&arr, &want[i], 16, 4));
        cudaChannelFormatDesc d;
        CHECK(cudaGetChannelDesc(&d, arr));
        printf("array %d: x %d y %d z %d w %d kind %d\n", i, d.x, d.y, d.z, d.w, (int)d.f);
        CHECK(cudaFreeArray(arr));
    }
    for (int i = 0; i < 4; i++) CHECK(cudaStreamDestroy(s[i]));
    printf("queries: done\n");
    return 0;
}
