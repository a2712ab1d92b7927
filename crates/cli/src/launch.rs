//! Launch flags shared by the commands that emulate a kernel (`analyze`, `check`): the PTX file, the
//! kernel, grid and block shapes, dynamic shared memory and the kernel arguments; and turning them
//! into a compiled program plus an emulator [`Launch`].
//!
//! The syntax of dimensions and arguments is `warpscope_analysis::launchspec`'s (the same as
//! `warpscope analyze` and the calibration manifests): `--grid X[,Y[,Z]]`, `--arg u32:V`, `--arg
//! buf:BYTES` (pseudo-random bytes), `--arg buf:BYTES:zero`, `--arg buf:@FILE`.

use std::path::{Path, PathBuf};

use anyhow::bail;
use warpscope_analysis::launchspec::{parse_arg, parse_dims};
use warpscope_emu::{Arg, Launch, Program};

/// Flags that describe one kernel launch.
#[derive(clap::Args, Debug, Clone)]
pub struct LaunchArgs {
    /// PTX file to emulate (e.g. from `nvcc -ptx -lineinfo`).
    pub ptx: PathBuf,
    /// Kernel (entry) name; may be omitted when the file has one kernel.
    #[arg(long, short = 'k')]
    pub kernel: Option<String>,
    /// Grid shape in blocks: X[,Y[,Z]].
    #[arg(long, value_parser = dims)]
    pub grid: [u32; 3],
    /// Block shape in threads: X[,Y[,Z]].
    #[arg(long, value_parser = dims)]
    pub block: [u32; 3],
    /// Dynamic shared memory per block, in bytes.
    #[arg(long, default_value_t = 0)]
    pub dyn_smem: u32,
    /// A kernel argument, in parameter order: `u32:V i32:V u64:V i64:V f32:V f64:V`, `buf:BYTES`
    /// (pseudo-random bytes), `buf:BYTES:zero`, `buf:@FILE`.
    #[arg(long = "arg", short = 'a', value_name = "ARG")]
    pub args: Vec<String>,
}

/// A launch ready to run.
pub struct Prepared {
    /// The compiled program.
    pub program: Program,
    /// The kernel to run.
    pub kernel: String,
    /// The launch.
    pub launch: Launch,
}

fn dims(s: &str) -> Result<[u32; 3], String> {
    parse_dims(s).map_err(|e| e.to_string())
}

/// Reads and compiles a PTX file; errors name the file, line and reason.
pub fn compile_file(path: &Path) -> anyhow::Result<Program> {
    let source = crate::limits::read_source(path)?;
    let program = warpscope_ptx::compile(&source).map_err(|errs| {
        let lines: Vec<String> = errs.iter().map(|e| format!("{}:{e}", path.display())).collect();
        anyhow::anyhow!("{}", lines.join("\n"))
    })?;
    Ok(program)
}

impl LaunchArgs {
    /// Validates the flags, compiles the PTX and builds the launch.
    pub fn prepare(&self) -> anyhow::Result<Prepared> {
        crate::limits::check_launch_flags(&self.args, self.grid, self.block)?;
        let args: Vec<Arg> = self
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| parse_arg(a, i).map_err(|e| anyhow::anyhow!("--arg {e}")))
            .collect::<anyhow::Result<_>>()?;
        let program = compile_file(&self.ptx)?;
        let kernel = match &self.kernel {
            Some(k) => k.clone(),
            None => match program.kernels.as_slice() {
                [k] if program.entries.len() == 1 => k.name.clone(),
                [] if program.entries.len() == 1 => program.entries[0].clone(),
                _ => {
                    let names = program.all_kernel_names();
                    bail!(
                        "{}: name the kernel with --kernel (kernels: {})",
                        self.ptx.display(),
                        names.join(", ")
                    )
                }
            },
        };
        let Some(k) = program.kernel(&kernel) else {
            if let Some(errs) = program.kernel_error(&kernel) {
                let list: Vec<String> = errs
                    .iter()
                    .map(|e| format!("{}:{e}", self.ptx.display()))
                    .collect();
                bail!("cannot lower kernel `{kernel}`:\n{}", list.join("\n"));
            }
            let names: Vec<&str> = program.kernels.iter().map(|k| k.name.as_str()).collect();
            bail!(
                "{}: no kernel `{kernel}` (kernels: {})",
                self.ptx.display(),
                names.join(", ")
            );
        };
        if args.len() != k.params.len() {
            let params: Vec<String> = k
                .params
                .iter()
                .map(|p| format!("{} ({})", p.name, p.ty))
                .collect();
            bail!(
                "kernel `{kernel}` takes {} argument(s), {} given with --arg: {}",
                k.params.len(),
                args.len(),
                params.join(", ")
            );
        }
        let mut launch = Launch::new(self.grid, self.block, args);
        launch.dyn_smem = self.dyn_smem;
        Ok(Prepared {
            program,
            kernel,
            launch,
        })
    }
}
