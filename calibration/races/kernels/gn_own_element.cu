// expect: none
// launch: --grid 4 --block 64 --arg buf:1024 --arg i32:256
// Each thread scales its own element.
extern "C" __global__ void gn_own_element(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * 2.0f;
}
