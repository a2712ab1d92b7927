//! warpscope's own predictions for `warpscope lab` (the [`Predictor`] the lab compares with ncu).
//!
//! Each lab kernel source is compiled by NVRTC for the device's `sm_XY` with the lab's own options
//! (`-O3`, or `-G`), its PTX is emulated over the launch ncu profiles (one block for the shared-memory
//! tiles, 64 x 64 threads for the divergence kernels), and:
//!
//! * shared-memory wavefronts and instructions come from the bank analysis
//!   ([`warpscope_analysis::banks`]), with access widths reconciled against the machine code (the
//!   CUBIN NVRTC produced, disassembled by the toolkit's `nvdisasm`) when a toolkit is found;
//! * branch efficiency comes from the divergence counters ([`warpscope_analysis::divergence`]): for a
//!   `-G` build the machine estimate (the PTX's branches plus the one uniform branch of each integer
//!   div/rem routine), for an optimised build the PTX's branches, checked against the machine code's
//!   branches when a toolkit is found. When no branch executes, ncu prints 0 for its `.pct` metric
//!   (0 / 0), and so does the prediction ([`NO_BRANCH_PCT`]).
//!
//! Nothing falls back silently: without NVRTC every prediction is `None` and [`Predictor::label`]
//! says why; a kernel whose prediction fails is `None`, and the reason is printed on stderr and
//! kept in [`LabPredictor::notes`].
//!
//! The emulation goes through the driver (`warpscope_driver::analyze_launch`), as every command's
//! does. This file depends only on library crates, so that tests can include it as a module.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;

use warpscope_analysis::banks::{Counts, Side};
use warpscope_analysis::divergence::is_debug_ptx;
use warpscope_driver::{RunOptions, Sections, Widths, analyze_launch};
use warpscope_emu::{Arg, Launch};
use warpscope_gpu::lab::{Lab, Predictor};
use warpscope_gpu::nvrtc::{CompileOptions, Nvrtc};
use warpscope_model::arch::Arch;
use warpscope_ptx::Program;

/// What the prediction says when no branch executes: Nsight Compute prints 0 for
/// `smsp__sass_average_branch_targets_threads_uniform.pct` when there are no branch targets.
pub const NO_BRANCH_PCT: f64 = 0.0;

/// Shared-memory counters of one launch, as ncu's `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*`
/// and `smsp__sass_inst_executed_op_shared_*` count them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmemPrediction {
    /// Shared loads.
    pub load: Counts,
    /// Shared stores.
    pub store: Counts,
    /// True when access widths come from the machine code (false: PTX-level widths).
    pub machine_code: bool,
}

/// Branch counters of one launch.
#[derive(Clone, Debug, PartialEq)]
pub struct BranchPrediction {
    /// Branch targets (warp-level branch executions) the machine code is predicted to execute.
    pub targets: u64,
    /// Divergent ones.
    pub divergent: u64,
    /// What ncu's `..._threads_uniform.pct` is predicted to print ([`NO_BRANCH_PCT`] for no targets).
    pub efficiency_pct: f64,
    /// Branch instructions in the machine code, not counting the unreachable self-loop after the
    /// final `EXIT` (`None` without a toolkit).
    pub machine_branches: Option<u32>,
    /// Conditional and unconditional branch instructions in the PTX.
    pub ptx_branches: u32,
}

/// One compiled lab source.
struct Built {
    program: Program,
    ptx: String,
    /// `nvdisasm -g -c` of NVRTC's CUBIN, or why there is none.
    sass: Result<String, String>,
}

/// A compiled lab source, or why it could not be compiled.
type BuildResult = Result<Built, String>;

/// The CLI's [`Predictor`]: NVRTC, the emulator and the analyses (see the module docs).
pub struct LabPredictor {
    arch: Result<&'static Arch, String>,
    nvrtc: Result<Nvrtc, String>,
    nvdisasm: Result<std::path::PathBuf, String>,
    builds: RefCell<HashMap<(u64, bool), Rc<BuildResult>>>,
    notes: RefCell<Vec<String>>,
}

impl LabPredictor {
    /// A predictor for compute capability `cc` (e.g. 90), with NVRTC from `nvrtc` (a file or
    /// directory) or found as `warpscope lab` finds it, and the toolkit's `nvdisasm` found as
    /// `warpscope analyze` finds it.
    pub fn new(cc: u32, nvrtc: Option<&Path>) -> LabPredictor {
        LabPredictor::with_nvrtc(cc, Nvrtc::load(nvrtc))
    }

    /// A predictor for compute capability `cc` with NVRTC as loaded (or not) by the caller.
    pub fn with_nvrtc(cc: u32, nvrtc: warpscope_gpu::Result<Nvrtc>) -> LabPredictor {
        let arch = Arch::parse(&cc.to_string())
            .map_err(|_| format!("warpscope has no architecture preset for CC {cc}"));
        let nvrtc = nvrtc.map_err(|e| format!("NVRTC unavailable: {e}"));
        let nvdisasm = warpscope_toolchain::locate::find_root()
            .map_err(|e| e.to_string())
            .and_then(|root| {
                let p = root.bin("nvdisasm");
                if p.exists() {
                    Ok(p)
                } else {
                    Err(format!("no nvdisasm in {}", root.root.display()))
                }
            });
        LabPredictor {
            arch,
            nvrtc,
            nvdisasm,
            builds: RefCell::new(HashMap::new()),
            notes: RefCell::new(Vec::new()),
        }
    }

    /// A predictor for the lab's device (its compute capability), NVRTC as in [`LabPredictor::new`].
    pub fn for_lab(lab: &Lab, nvrtc: Option<&Path>) -> LabPredictor {
        let info = lab.info();
        LabPredictor::new(info.cc_major * 10 + info.cc_minor, nvrtc)
    }

    /// Why no prediction can be made at all (no NVRTC, unknown architecture), if so.
    pub fn unavailable(&self) -> Option<String> {
        match (&self.arch, &self.nvrtc) {
            (Err(e), _) | (_, Err(e)) => Some(e.clone()),
            _ => None,
        }
    }

    /// Reasons of the predictions that failed so far.
    pub fn notes(&self) -> Vec<String> {
        self.notes.borrow().clone()
    }

    fn note(&self, what: String) {
        eprintln!("warpscope: prediction: {what}");
        self.notes.borrow_mut().push(what);
    }

    /// Compiles `src` (cached by text and build) as the lab does: `-O3` or `-G`, with line info.
    fn build(&self, src: &str, debug: bool) -> Rc<BuildResult> {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        src.hash(&mut h);
        let key = (h.finish(), debug);
        if let Some(b) = self.builds.borrow().get(&key) {
            return Rc::clone(b);
        }
        let built = Rc::new(self.compile(src, debug));
        self.builds.borrow_mut().insert(key, Rc::clone(&built));
        built
    }

    fn compile(&self, src: &str, debug: bool) -> BuildResult {
        let arch = self.arch.as_ref().map_err(Clone::clone)?;
        let nvrtc = self.nvrtc.as_ref().map_err(Clone::clone)?;
        let mut opts = CompileOptions::for_cc(arch.cc());
        opts.lineinfo = true;
        opts.debug = debug;
        let name = if debug { "lab-G.cu" } else { "lab.cu" };
        let c = nvrtc
            .compile(src, name, &opts)
            .map_err(|e| format!("NVRTC compilation failed: {e}"))?;
        let program = parse_ptx(&c.ptx)?;
        let sass = match (&self.nvdisasm, &c.cubin) {
            (Err(e), _) => Err(e.clone()),
            (_, None) => Err("NVRTC produced no CUBIN".to_string()),
            (Ok(nvdisasm), Some(cubin)) => disassemble(nvdisasm, cubin),
        };
        Ok(Built {
            program,
            ptx: c.ptx,
            sass,
        })
    }

    /// Shared-memory counters of `kernel` from `src` (a `-O3` build), one block of `block` threads
    /// with `dyn_smem` bytes of dynamic shared memory and two buffers of one `int` per thread.
    pub fn smem(
        &self,
        kernel: &str,
        src: &str,
        block: (u32, u32),
        dyn_smem: u32,
    ) -> Result<SmemPrediction, String> {
        let arch = self.arch.as_ref().map_err(Clone::clone)?;
        let built = self.build(src, false);
        let b = built.as_ref().as_ref().map_err(Clone::clone)?;
        let widths = match &b.sass {
            Ok(sass) => Widths::from_sass(&b.program, kernel, sass, "NVRTC's CUBIN through nvdisasm")
                .map_err(|e| e.to_string())?,
            Err(why) => Widths::ptx_level(why.clone()),
        };
        let machine_code = widths.machine_code();
        let bytes = (block.0 * block.1 * 4) as usize;
        let mut launch = Launch::new(
            [1, 1, 1],
            [block.0, block.1, 1],
            vec![Arg::Buffer(vec![0; bytes]), Arg::Buffer(vec![0; bytes])],
        );
        launch.dyn_smem = dyn_smem;
        let sections = Sections {
            banks: true,
            ..Sections::NONE
        };
        let r = analyze_launch(
            &b.program,
            kernel,
            &launch,
            &sections,
            arch,
            &widths,
            &RunOptions::default(),
        )
        .map_err(|e| format!("emulation failed: {e}"))?;
        if let Some(f) = r.fault_messages.first() {
            return Err(format!("the emulated launch faulted: {f}"));
        }
        let run = r.banks.ok_or("the bank section did not run")?;
        if run.report.unmodelled > 0 {
            return Err(format!(
                "{} shared requests the bank model cannot count (misaligned)",
                run.report.unmodelled
            ));
        }
        Ok(SmemPrediction {
            load: run.report.total(Side::Load),
            store: run.report.total(Side::Store),
            machine_code,
        })
    }

    /// Branch counters of `kernel` from `src` built with `-G` when `debug` (else `-O3`), launched as
    /// `grid` x `block` threads with one `float` output per thread.
    pub fn branches(
        &self,
        kernel: &str,
        src: &str,
        debug: bool,
        grid: u32,
        block: u32,
    ) -> Result<BranchPrediction, String> {
        let built = self.build(src, debug);
        let b = built.as_ref().as_ref().map_err(Clone::clone)?;
        let k = b
            .program
            .kernel(kernel)
            .ok_or_else(|| format!("no kernel `{kernel}` in the compiled PTX"))?;
        let ptx_branches = b.program.info[k.entry as usize..k.end as usize]
            .iter()
            .filter(|info| is_ptx_branch(&info.text))
            .count() as u32;
        let launch = Launch::new(
            [grid, 1, 1],
            [block, 1, 1],
            vec![Arg::Buffer(vec![0; (grid * block * 4) as usize])],
        );
        let sections = Sections {
            divergence: true,
            ..Sections::NONE
        };
        let arch = self.arch.as_ref().map_err(Clone::clone)?;
        let opts = RunOptions {
            debug_build: is_debug_ptx(&b.ptx),
            ..RunOptions::default()
        };
        let widths = Widths::ptx_level("not needed for branches");
        let r = analyze_launch(&b.program, kernel, &launch, &sections, arch, &widths, &opts)
            .map_err(|e| format!("emulation failed: {e}"))?;
        if let Some(f) = r.fault_messages.first() {
            return Err(format!("the emulated launch faulted: {f}"));
        }
        let rep = r.divergence.ok_or("the divergence section did not run")?;
        let t = &rep.totals;
        let (targets, divergent) = match (&t.debug_machine_estimate, debug) {
            (Some(m), true) => (m.targets, m.divergent),
            (None, true) => return Err("the -G PTX does not say `debug` on its .target line".into()),
            (_, false) => (t.targets, t.divergent),
        };
        let machine_branches = match &b.sass {
            Ok(sass) => Some(
                sass_branches(sass, kernel)
                    .ok_or_else(|| format!("the machine code has no kernel `{kernel}`"))?,
            ),
            Err(_) => None,
        };
        if !debug && machine_branches.is_some_and(|m| m != ptx_branches) {
            // ptxas restructured the branches (rotation, unrolling, predication): the PTX's
            // figures are not the machine code's.
            return Err(format!(
                "{kernel}: the -O3 machine code has {} branch instructions and the PTX {ptx_branches}; \
                 PTX-level branch counts would not be the machine code's",
                machine_branches.unwrap_or(0)
            ));
        }
        let efficiency_pct = if targets == 0 {
            NO_BRANCH_PCT
        } else {
            100.0 * (targets - divergent) as f64 / targets as f64
        };
        Ok(BranchPrediction {
            targets,
            divergent,
            efficiency_pct,
            machine_branches,
            ptx_branches,
        })
    }
}

/// Whether a PTX instruction is a branch (`bra`, `bra.uni`, `@p bra`).
fn is_ptx_branch(text: &str) -> bool {
    let t = text.trim_start();
    let t = match t.strip_prefix('@') {
        Some(r) => r.split_once(char::is_whitespace).map_or("", |x| x.1.trim_start()),
        None => t,
    };
    let op = t.split_whitespace().next().unwrap_or("");
    op == "bra" || op.starts_with("bra.")
}

/// Parses and lowers PTX.
fn parse_ptx(ptx: &str) -> Result<Program, String> {
    warpscope_driver::input::compile_ptx(ptx, Path::new("NVRTC's PTX")).map_err(|e| e.to_string())
}

/// `nvdisasm -g -c` of a CUBIN.
fn disassemble(nvdisasm: &Path, cubin: &[u8]) -> Result<String, String> {
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("warpscope-labpred-{}-{seq}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join("k.cubin");
    let r = std::fs::write(&path, cubin)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
        .and_then(|_| warpscope_toolchain::sass::disassemble(nvdisasm, &path).map_err(|e| e.to_string()));
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// Branch instructions (`BRA`, `BRX`, `JMP`, `JMX`, predicated or not) in `kernel`'s section of
/// `nvdisasm` output, not counting a `BRA` to a label of its own (the unreachable loop after `EXIT`).
/// `None` when the kernel is not in the text.
pub fn sass_branches(sass: &str, kernel: &str) -> Option<u32> {
    let mut inside = false;
    let mut found = false;
    let mut labels: Vec<&str> = Vec::new();
    let mut n = 0;
    for line in sass.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix(".section") {
            let name = rest
                .trim_start()
                .strip_prefix(".text.")
                .map(|r| r.split(',').next().unwrap_or(r).trim());
            inside = name == Some(kernel);
            found |= inside;
            labels.clear();
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(l) = t
            .strip_suffix(':')
            .filter(|l| l.starts_with('.') && !l.contains(char::is_whitespace))
        {
            labels.push(l);
            continue;
        }
        // `/*0200*/ @!P0 BRA `(.L_x_0) ;`
        let Some(rest) = t
            .strip_prefix("/*")
            .and_then(|r| r.split_once("*/"))
            .map(|x| x.1.trim())
        else {
            continue;
        };
        let rest = rest.strip_prefix('{').unwrap_or(rest).trim_start();
        let rest = if rest.starts_with('@') {
            rest.split_once(char::is_whitespace)
                .map_or("", |x| x.1.trim_start())
        } else {
            rest
        };
        let op = rest.split_whitespace().next().unwrap_or("");
        let base = op.split('.').next().unwrap_or("");
        if matches!(base, "BRA" | "BRX" | "JMP" | "JMX") {
            let self_loop = labels.iter().any(|l| rest.contains(&format!("({l})")));
            if !self_loop {
                n += 1;
            }
        }
        labels.clear();
    }
    found.then_some(n)
}

impl Predictor for LabPredictor {
    fn label(&self) -> String {
        if let Some(why) = self.unavailable() {
            return format!("no prediction: {why}");
        }
        let arch = self.arch.as_ref().map(|a| a.name).unwrap_or("?");
        let (maj, min) = self.nvrtc.as_ref().map(Nvrtc::version).unwrap_or((0, 0));
        let widths = match &self.nvdisasm {
            Ok(p) => format!(
                "widths and branches checked against the machine code ({})",
                p.display()
            ),
            Err(e) => format!("PTX-level widths, machine branches not checked: {e}"),
        };
        let mut s = format!(
            "prediction (warpscope: NVRTC {maj}.{min} {arch} PTX emulated on the ncu launch; {widths}; \
             -G branches by the div/rem machine estimate; no branch executed = 0, as ncu prints 0/0)"
        );
        let notes = self.notes();
        if !notes.is_empty() {
            s.push_str(&format!("; not predicted: {}", notes.join("; ")));
        }
        s
    }

    fn smem_wavefronts(
        &self,
        kernel: &str,
        src: &str,
        block: (u32, u32),
        dyn_smem: u32,
    ) -> Option<(u64, u64)> {
        if self.unavailable().is_some() {
            return None;
        }
        match self.smem(kernel, src, block, dyn_smem) {
            Ok(p) => Some((p.load.wavefronts, p.store.wavefronts)),
            Err(e) => {
                self.note(format!("{kernel}: {e}"));
                None
            }
        }
    }

    fn branch_efficiency(&self, kernel: &str, src: &str, debug: bool, grid: u32, block: u32) -> Option<f64> {
        if self.unavailable().is_some() {
            return None;
        }
        match self.branches(kernel, src, debug, grid, block) {
            Ok(p) => Some(p.efficiency_pct),
            Err(e) => {
                self.note(format!("{kernel} {}: {e}", if debug { "-G" } else { "-O3" }));
                None
            }
        }
    }
}
