// Kernels with and without global-memory races, one shape each, for crates/driver/tests/global_races.rs.
// Built with: nvcc -arch=sm_90 -lineinfo -ptx -o global_races.ptx global_races.cu
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Block 0 writes a[], block 1 reads it: nothing orders the two blocks (race).
extern "C" __global__ void cross_block(int *a, int *out) {
    if (blockIdx.x == 0) {
        a[threadIdx.x] = threadIdx.x + 1;
    } else {
        out[threadIdx.x] = a[threadIdx.x];
    }
}

// Each thread reads the element of a thread 32 further on (another warp): race without a barrier.
extern "C" __global__ void block_no_sync(int *a, int *out) {
    a[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = a[(threadIdx.x + 32) % blockDim.x];
}

// The same with __syncthreads() between: no race.
extern "C" __global__ void block_sync(int *a, int *out) {
    a[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = a[(threadIdx.x + 32) % blockDim.x];
}

// Each lane reads its neighbour's element in one warp: race without __syncwarp().
extern "C" __global__ void warp_no_sync(int *a, int *out) {
    a[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = a[(threadIdx.x + 1) % 32];
}

// The same with __syncwarp() between: no race.
extern "C" __global__ void warp_sync(int *a, int *out) {
    a[threadIdx.x] = threadIdx.x;
    __syncwarp();
    out[threadIdx.x] = a[(threadIdx.x + 1) % 32];
}

// Producer block 0: data, then __threadfence(), then the flag. Consumers wait for the flag, fence,
// and read the data: ordered (no race).
extern "C" __global__ void fence_flag(int *data, volatile int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 7;
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            *flag = 1;
        }
    } else {
        if (threadIdx.x == 0) {
            while (*flag == 0) {
            }
            __threadfence();
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}

// The same without the fences: the flag orders nothing (race on the data).
extern "C" __global__ void flag_no_fence(int *data, volatile int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 7;
        __syncthreads();
        if (threadIdx.x == 0) {
            *flag = 1;
        }
    } else {
        if (threadIdx.x == 0) {
            while (*flag == 0) {
            }
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}

// The flag written with a plain (weak) store: the flag itself is raced on.
extern "C" __global__ void plain_flag(int *data, int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 7;
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            *flag = 1;
        }
    } else {
        if (threadIdx.x == 0) {
            while (*(volatile int *)flag == 0) {
            }
            __threadfence();
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}

// Release/acquire operations instead of fences: no race.
extern "C" __global__ void release_acquire(int *data, int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 7;
        __syncthreads();
        if (threadIdx.x == 0) {
            asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(1) : "memory");
        }
    } else {
        if (threadIdx.x == 0) {
            unsigned v = 0;
            while (v == 0) {
                asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
            }
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}

// The same with .cta scope: it does not order threads of different blocks (race on the data).
extern "C" __global__ void release_acquire_cta(int *data, int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 7;
        __syncthreads();
        if (threadIdx.x == 0) {
            asm volatile("st.release.cta.global.u32 [%0], %1;" ::"l"(flag), "r"(1) : "memory");
        }
    } else {
        if (threadIdx.x == 0) {
            unsigned v = 0;
            while (v == 0) {
                asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
            }
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}

// Every thread of every block adds to one counter: atomics do not race with atomics.
extern "C" __global__ void atomics_only(int *counter) {
    atomicAdd(counter, 1);
}

// Atomic adds and a plain load of the same counter: race.
extern "C" __global__ void atomic_vs_load(int *counter, int *out) {
    atomicAdd(counter, 1);
    out[threadIdx.x] = *counter;
}

// Every thread writes 1 to one word: a same-value write, not a race.
extern "C" __global__ void same_value(int *flag) {
    *flag = 1;
}

// A grid-stride loop: every thread owns its elements (no race).
extern "C" __global__ void grid_stride(const float *x, float *y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] = 2.0f * x[i] + y[i];
    }
}

// Per-block partial sums (first launch)...
extern "C" __global__ void partial_sums(const int *in, int *partial) {
    __shared__ int s[256];
    s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) {
            s[threadIdx.x] += s[threadIdx.x + k];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
    }
}

// ... read by a second launch (ordered by the stream: no race).
extern "C" __global__ void final_sum(const int *partial, int *out, int n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        int t = 0;
        for (int i = 0; i < n; ++i) {
            t += partial[i];
        }
        *out = t;
    }
}

// The CUDA Programming Guide's pattern: partial results, __threadfence(), a counter; the last block
// to arrive reads every partial result (no race).
__device__ unsigned int arrived = 0;
extern "C" __global__ void last_block(const int *in, int *partial, int *out) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        int t = 0;
        for (int i = 0; i < blockDim.x; ++i) {
            t += in[blockIdx.x * blockDim.x + i];
        }
        partial[blockIdx.x] = t;
        __threadfence();
        unsigned v = atomicInc(&arrived, gridDim.x);
        last = (v == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int t = 0;
        for (int i = 0; i < gridDim.x; ++i) {
            t += partial[i];
        }
        *out = t;
        arrived = 0;
    }
}

// Cooperative: every thread writes, grid.sync(), then reads another block's element (no race).
extern "C" __global__ void grid_synced(int *a, int *out) {
    cg::grid_group g = cg::this_grid();
    unsigned r = g.thread_rank();
    a[r] = r;
    g.sync();
    out[r] = a[(r + blockDim.x) % g.size()];
}

// The same without grid.sync(): race across blocks.
extern "C" __global__ void grid_unsynced(int *a, int *out) {
    cg::grid_group g = cg::this_grid();
    unsigned r = g.thread_rank();
    a[r] = r;
    out[r] = a[(r + blockDim.x) % g.size()];
}

// Each thread writes its own byte of a char array (neighbours share words): no race.
extern "C" __global__ void own_bytes(unsigned char *c) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = (unsigned char)(i * 3);
}
