//! `check` on a kernel that launches kernels (dynamic parallelism): the launch runs again against
//! a global space of its own, recording each grid's global accesses
//! ([`warpscope_analysis::device_grids`]), then every grid its threads launched runs in that space
//! after it (one valid CDP2 schedule, as `warpscope run` runs them), and the accesses of the
//! parent and its children are paired under CDP2's ordering.
//!
//! In `warpscope run --check` ([`check_in`]) the space is a copy of the program's global memory
//! as it was before the launch (taken by [`snapshot`]), so the second run leaves the program's
//! memory alone. There every grid is paired with the grids it launched itself: a child that
//! launches grids is checked against its own children when its launch is checked.

use std::sync::Arc;

use warpscope_analysis::device_grids::{Grid, GridRaces, GridSink};
use warpscope_emu::mem::Global;
use warpscope_emu::{Arg, Launch, Limits};
use warpscope_ptx::Program;
use warpscope_ptx::inst::{DevRtCall, Inst};

/// The instructions of kernel `entry..end` that launch a grid.
fn launch_pcs(program: &Program, entry: u32, end: u32) -> Vec<u32> {
    (entry..end)
        .filter(|&pc| {
            matches!(
                program.ops.get(pc as usize).map(|o| &o.inst),
                Some(Inst::DevRt {
                    call: DevRtCall::LaunchDevice,
                    ..
                })
            )
        })
        .collect()
}

/// What the parent and its children did, with the launches (`None`: the kernel launches no grid).
pub struct DeviceGrids {
    /// The launches, in the order the emulator recorded them.
    pub launches: Vec<warpscope_emu::devlaunch::DeviceLaunch>,
    /// The races and the barriers that order accesses before a launch.
    pub races: GridRaces,
    /// Grids launched by the children, not followed.
    pub deeper: usize,
    /// Their kernels (distinct names, in launch order).
    pub deeper_kernels: Vec<String>,
}

/// A copy of `global`'s regions (the bytes of every allocation and `__device__` window; not its
/// texture objects), for [`check_in`] to run the grids again without touching the original.
pub fn snapshot(global: &Global) -> Global {
    Global::new(
        global
            .regions()
            .filter_map(|(base, _)| global.contents(base).map(|b| (base, b)))
            .collect(),
    )
}

/// Runs `kernel`'s launch and the grids it launches (see the module notes). `Ok(None)`: the
/// kernel has no launch instruction. `Err`: why it could not be checked (a note).
pub fn check(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
) -> Result<Option<DeviceGrids>, String> {
    let k = program
        .kernel(kernel)
        .ok_or_else(|| format!("no kernel `{kernel}`"))?;
    let pcs = launch_pcs(program, k.entry, k.end);
    if pcs.is_empty() {
        return Ok(None);
    }
    if launch.args.len() > k.params.len() || launch.cooperative || launch.cluster.is_some() {
        return Err("kernels it launches were not checked (by-value structs with pointers, cooperative and cluster launches are not followed there)".into());
    }
    // the launch's buffers placed as the emulator places them, in a space the children share
    let (bases, _) = warpscope_emu::buffer_layout(&launch.args);
    let mut init = Vec::new();
    let mut args = Vec::new();
    for (a, base) in launch.args.iter().zip(&bases) {
        match (a, base) {
            (Arg::Buffer(bytes), Some(b)) => {
                init.push((*b, bytes.clone()));
                args.push(Arg::U64(*b));
            }
            _ => args.push(a.clone()),
        }
    }
    let global = Global::new(init);
    let run = Launch {
        args,
        ..launch.clone()
    };
    grids(program, kernel, &run, pcs, limits, &global)
}

/// [`check`] of a launch whose arguments are already addresses in `global` (a copy of a
/// program's memory, see [`snapshot`]), as `warpscope run --check` has them. `Ok(None)`: the
/// kernel has no launch instruction.
pub fn check_in(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    global: &Global,
) -> Result<Option<DeviceGrids>, String> {
    let k = program
        .kernel(kernel)
        .ok_or_else(|| format!("no kernel `{kernel}`"))?;
    let pcs = launch_pcs(program, k.entry, k.end);
    if pcs.is_empty() {
        return Ok(None);
    }
    if launch.cooperative || launch.cluster.is_some() {
        return Err(
            "kernels it launches were not checked (cooperative and cluster launches are not followed there)"
                .into(),
        );
    }
    grids(program, kernel, launch, pcs, limits, global)
}

/// Whether `kernel` launches grids (has a device launch instruction).
pub fn launches_grids(program: &Program, kernel: &str) -> bool {
    program
        .kernel(kernel)
        .is_some_and(|k| !launch_pcs(program, k.entry, k.end).is_empty())
}

/// Runs `run` (its launch instructions at `pcs`) and the grids it launches in `global`, and
/// pairs their accesses.
fn grids(
    program: &Program,
    kernel: &str,
    run: &Launch,
    pcs: Vec<u32>,
    limits: &Limits,
    global: &Global,
) -> Result<Option<DeviceGrids>, String> {
    let env = run
        .device_runtime
        .clone()
        .unwrap_or_else(|| Arc::new(warpscope_emu::devlaunch::DevRtEnv::default()));
    let run = Launch {
        device_runtime: Some(Arc::clone(&env)),
        ..run.clone()
    };
    let launch = &run;
    let pcs = Arc::new(pcs);
    let threads: u32 = launch.block.iter().product();
    let res = warpscope_emu::run_in(program, kernel, &run, limits, global, |b| {
        GridSink::new(b, threads, Arc::clone(&pcs))
    })
    .map_err(|e| format!("kernels it launches were not checked: {e}"))?;
    let parent = Grid::of(res.sinks);
    let launches = res.launches;
    let mut children = Vec::new();
    let mut deeper = 0;
    let mut deeper_kernels: Vec<String> = Vec::new();
    for l in &launches {
        let Some(ck) = program.kernel(&l.kernel) else {
            return Err(format!(
                "kernels it launches were not checked: no kernel `{}`",
                l.kernel
            ));
        };
        let args = ck
            .params
            .iter()
            .map(|p| {
                let at = p.offset as usize;
                Arg::Bytes(
                    l.params
                        .get(at..at + p.size as usize)
                        .map(<[u8]>::to_vec)
                        .unwrap_or_else(|| vec![0; p.size as usize]),
                )
            })
            .collect();
        let mut cl = Launch::new(l.grid, l.block_dim, args);
        cl.dyn_smem = l.dyn_smem;
        cl.device_runtime = Some(Arc::new(warpscope_emu::devlaunch::DevRtEnv {
            depth: env.depth + 1,
            ..(*env).clone()
        }));
        let cpcs = Arc::new(launch_pcs(program, ck.entry, ck.end));
        let ct: u32 = l.block_dim.iter().product();
        let r = warpscope_emu::run_in(program, &l.kernel, &cl, limits, global, |b| {
            GridSink::new(b, ct, Arc::clone(&cpcs))
        })
        .map_err(|e| format!("kernels it launches were not checked: `{}`: {e}", l.kernel))?;
        deeper += r.launches.len();
        for g in &r.launches {
            if !deeper_kernels.contains(&g.kernel) {
                deeper_kernels.push(g.kernel.clone());
            }
        }
        children.push(Grid::of(r.sinks));
    }
    let races = warpscope_analysis::device_grids::races(&parent, &launches, &children);
    Ok(Some(DeviceGrids {
        launches,
        races,
        deeper,
        deeper_kernels,
    }))
}
