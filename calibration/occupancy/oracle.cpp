// Test oracle for warpscope's occupancy calculator: a small driver of NVIDIA's cuda_occupancy.h.
//
// The header is NOT part of this repository (it is NVIDIA's, under its own licence). It ships in the
// PyPI wheel nvidia-cuda-runtime (and in every CUDA toolkit) as include/cuda_occupancy.h;
// scripts/occupancy-oracle.sh compiles this file against it with g++.
//
// The device properties come from the caller (warpscope's own limits table), so this oracle checks the
// calculator's logic and granularities, not the table; the table is checked against the CUDA C++
// Programming Guide in crates/model/src/occupancy.rs.
//
// Protocol: one command per line on stdin, answers on stdout.
//   P cc maxThreadsPerBlock maxThreadsPerSM regsPerBlock regsPerSM smemPerBlock smemPerSM smemOptin
//     smemReserved numSms                      set the device (no output)
//   Q threads regs static dyn carveout barriers            one launch
//   T tlo thi rlo rhi static dyn carveout barriers          threads tlo..=thi (outer) x regs rlo..=rhi
//   D threads regs static dlo dhi dstep carveout barriers  dynamic shared memory dlo..=dhi by dstep
//   B regs static dyn carveout barriers                    best block size
// A launch answers "blocks factors allocated_regs allocated_smem" (factors: the header's bit mask);
// B answers "block_size min_grid". An error answers "E code". carveout -1 is the driver default.
// The kernel is taken to have opted in to the architecture's largest dynamic shared memory
// (shmemLimitConfig = OPTIN, maxDynamicSharedSizeBytes = smemOptin - static).
#include <cstdio>
#include <cstring>
#include <cuda_occupancy.h>

static cudaOccDeviceProp prop;

static void attrs(cudaOccFuncAttributes &a, cudaOccDeviceState &s, int regs, long stat, int carveout,
                  int barriers) {
    a = cudaOccFuncAttributes();
    a.maxThreadsPerBlock = 1024;
    a.numRegs = regs;
    a.sharedSizeBytes = (size_t)stat;
    a.partitionedGCConfig = PARTITIONED_GC_OFF;
    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    long max_dyn = (long)prop.sharedMemPerBlockOptin - stat;
    a.maxDynamicSharedSizeBytes = (size_t)(max_dyn > 0 ? max_dyn : 0);
    a.numBlockBarriers = barriers;
    a.virtualResourceCount = 0;
    s = cudaOccDeviceState();
    s.carveoutConfig = carveout;
}

static void launch(int threads, int regs, long stat, long dyn, int carveout, int barriers) {
    cudaOccFuncAttributes a;
    cudaOccDeviceState s;
    attrs(a, s, regs, stat, carveout, barriers);
    cudaOccResult r;
    memset(&r, 0, sizeof r);
    cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&r, &prop, &a, &s, threads, (size_t)dyn);
    if (e != CUDA_OCC_SUCCESS) {
        printf("E %d\n", (int)e);
        return;
    }
    printf("%d %u %d %zu\n", r.activeBlocksPerMultiprocessor, r.limitingFactors,
           r.allocatedRegistersPerBlock, r.allocatedSharedMemPerBlock);
}

int main() {
    char cmd[2];
    while (scanf("%1s", cmd) == 1) {
        if (cmd[0] == 'P') {
            int cc;
            long v[9];
            if (scanf("%d %ld %ld %ld %ld %ld %ld %ld %ld %ld", &cc, &v[0], &v[1], &v[2], &v[3], &v[4],
                      &v[5], &v[6], &v[7], &v[8]) != 10)
                return 2;
            prop = cudaOccDeviceProp();
            prop.computeMajor = cc / 10;
            prop.computeMinor = cc % 10;
            prop.maxThreadsPerBlock = (int)v[0];
            prop.maxThreadsPerMultiprocessor = (int)v[1];
            prop.regsPerBlock = (int)v[2];
            prop.regsPerMultiprocessor = (int)v[3];
            prop.warpSize = 32;
            prop.sharedMemPerBlock = (size_t)v[4];
            prop.sharedMemPerMultiprocessor = (size_t)v[5];
            prop.sharedMemPerBlockOptin = (size_t)v[6];
            prop.reservedSharedMemPerBlock = (size_t)v[7];
            prop.numSms = (int)v[8];
        } else if (cmd[0] == 'Q') {
            int t, r, c, b;
            long st, dy;
            if (scanf("%d %d %ld %ld %d %d", &t, &r, &st, &dy, &c, &b) != 6) return 2;
            launch(t, r, st, dy, c, b);
        } else if (cmd[0] == 'T') {
            int tlo, thi, rlo, rhi, c, b;
            long st, dy;
            if (scanf("%d %d %d %d %ld %ld %d %d", &tlo, &thi, &rlo, &rhi, &st, &dy, &c, &b) != 8) return 2;
            for (int t = tlo; t <= thi; t++)
                for (int r = rlo; r <= rhi; r++) launch(t, r, st, dy, c, b);
        } else if (cmd[0] == 'D') {
            int t, r, c, b;
            long st, dlo, dhi, dstep;
            if (scanf("%d %d %ld %ld %ld %ld %d %d", &t, &r, &st, &dlo, &dhi, &dstep, &c, &b) != 8) return 2;
            for (long d = dlo; d <= dhi; d += dstep) launch(t, r, st, d, c, b);
        } else if (cmd[0] == 'B') {
            int r, c, b;
            long st, dy;
            if (scanf("%d %ld %ld %d %d", &r, &st, &dy, &c, &b) != 5) return 2;
            cudaOccFuncAttributes a;
            cudaOccDeviceState s;
            attrs(a, s, r, st, c, b);
            int grid = 0, block = 0;
            cudaOccError e = cudaOccMaxPotentialOccupancyBlockSize(&grid, &block, &prop, &a, &s, (size_t)dy);
            if (e != CUDA_OCC_SUCCESS)
                printf("E %d\n", (int)e);
            else
                printf("%d %d\n", block, grid);
        } else {
            fprintf(stderr, "oracle: unknown command %s\n", cmd);
            return 2;
        }
    }
    return 0;
}
