// Vector atomics on global memory (red/atom .v2/.v4 .f32 add), scalar shared atomics beside them,
// and instructions that change nothing an emulator can see: griddepcontrol.wait and
// .launch_dependents, prefetch, prefetchu, nanosleep-free fences. Each thread adds to its own
// vector slot (so the order of additions cannot matter), plus integer-valued floats to 4 shared
// words every thread hits.
// Launch: grid 2, block 64. Args: slots (128 threads x 8 floats, random), olds (128 x 8 words),
// in (128 x 8 words), sums (2 x 4 floats).
extern "C" __global__ void vecAtomNop(float *slots, unsigned *olds, const unsigned *in, float *sums)
{
    __shared__ float acc[4];
    unsigned tid = threadIdx.x, t = blockIdx.x * blockDim.x + tid;
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (tid < 4) acc[tid] = 0.0f;
    __syncthreads();
    const unsigned *r = in + t * 8;
    float v[8];
    for (int k = 0; k < 8; k++) v[k] = __uint_as_float((r[k] & 0x807fffffu) | ((120 + (r[k] >> 23) % 15) << 23));
    float *s = slots + t * 8;
    asm volatile("prefetch.global.L2 [%0];" :: "l"(s) : "memory");
    asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(s) : "memory");
    asm volatile("prefetchu.L1 [%0];" :: "l"(s) : "memory");
    asm volatile("red.global.add.v2.f32 [%0], {%1, %2};" :: "l"(s), "f"(v[0]), "f"(v[1]) : "memory");
    float o0, o1, o2, o3;
    asm volatile("atom.global.v4.f32.add {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};"
                 : "=f"(o0), "=f"(o1), "=f"(o2), "=f"(o3)
                 : "l"(s + 4), "f"(v[2]), "f"(v[3]), "f"(v[4]), "f"(v[5]) : "memory");
    olds[t * 8] = __float_as_uint(o0); olds[t * 8 + 1] = __float_as_uint(o1);
    olds[t * 8 + 2] = __float_as_uint(o2); olds[t * 8 + 3] = __float_as_uint(o3);
    asm volatile("atom.global.v2.f32.add {%0, %1}, [%2], {%3, %4};"
                 : "=f"(o0), "=f"(o1) : "l"(s), "f"(v[6]), "f"(v[7]) : "memory");
    olds[t * 8 + 4] = __float_as_uint(o0); olds[t * 8 + 5] = __float_as_uint(o1);
    atomicAdd(&acc[r[0] & 3], (float)(r[1] & 255));
    olds[t * 8 + 6] = atomicMax((unsigned *)&olds[t * 8 + 7], r[2]);
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    __syncthreads();
    if (tid < 4) sums[blockIdx.x * 4 + tid] = acc[tid];
}
