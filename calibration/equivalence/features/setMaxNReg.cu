// setmaxnreg (sm_90a): register reallocation between warpgroups changes nothing an emulator can
// see; the kernel writes what each thread computes after the instructions.
// Launch: grid 1, block 256 (two warpgroups). Args: out (256 words), in (256 words).
extern "C" __global__ void __launch_bounds__(256, 1) setMaxNReg(unsigned *out, const unsigned *in)
{
    unsigned t = threadIdx.x;
    unsigned v = in[t];
    if (t < 128) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;" ::: "memory");
        v = v * 3 + 1;
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;" ::: "memory");
        v ^= v >> 7;
    }
    out[t] = v;
}
