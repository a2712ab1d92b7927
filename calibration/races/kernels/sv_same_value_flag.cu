// expect: same_value_write
// launch: --grid 2 --block 64 --arg buf:4:zero --report-same-value-writes
// Every thread writes 1 to one flag: the same value, benign by the verifiers' convention.
extern "C" __global__ void sv_same_value_flag(int *found) {
    found[0] = 1;
}
