// expect: none
// launch: --grid 1 --block 64 --arg buf:2048 --arg buf:256:zero
// A two-stage cuda::pipeline of the block (thread_scope_block, shared state): each stage's
// producer_acquire, cuda::memcpy_async of 64 ints, producer_commit; the consumer waits for the
// oldest stage with consumer_wait, reads another thread's element, releases it. The pipeline's
// waits order the copies before the reads and the releases the reads before the stage's next
// copy (race-free).
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gn_cuda_pipeline_double_buffer(const int *in, int *out) {
    constexpr int STAGES = 2, N = 64, CHUNKS = 8;
    __shared__ int buf[STAGES][N];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    int t = threadIdx.x, acc = 0;
    for (int c = 0; c < STAGES; ++c) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[c], in + c * N, sizeof(int) * N, pipe);
        pipe.producer_commit();
    }
    for (int c = 0; c < CHUNKS; ++c) {
        pipe.consumer_wait();
        acc += buf[c % STAGES][(t + 17) % N];
        pipe.consumer_release();
        if (c + STAGES < CHUNKS) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[c % STAGES], in + (c + STAGES) * N, sizeof(int) * N, pipe);
            pipe.producer_commit();
        }
    }
    out[t] = acc;
}
