// Launches the kernel named by argv[1] as its `// launch:` line says (see gen.py).
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    for (const Launch &l : launches) {
        if (strcmp(l.name, argv[1]) != 0) continue;
        void *ptrs[8];
        int ints[8];
        void *params[8];
        unsigned long long seed = 0x9e3779b97f4a7c15ull;
        for (int i = 0; i < l.nargs; ++i) {
            if (l.args[i].kind == 2) {
                ints[i] = (int)l.args[i].value;
                params[i] = &ints[i];
                continue;
            }
            if (l.args[i].kind == 3) {
                ptrs[i] = (char *)ptrs[l.args[i].value >> 32] + (l.args[i].value & 0xffffffffll);
                params[i] = &ptrs[i];
                continue;
            }
            size_t n = (size_t)l.args[i].value;
            std::vector<unsigned char> host(n, 0);
            if (l.args[i].kind == 0)
                for (size_t k = 0; k < n; ++k) {
                    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                    host[k] = (unsigned char)(seed >> 56);
                }
            cudaMalloc(&ptrs[i], n);
            cudaMemcpy(ptrs[i], host.data(), n, cudaMemcpyHostToDevice);
            params[i] = &ptrs[i];
        }
        cudaError_t e = l.coop ? cudaLaunchCooperativeKernel(l.fn, l.grid, l.block, params, l.dyn, 0)
                               : cudaLaunchKernel(l.fn, l.grid, l.block, params, l.dyn, 0);
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        printf("%s: %s\n", l.name, cudaGetErrorString(e));
        return e == cudaSuccess ? 0 : 1;
    }
    fprintf(stderr, "no kernel %s\n", argv[1]);
    return 2;
}
