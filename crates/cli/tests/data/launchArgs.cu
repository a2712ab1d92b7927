// `warpscope run app.cu -- ARGS` passes ARGS to the program: it launches `touch` argv[1] times and
// checks every element was incremented that often (an argument of "--" or a lost argument fails).
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void touch(int *p) { p[threadIdx.x] += 1; }

int main(int argc, char **argv)
{
    if (argc != 2 || strcmp(argv[1], "--") == 0) {
        printf("FAILED: expected one argument, got %d (first: %s)\n", argc - 1, argc > 1 ? argv[1] : "none");
        return 1;
    }
    int n = atoi(argv[1]);
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    cudaMemset(d, 0, 32 * sizeof(int));
    for (int i = 0; i < n; i++) touch<<<1, 32>>>(d);
    int h[32];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 32; i++) bad += h[i] != n;
    printf(bad ? "FAILED\n" : "Test PASSED\n");
    return bad != 0;
}
