// Stream shapes of the book's chapter 6, written for this project: four kernels queued on each of
// several streams depth-first and breadth-first, streams with priorities, a cross-stream wait on
// an event recorded mid-stream, a stream callback that logs completion order per stream, work
// split into chunks whose copies and kernels overlap on pinned memory, and OpenMP host threads
// each driving their own stream (built with -Xcompiler -fopenmp). Timings are measured but not
// printed; every result is checked ("Test PASSED").
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <omp.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define NSTREAM 4

__global__ void stage(float *v, int n, float mul, float add) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v[i] = v[i] * mul + add;
}

__global__ void vecAdd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

static int failures = 0;
static void expect(bool ok, const char *what) {
    printf("%-44s %s\n", what, ok ? "ok" : "MISMATCH");
    if (!ok) failures++;
}

struct Log { int order[NSTREAM]; int next; };
static Log logState;

static void CUDART_CB done(cudaStream_t, cudaError_t status, void *arg) {
    int s = (int)(size_t)arg;
    int k = __sync_fetch_and_add(&logState.next, 1);
    logState.order[k] = status == cudaSuccess ? s : -1;
}

int main() {
    const int n = 1 << 12;
    cudaStream_t st[NSTREAM];
    for (int s = 0; s < NSTREAM; s++) CK(cudaStreamCreate(&st[s]));
    float *d[NSTREAM];
    for (int s = 0; s < NSTREAM; s++) {
        CK(cudaMalloc(&d[s], n * sizeof(float)));
        CK(cudaMemsetAsync(d[s], 0, n * sizeof(float), st[s]));
    }
    cudaEvent_t start, stop;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));

    // depth first: each stream's four stages in a row
    CK(cudaEventRecord(start));
    for (int s = 0; s < NSTREAM; s++) {
        stage<<<8, 128, 0, st[s]>>>(d[s], n, 1.0f, 1.0f);
        stage<<<8, 128, 0, st[s]>>>(d[s], n, 2.0f, 0.0f);
        stage<<<8, 128, 0, st[s]>>>(d[s], n, 1.0f, (float)s);
        stage<<<8, 128, 0, st[s]>>>(d[s], n, 0.5f, 0.0f);
    }
    // breadth first: stage by stage over the streams
    for (int k = 0; k < 4; k++)
        for (int s = 0; s < NSTREAM; s++) stage<<<8, 128, 0, st[s]>>>(d[s], n, 1.0f, 0.25f);
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, start, stop));
    float *h = (float *)malloc(n * sizeof(float));
    bool ok = ms >= 0;
    for (int s = 0; s < NSTREAM; s++) {
        CK(cudaMemcpy(h, d[s], n * sizeof(float), cudaMemcpyDeviceToHost));
        float want = ((0 * 1 + 1) * 2 + s) * 0.5f + 1.0f;
        for (int i = 0; i < n; i++) ok &= h[i] == want;
    }
    expect(ok, "depth-first then breadth-first stages");

    // priorities
    int lo = 0, hi = 0;
    CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    cudaStream_t urgent, relaxed;
    CK(cudaStreamCreateWithPriority(&urgent, cudaStreamNonBlocking, hi));
    CK(cudaStreamCreateWithPriority(&relaxed, cudaStreamNonBlocking, lo));
    int pu = 0, pr = 0;
    CK(cudaStreamGetPriority(urgent, &pu));
    CK(cudaStreamGetPriority(relaxed, &pr));
    printf("priority range [%d, %d]; urgent %d, relaxed %d\n", lo, hi, pu, pr);

    // a wait on an event recorded between two kernels of another stream
    cudaEvent_t mid;
    CK(cudaEventCreateWithFlags(&mid, cudaEventDisableTiming));
    stage<<<8, 128, 0, relaxed>>>(d[0], n, 0.0f, 3.0f);
    CK(cudaEventRecord(mid, relaxed));
    stage<<<8, 128, 0, relaxed>>>(d[1], n, 0.0f, 5.0f);
    CK(cudaStreamWaitEvent(urgent, mid, 0));
    stage<<<8, 128, 0, urgent>>>(d[0], n, 2.0f, 0.0f);
    CK(cudaStreamSynchronize(urgent));
    CK(cudaStreamSynchronize(relaxed));
    CK(cudaMemcpy(h, d[0], n * sizeof(float), cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < n; i++) ok &= h[i] == 6.0f;
    expect(ok, "cross-stream wait on an event");
    CK(cudaEventQuery(mid));

    // callbacks: each stream's kernel, then a callback naming the stream
    memset(&logState, 0, sizeof logState);
    for (int s = 0; s < NSTREAM; s++) {
        stage<<<8, 128, 0, st[s]>>>(d[s], n, 1.0f, 1.0f);
        CK(cudaStreamAddCallback(st[s], done, (void *)(size_t)s, 0));
    }
    CK(cudaDeviceSynchronize());
    int seen = 0;
    for (int k = 0; k < logState.next; k++)
        if (logState.order[k] >= 0) seen |= 1 << logState.order[k];
    expect(logState.next == NSTREAM && seen == (1 << NSTREAM) - 1, "a callback per stream");

    // chunked copies and kernels overlapping on pinned memory
    const int total = 1 << 14, chunk = total / NSTREAM;
    float *ha, *hb, *hc, *da, *db, *dc;
    CK(cudaHostAlloc((void **)&ha, total * 4, cudaHostAllocDefault));
    CK(cudaHostAlloc((void **)&hb, total * 4, cudaHostAllocDefault));
    CK(cudaMallocHost((void **)&hc, total * 4));
    for (int i = 0; i < total; i++) { ha[i] = (float)(i % 100); hb[i] = (float)(i / 100); }
    CK(cudaMalloc(&da, total * 4)); CK(cudaMalloc(&db, total * 4)); CK(cudaMalloc(&dc, total * 4));
    for (int s = 0; s < NSTREAM; s++) {
        int o = s * chunk;
        CK(cudaMemcpyAsync(da + o, ha + o, chunk * 4, cudaMemcpyHostToDevice, st[s]));
        CK(cudaMemcpyAsync(db + o, hb + o, chunk * 4, cudaMemcpyHostToDevice, st[s]));
        vecAdd<<<chunk / 256, 256, 0, st[s]>>>(da + o, db + o, dc + o, chunk);
        CK(cudaMemcpyAsync(hc + o, dc + o, chunk * 4, cudaMemcpyDeviceToHost, st[s]));
    }
    for (int s = 0; s < NSTREAM; s++) CK(cudaStreamSynchronize(st[s]));
    ok = true;
    for (int i = 0; i < total; i++) ok &= hc[i] == ha[i] + hb[i];
    expect(ok, "overlapped chunks");

    // OpenMP threads, each with its own stream
    omp_set_num_threads(NSTREAM);
    int good = 0;
#pragma omp parallel reduction(+ : good)
    {
        int t = omp_get_thread_num();
        float *mine = d[t];
        stage<<<4, 256, 0, st[t]>>>(mine, n, 0.0f, (float)(10 + t));
        stage<<<4, 256, 0, st[t]>>>(mine, n, 3.0f, 0.0f);
        float back[8];
        CK(cudaMemcpyAsync(back, mine + n - 8, sizeof back, cudaMemcpyDeviceToHost, st[t]));
        CK(cudaStreamSynchronize(st[t]));
        bool mineOk = true;
        for (int i = 0; i < 8; i++) mineOk &= back[i] == 3.0f * (10 + t);
        good += mineOk;
    }
    printf("%d OpenMP threads checked their streams\n", good);
    expect(good == NSTREAM, "OpenMP threads with a stream each");

    for (int s = 0; s < NSTREAM; s++) { CK(cudaStreamDestroy(st[s])); CK(cudaFree(d[s])); }
    CK(cudaStreamDestroy(urgent)); CK(cudaStreamDestroy(relaxed));
    CK(cudaEventDestroy(start)); CK(cudaEventDestroy(stop)); CK(cudaEventDestroy(mid));
    CK(cudaFreeHost(ha)); CK(cudaFreeHost(hb)); CK(cudaFreeHost(hc));
    CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dc));
    free(h);
    printf(failures ? "Test FAILED\n" : "Test PASSED\n");
    return failures ? 1 : 0;
}
