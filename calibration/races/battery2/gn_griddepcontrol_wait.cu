// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero
// Programmatic dependent launch: the kernel waits for its predecessor grid with
// cudaGridDependencySynchronize() (griddepcontrol.wait) before reading, and lets its successor
// start early with cudaTriggerProgrammaticLaunchCompletion(); one element per thread.
extern "C" __global__ void gn_griddepcontrol_wait(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    cudaGridDependencySynchronize();
    out[i] = in[i] * 2;
    cudaTriggerProgrammaticLaunchCompletion();
}
