// expect: none
// launch: --grid 2 --block 64 --arg buf:64:zero
// Every kind of atomic on shared counters in global memory: 32- and 64-bit integer add, float and
// double add, min/max, and/or/xor, exch, inc/dec, and a CAS loop multiplying a double. No plain
// access to the counters: atomics do not race with atomics.
__device__ double atomic_mul(double *p, double f) {
    unsigned long long *u = reinterpret_cast<unsigned long long *>(p);
    unsigned long long old = *u, seen;
    do {
        seen = old;
        old = atomicCAS(u, seen, __double_as_longlong(__longlong_as_double(seen) * f));
    } while (old != seen);
    return __longlong_as_double(old);
}
struct Counters {
    int i;
    unsigned u;
    unsigned long long ull;
    float f;
    int mn, mx;
    unsigned bits, inc, dec;
    int ex;
    double d;
    double prod;
};
__global__ void atomics_all_types(Counters *c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&c->i, 1);
    atomicAdd(&c->u, 2u);
    atomicAdd(&c->ull, 1ull << 33);
    atomicAdd(&c->f, 0.5f);
    atomicMin(&c->mn, -i);
    atomicMax(&c->mx, i);
    atomicOr(&c->bits, 1u << (i % 32));
    atomicAnd(&c->bits, ~(1u << ((i + 7) % 32)));
    atomicXor(&c->bits, 1u);
    atomicInc(&c->inc, 100u);
    atomicDec(&c->dec, 100u);
    atomicExch(&c->ex, i);
    atomicAdd(&c->d, 0.25);
    atomic_mul(&c->prod, 1.0);
}
