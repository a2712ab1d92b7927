//! A kernel launch as the program asked for it.

/// A launch the runtime was asked for.
#[derive(Clone, Debug)]
pub struct LaunchRequest {
    /// Host function pointer (the kernel's handle).
    pub func: usize,
    /// Grid.
    pub grid: [u32; 3],
    /// Block.
    pub block: [u32; 3],
    /// Dynamic shared memory.
    pub dyn_smem: usize,
    /// Stream.
    pub stream: usize,
    /// Parameter values, each as its bytes (filled by the caller from `void **args` once the
    /// parameter sizes are known: see `Runtime::param_sizes`).
    pub params: Vec<Vec<u8>>,
    /// A cooperative launch (`cudaLaunchCooperativeKernel`, or the cooperative launch attribute):
    /// every block resident at once, `grid.sync()` allowed.
    pub cooperative: bool,
    /// Thread-block cluster dimensions (`cudaLaunchAttributeClusterDimension`); `None`: the
    /// kernel's `__cluster_dims__`, or none.
    pub cluster: Option<[u32; 3]>,
}
