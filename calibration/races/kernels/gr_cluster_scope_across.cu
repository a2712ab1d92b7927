// expect: global_race
// launch: --grid 4 --block 64 --cluster 2 --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
// Release/acquire at cluster scope between blocks of different clusters: block 0 writes data,
// __syncthreads(), and sets a flag with st.release.cluster; block 2 (the second cluster) waits
// for it with ld.acquire.cluster and reads data. The cluster scope does not hold both blocks,
// so nothing orders the read after the write.
extern "C" __global__ void gr_cluster_scope_across(int *data, unsigned *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 1;
        __syncthreads();
        if (threadIdx.x == 0) asm volatile("st.release.cluster.global.u32 [%0], 1;" ::"l"(flag) : "memory");
    } else if (blockIdx.x == 2) {
        if (threadIdx.x == 0) {
            unsigned v;
            do {
                asm volatile("ld.acquire.cluster.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
            } while (v == 0);
        }
        __syncthreads();
        out[threadIdx.x] = data[63 - threadIdx.x];
    }
}
