//! Kernels launched by kernels (CUDA dynamic parallelism, CDP2): the runtime's side.
//!
//! The emulator records the launches a grid's threads make (`warpscope_emu::devlaunch`); after
//! the grid's blocks are done the runtime runs them, one after another: first the launches into
//! the NULL stream, a created stream or fire-and-forget, in block order and then each block's
//! launch order, each followed at once by the kernels it launched in turn (depth first); then the
//! tail launches in the same order. CDP2 lets a grid complete only after its children, orders a
//! block's NULL-stream launches, and starts a tail launch only after its parent grid and the
//! parent's other work: this schedule keeps all three, and it does not depend on the number of
//! host threads. Each child is a launch of its own (its own launch number, record and counters),
//! with the launching grid's number, block, thread, nesting depth and stream in its record.

use std::sync::Arc;

use serde::Serialize;
use warpscope_emu::devlaunch::{DevRtEnv, DeviceLaunch, DeviceStream};

pub use crate::devtree::ParentRecord;
use crate::devtree::{GridDone, Parent};
use warpscope_ptx::lower::Program;

use crate::launch::LaunchRequest;
use crate::runtime::Runtime;

/// Host functions handles given to kernels only a grid launches (no host pointer registered
/// them) start here.
const DEVICE_ONLY_FUNC: usize = 0xffff_0000_0000_0000;

fn coords(linear: u32, dims: [u32; 3]) -> [u32; 3] {
    let [x, y, _] = dims.map(|d| d.max(1));
    [linear % x, (linear / x) % y, linear / (x * y)]
}

impl Runtime {
    /// Emulates a host launch and every kernel it launches on the device, recursively. Errors
    /// are the runtime's codes (the caller records them).
    ///
    /// Device `printf` output of the tree comes out in the order an H200 prints it
    /// (calibration/run/h200/dp_hello.stdout): each line has a time, the grid's time plus the
    /// launching warp's count of earlier `printf` calls (the k-th `printf` of every warp of a grid
    /// before the (k+1)-th of any); a grid's time is its launching warp's time when it launched
    /// (the launch takes longer than the launching thread's next `printf`); lines of one time
    /// come in launch-number order, which is the tree's depth-first order.
    pub fn launch(&mut self, req: LaunchRequest) -> Result<(), u32> {
        self.tree_printf.clear();
        let r = match self.launch_grid(req, None) {
            Ok(done) => self.run_children(done, 0),
            Err(e) => Err(e),
        };
        let mut lines = std::mem::take(&mut self.tree_printf);
        lines.sort_by_key(|(t, i, _)| (*t, *i));
        for (_, _, text) in lines {
            self.queue_printf(&text);
        }
        r
    }

    fn run_children(&mut self, done: GridDone, depth: u32) -> Result<(), u32> {
        let GridDone {
            index,
            printf_time,
            module,
            grid,
            block,
            launches,
        } = done;
        let (tail, rest): (Vec<DeviceLaunch>, Vec<DeviceLaunch>) =
            launches.into_iter().partition(|l| l.stream == DeviceStream::Tail);
        for l in rest.into_iter().chain(tail) {
            let func = self.device_function(module, &l.kernel);
            let params = {
                let p = self.program(module).map_err(|_| crate::err_codes::INVALID_PTX)?;
                let k = p
                    .kernel(&l.kernel)
                    .ok_or(crate::err_codes::INVALID_DEVICE_FUNCTION)?;
                k.params
                    .iter()
                    .map(|pi| {
                        let at = pi.offset as usize;
                        l.params
                            .get(at..at + pi.size as usize)
                            .map(<[u8]>::to_vec)
                            .unwrap_or_else(|| vec![0; pi.size as usize])
                    })
                    .collect()
            };
            let req = LaunchRequest {
                func,
                grid: l.grid,
                block: l.block_dim,
                dyn_smem: l.dyn_smem as usize,
                stream: 0,
                params,
                cooperative: false,
                cluster: None,
            };
            let parent = Parent {
                printf_time: printf_time + u64::from(l.printf_seq),
                record: ParentRecord {
                    launch: index,
                    block: coords(l.block, grid),
                    thread: coords(l.thread, block),
                    depth: depth + 1,
                    stream: l.stream.name().to_string(),
                },
            };
            let child = self.launch_grid(req, Some(&parent))?;
            self.run_children(child, depth + 1)?;
        }
        Ok(())
    }

    /// The handle of kernel `name` of module `module`: the host's, or one made for it.
    fn device_function(&mut self, module: usize, name: &str) -> usize {
        if let Some((&h, _)) = self
            .functions
            .iter()
            .filter(|(_, f)| f.module == module && f.name == name)
            .min_by_key(|(h, _)| **h)
        {
            return h;
        }
        let h = DEVICE_ONLY_FUNC + self.functions.len();
        self.functions.insert(
            h,
            crate::runtime::Function {
                module,
                name: name.to_string(),
            },
        );
        h
    }

    /// What the device runtime tells kernel `name` (`None` when it makes no device runtime call).
    pub(crate) fn device_runtime(
        &self,
        program: &Program,
        name: &str,
        parent: Option<&Parent>,
    ) -> Option<Arc<DevRtEnv>> {
        let k = program.kernel(name)?;
        let calls = program.ops[k.entry as usize..k.end as usize]
            .iter()
            .any(|o| matches!(o.inst, warpscope_ptx::inst::Inst::DevRt { .. }));
        calls.then(|| {
            Arc::new(DevRtEnv {
                depth: parent.map_or(0, |p| p.record.depth),
                device: 0,
                attributes: (0..=200)
                    .filter_map(|a| self.device.attribute(a).map(|v| (a, v)))
                    .collect(),
                max_smem: u32::try_from(self.device.smem_per_block_optin).unwrap_or(u32::MAX),
            })
        })
    }
}

/// A host launch's grid with every grid it launched, recursively: what Nsight Compute's row for
/// the host launch counts. ncu profiles no device-launched grid as a launch of its own; it counts
/// their work, and the device runtime's own (its loads, stores, branches and CTAs), in the row of
/// the host launch they descend from (calibration/run/h200/dp_*.ncu.csv: dp_streams' parent, one
/// warp with no shared access, has the 32 shared loads and stores of the child it launched).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tree {
    /// Grids in it, the host launch's included.
    pub grids: u64,
    /// The additive counters (`*.sum`) summed over its grids.
    pub metrics: std::collections::BTreeMap<String, f64>,
    /// Whether every grid's shared-memory counters are exact (the sums then equal ncu's: the
    /// device runtime makes no shared load or store).
    pub shared_exact: bool,
}

/// The trees of the host launches among `recs` that launched kernels, by the host launch's
/// number. A device-launched grid whose host launch was not recorded (launch filters) counts in
/// no tree.
pub fn trees(recs: &[crate::LaunchRecord]) -> std::collections::BTreeMap<u64, Tree> {
    use std::collections::BTreeMap;
    let by_index: BTreeMap<u64, &crate::LaunchRecord> = recs.iter().map(|r| (r.index, r)).collect();
    let root = |r: &crate::LaunchRecord| -> Option<u64> {
        let mut at = r;
        for _ in 0..=recs.len() {
            match &at.parent {
                None => return Some(at.index),
                Some(p) => at = by_index.get(&p.launch)?,
            }
        }
        None
    };
    let mut out: BTreeMap<u64, Tree> = BTreeMap::new();
    for r in recs {
        let Some(host) = root(r) else { continue };
        let t = out.entry(host).or_insert_with(|| Tree {
            shared_exact: true,
            ..Tree::default()
        });
        t.grids += 1;
        for (k, v) in &r.analysis.metrics {
            if k.ends_with(".sum") {
                *t.metrics.entry(k.clone()).or_insert(0.0) += v;
            }
        }
        t.shared_exact &= r
            .analysis
            .metrics
            .get("warpscope__shared_counters_exact")
            .is_none_or(|v| *v == 1.0);
    }
    out.retain(|_, t| t.grids > 1);
    out
}
