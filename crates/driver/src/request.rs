//! The file-based layer: a [`Request`] (what a command line says: the input file, how to compile
//! it, the kernel, the launch, the sections) becomes [`Analyzed`] (the module, the chosen kernel and
//! the [`Results`] of one run). Cheap checks come first (limits, argument syntax), then the expensive
//! objects (compiling, the machine code, the emulation), as [`crate::analyze_launch`] does the run.

use std::path::{Path, PathBuf};

use warpscope_analysis::divergence::is_debug_ptx;
use warpscope_analysis::fix::Target;
use warpscope_emu::{Arg, Launch};
use warpscope_model::arch::Arch;

use crate::error::{Error, Result};
use crate::input::{self, CompileOptions, Module};
use crate::kernel::{self, KernelName};
use crate::machine::{self, Resources, Widths, WidthsFrom};
use crate::run::{FixOptions, Results, RunOptions, Sections, analyze_launch};
use crate::{args, limits};

/// What the fix advisor is asked (the `fix` section).
#[derive(Clone, Debug)]
pub struct FixRequest {
    /// The architecture the suggestions are for (`None`: the request's `arch`).
    pub target: Option<Target>,
    /// Registers per thread given by the user (else ptxas's count).
    pub registers: Option<u32>,
    /// The CUDA source for the edits (else the `.cu` given, or the PTX's `.file` when readable).
    pub source: Option<PathBuf>,
    /// What-if architectures.
    pub what_if: Option<Vec<Target>>,
}

/// One launch of one kernel, as a command line describes it.
#[derive(Clone, Debug)]
pub struct Request {
    /// The input: `.cu`, `.ptx`, or a binary carrying PTX.
    pub input: PathBuf,
    /// How to compile a `.cu`.
    pub compile: CompileOptions,
    /// The kernel (any form [`kernel::select`] takes), or the only one.
    pub kernel: Option<String>,
    /// Grid, in blocks.
    pub grid: [u32; 3],
    /// Block, in threads.
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub dyn_smem: u32,
    /// Kernel arguments ([`args::parse_arg`] syntax), in parameter order.
    pub args: Vec<String>,
    /// Emulate only this many blocks spread over the grid (totals extrapolated).
    pub blocks: Option<u32>,
    /// Warp instructions one block may execute (lowered to keep the whole request bounded).
    pub max_instructions: u64,
    /// The architecture compiled for and modelled.
    pub arch: &'static Arch,
    /// Where access widths come from.
    pub widths: WidthsFrom,
    /// The analyses to run.
    pub sections: Sections,
    /// The fix advisor's options.
    pub fix: Option<FixRequest>,
    /// Launch as `cudaLaunchCooperativeKernel` does: every block resident at once, so blocks may
    /// wait for each other (`grid.sync()`).
    pub cooperative: bool,
    /// Thread-block cluster dimensions (`--cluster`), as `cudaLaunchAttributeClusterDimension`
    /// gives them; `None`: the kernel's `__cluster_dims__`, or none.
    pub cluster: Option<[u32; 3]>,
    /// Clusters of up to 16 blocks (`cudaFuncAttributeNonPortableClusterSizeAllowed`), else 8.
    pub cluster_nonportable: bool,
    /// Report same-value writes as findings (see [`RunOptions::same_value_writes`]).
    pub same_value_writes: bool,
    /// Leave global memory out of the hazard checker (see [`RunOptions::no_global_races`]).
    pub no_global_races: bool,
}

impl Request {
    /// A request with the defaults: every section, machine-code widths when a toolkit is found,
    /// no arguments, no sampling, 2^28 warp instructions per block.
    pub fn new(input: impl Into<PathBuf>, grid: [u32; 3], block: [u32; 3], arch: &'static Arch) -> Request {
        Request {
            input: input.into(),
            compile: CompileOptions::default(),
            kernel: None,
            grid,
            block,
            dyn_smem: 0,
            args: Vec::new(),
            blocks: None,
            max_instructions: 1 << 28,
            arch,
            widths: WidthsFrom::Auto,
            sections: Sections::ALL,
            fix: None,
            cooperative: false,
            cluster: None,
            cluster_nonportable: false,
            same_value_writes: false,
            no_global_races: false,
        }
    }
}

/// A launch ready to run: the module, the kernel and the launch.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The loaded input.
    pub module: Module,
    /// The kernel's names.
    pub name: KernelName,
    /// The launch (arguments checked against the kernel's parameters; after them, the buffers
    /// that struct fields point to).
    pub launch: Launch,
    /// The `--arg`s parsed: which of the launch's arguments are buffers of struct fields.
    pub args: args::LaunchArgs,
}

/// The outcome of a request.
#[derive(Debug)]
pub struct Analyzed {
    /// The loaded input.
    pub module: Module,
    /// The kernel's names.
    pub name: KernelName,
    /// How the widths were decided, with how the PTX was made in front (`compiled by NVRTC; ...`).
    pub note: String,
    /// ptxas's resources, or why there are none (when `occupancy` or `fix` was asked for).
    pub resources: Option<std::result::Result<Resources, String>>,
    /// The source the fix advisor edited: (name, text).
    pub source: Option<(String, String)>,
    /// The results of the run.
    pub results: Results,
}

/// Spreads `n` sampled blocks over `total` blocks.
pub fn sample_blocks(n: u32, total: u64) -> Vec<u32> {
    let n = u64::from(n).min(total).max(1);
    let mut v: Vec<u32> = (0..n).map(|i| (i * total / n) as u32).collect();
    v.dedup();
    v
}

/// Checks the cheap things (limits, argument syntax, `--blocks`), then loads the input, picks the
/// kernel and builds the launch.
pub fn prepare(req: &Request) -> Result<Prepared> {
    limits::check_arg_specs(&req.args)?;
    if req.blocks == Some(0) {
        return Err(Error::input("--blocks must be at least 1"));
    }
    if req.cooperative && req.blocks.is_some() {
        return Err(Error::input(
            "--cooperative runs the whole grid (its blocks wait for each other): --blocks cannot sample it",
        ));
    }
    limits::check_grid(req.grid, req.block, req.blocks.map(u64::from))?;
    let parsed = args::parse_launch_args(&req.args)?;
    let kargs: Vec<Arg> = parsed.args.clone();
    let module = input::load(&req.input, req.arch, &req.compile)?;
    // every `.entry`, also those that did not lower (naming one gives its lowering errors)
    let names = module.program.all_kernel_names();
    let chosen = kernel::select(&names, req.kernel.as_deref(), &req.input.display().to_string())?;
    if let Some(errs) = module.program.kernel_error(&chosen) {
        let list: Vec<String> = errs
            .iter()
            .map(|e| format!("{}:{e}", req.input.display()))
            .collect();
        return Err(Error::input(format!(
            "cannot lower kernel `{chosen}`:\n{}",
            list.join("\n")
        )));
    }
    let name = KernelName::new(&chosen);
    let k = module
        .program
        .kernel(&chosen)
        .ok_or_else(|| Error::input(format!("no kernel `{chosen}`")))?;
    args::check_fields(k, name.display(), &kargs[..parsed.given], &parsed.spans)?;
    let (cdims, _) = warpscope_emu::cluster_dims(k, req.grid, req.cluster, req.cluster_nonportable)
        .map_err(|e| Error::input(e.to_string()))?;
    if cdims.iter().product::<u32>() > 1 && req.blocks.is_some() {
        return Err(Error::input(
            "a cluster launch runs whole clusters (their blocks share memory): --blocks cannot sample it",
        ));
    }
    let total: u64 = req.grid.iter().map(|&g| u64::from(g)).product();
    let mut launch = Launch::new(req.grid, req.block, kargs);
    launch.dyn_smem = req.dyn_smem;
    launch.blocks = req.blocks.map(|n| sample_blocks(n, total));
    launch.cooperative = req.cooperative;
    launch.cluster = req.cluster;
    launch.cluster_nonportable = req.cluster_nonportable;
    Ok(Prepared {
        module,
        name,
        launch,
        args: parsed,
    })
}

/// The CUDA source for the fix advisor's edits: the one asked for, the `.cu` given, or the first
/// `.file` of the PTX that can be read.
fn fix_source(asked: Option<&Path>, module: &Module) -> Result<Option<(String, String)>> {
    if let Some(p) = asked {
        let text = limits::read_source(p)?;
        return Ok(Some((p.display().to_string(), text)));
    }
    if let Some(text) = &module.cuda_source {
        return Ok(Some((module.path.display().to_string(), text.clone())));
    }
    for (_, name) in &module.program.files {
        if name.ends_with(".cu")
            && let Ok(text) = std::fs::read_to_string(name)
        {
            return Ok(Some((name.clone(), text)));
        }
    }
    Ok(None)
}

/// Runs a request: [`prepare`], the machine code, ptxas's resources when needed, and one
/// [`analyze_launch`].
pub fn analyze(req: &Request) -> Result<Analyzed> {
    let p = prepare(req)?;
    run_prepared(req, p)
}

/// The rest of [`analyze`] for a launch already prepared.
pub fn run_prepared(req: &Request, p: Prepared) -> Result<Analyzed> {
    let Prepared {
        module,
        name,
        launch,
        args: parsed,
    } = p;
    let kernel = name.mangled.clone();
    let target = req.fix.as_ref().and_then(|f| f.target);
    // The machine code is the target's when the fix advisor is the only consumer of widths.
    let widths_arch = match &target {
        Some(t) if !req.sections.banks => t.arch,
        _ => req.arch,
    };
    let needs_widths = req.sections.banks || req.sections.fix;
    let widths = if needs_widths {
        machine::widths(
            &module.program,
            &kernel,
            &module.ptx,
            module
                .cubin
                .as_deref()
                .filter(|_| widths_arch.name == req.arch.name),
            widths_arch,
            &req.widths,
        )?
    } else {
        Widths::ptx_level("widths not needed by the sections asked for")
    };
    let note = match &module.made_by {
        Some(how) if module.kind == input::InputKind::Cuda => format!("compiled by {how}; {}", widths.note),
        Some(how) => format!("PTX by {how}; {}", widths.note),
        None => widths.note.clone(),
    };
    let user_registers = req.fix.as_ref().and_then(|f| f.registers);
    let resources = (req.sections.occupancy || (req.sections.fix && user_registers.is_none())).then(|| {
        let arch = if req.sections.occupancy {
            req.arch
        } else {
            widths_arch
        };
        machine::resources(&module.ptx, &kernel, arch)
    });
    let source = if req.sections.fix {
        fix_source(req.fix.as_ref().and_then(|f| f.source.as_deref()), &module)?
    } else {
        None
    };
    let fix = req.sections.fix.then(|| FixOptions {
        target: target.unwrap_or_else(|| Target::new(req.arch)),
        registers: user_registers.or_else(|| {
            resources
                .as_ref()
                .and_then(|r| r.as_ref().ok())
                .map(|r| r.registers)
        }),
        registers_from: if user_registers.is_some() {
            "--registers"
        } else {
            "ptxas"
        }
        .to_string(),
        source: source.as_ref().map(|s| s.1.clone()),
        what_if: req.fix.as_ref().and_then(|f| f.what_if.clone()),
    });
    // the parameters' names, for messages: from the `.cu` given, or the PTX's first readable `.cu`
    let param_names = match module.program.kernel(&kernel) {
        Some(k) => module
            .cuda_source
            .clone()
            .or_else(|| {
                module
                    .program
                    .files
                    .iter()
                    .filter(|(_, n)| n.ends_with(".cu"))
                    .find_map(|(_, n)| limits::read_source(Path::new(n)).ok())
            })
            .map(|text| crate::fault::param_names(&text, &name.plain, k.params.len()))
            .unwrap_or_default(),
        None => Vec::new(),
    };
    // the buffers struct fields point to follow the parameters, named by their field
    let param_names = if parsed.fields.is_empty() {
        param_names
    } else {
        let mut names = param_names.clone();
        names.resize(parsed.given, String::new());
        for f in &parsed.fields {
            names.resize(f.index, String::new());
            names.push(
                parsed
                    .field_name(f.index, param_names.get(f.arg).map(String::as_str))
                    .unwrap_or_default(),
            );
        }
        names
    };
    let opts = RunOptions {
        limits: limits::emu_limits(&launch, req.max_instructions),
        debug_build: is_debug_ptx(&module.ptx),
        fix,
        resources: resources.as_ref().and_then(|r| r.as_ref().ok()).cloned(),
        param_names,
        same_value_writes: req.same_value_writes,
        no_global_races: req.no_global_races,
        ..RunOptions::default()
    };
    let results = analyze_launch(
        &module.program,
        &kernel,
        &launch,
        &req.sections,
        req.arch,
        &widths,
        &opts,
    )
    .map_err(|e| {
        e.context(format!(
            "{}: cannot emulate `{}`",
            req.input.display(),
            name.display()
        ))
    })?;
    Ok(Analyzed {
        module,
        name,
        note,
        resources,
        source,
        results,
    })
}
