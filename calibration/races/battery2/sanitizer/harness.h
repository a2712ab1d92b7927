// One launch of a battery kernel: argument kinds 0 a buffer of pseudo-random bytes, 1 a zeroed
// buffer (value: its bytes), 2 an int (value), 3 a pointer into an earlier buffer argument (value:
// the argument's index << 32 | a byte offset), as `--arg alias:N+BYTES` passes it.
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
struct Arg {
    int kind;
    long long value;
};
struct Launch {
    const char *name;
    const void *fn;
    dim3 grid, block;
    unsigned dyn;
    bool coop;
    int nargs;
    Arg args[8];
};
