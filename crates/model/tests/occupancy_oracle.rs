//! The occupancy calculator against NVIDIA's own (`cuda_occupancy.h`), compiled at test time by
//! `scripts/occupancy-oracle.sh` and fed the same limits table, over every preset from sm_50 to sm_121:
//! every block size 1..=1024 by every register count 0..=255, a shared-memory sweep (static, dynamic,
//! opt-in and beyond, carveouts), barrier counts, and the best block size. Zero mismatches allowed.
//!
//! Needs `WARPSCOPE_CUDA_ROOT` (the CUDA root with `include/cuda_occupancy.h`; `./scripts/test` sets it)
//! and g++. Without them this test FAILS: it is never skipped.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use warpscope_model::occupancy::{Launch, Limiter, Limits, best_block_size, occupancy};

/// One oracle command and the launches it answers, in order.
#[derive(Clone, Debug)]
enum Cmd {
    /// Threads `t.0..=t.1` (outer) by registers `r.0..=r.1`.
    Threads {
        t: (u32, u32),
        r: (u32, u32),
        stat: u32,
        dynamic: u32,
        carveout: i32,
        barriers: u32,
    },
    /// Dynamic shared memory `d.0..=d.1` by `step`.
    Dyn {
        threads: u32,
        regs: u32,
        stat: u32,
        d: (u32, u32),
        step: u32,
        carveout: i32,
        barriers: u32,
    },
    /// Best block size.
    Best {
        regs: u32,
        stat: u32,
        dynamic: u32,
        carveout: i32,
        barriers: u32,
    },
}

fn launch(threads: u32, regs: u32, stat: u32, dynamic: u32, carveout: i32, barriers: u32) -> Launch {
    Launch {
        threads,
        regs_per_thread: regs,
        static_smem: stat,
        dyn_smem: dynamic,
        carveout_percent: u32::try_from(carveout).ok(),
        barriers,
    }
}

impl Cmd {
    fn line(&self) -> String {
        match *self {
            Cmd::Threads {
                t,
                r,
                stat,
                dynamic,
                carveout,
                barriers,
            } => format!(
                "T {} {} {} {} {stat} {dynamic} {carveout} {barriers}",
                t.0, t.1, r.0, r.1
            ),
            Cmd::Dyn {
                threads,
                regs,
                stat,
                d,
                step,
                carveout,
                barriers,
            } => format!(
                "D {threads} {regs} {stat} {} {} {step} {carveout} {barriers}",
                d.0, d.1
            ),
            Cmd::Best {
                regs,
                stat,
                dynamic,
                carveout,
                barriers,
            } => {
                format!("B {regs} {stat} {dynamic} {carveout} {barriers}")
            }
        }
    }

    fn launches(&self) -> Box<dyn Iterator<Item = Launch>> {
        match *self {
            Cmd::Threads {
                t,
                r,
                stat,
                dynamic,
                carveout,
                barriers,
            } => Box::new((t.0..=t.1).flat_map(move |th| {
                (r.0..=r.1).map(move |rg| launch(th, rg, stat, dynamic, carveout, barriers))
            })),
            Cmd::Dyn {
                threads,
                regs,
                stat,
                d,
                step,
                carveout,
                barriers,
            } => Box::new(
                (d.0..=d.1)
                    .step_by(step as usize)
                    .map(move |dy| launch(threads, regs, stat, dy, carveout, barriers)),
            ),
            Cmd::Best {
                regs,
                stat,
                dynamic,
                carveout,
                barriers,
            } => Box::new(std::iter::once(launch(
                0, regs, stat, dynamic, carveout, barriers,
            ))),
        }
    }
}

fn commands(l: &Limits) -> Vec<Cmd> {
    let mut cmds = vec![Cmd::Threads {
        t: (1, 1024),
        r: (0, 255),
        stat: 0,
        dynamic: 0,
        carveout: -1,
        barriers: 1,
    }];
    let top = l.smem_per_block_optin + 4096;
    for threads in [1, 64, 100, 256, 1024] {
        for regs in [0, 40, 128] {
            for stat in [0, 4224, 48 * 1024] {
                for carveout in [-1, 0, 10, 25, 50, 66, 100] {
                    cmds.push(Cmd::Dyn {
                        threads,
                        regs,
                        stat,
                        d: (0, top),
                        step: 1000,
                        carveout,
                        barriers: 1,
                    });
                }
            }
        }
    }
    // Every allocation-unit boundary, and one byte either side of the opt-in maximum.
    cmds.push(Cmd::Dyn {
        threads: 256,
        regs: 32,
        stat: 0,
        d: (0, top),
        step: 128,
        carveout: -1,
        barriers: 1,
    });
    for stat in [0, 1000] {
        let edge = l.smem_per_block_optin - stat;
        cmds.push(Cmd::Dyn {
            threads: 128,
            regs: 16,
            stat,
            d: (edge - 1, edge + 1),
            step: 1,
            carveout: -1,
            barriers: 1,
        });
    }
    for barriers in 0..=4 {
        cmds.push(Cmd::Threads {
            t: (1, 1024),
            r: (24, 24),
            stat: 0,
            dynamic: 0,
            carveout: -1,
            barriers,
        });
    }
    for regs in 0..=255 {
        for (dynamic, carveout) in [(0, -1), (4096, -1), (20000, 25), (49152, -1), (100_000, -1)] {
            cmds.push(Cmd::Best {
                regs,
                stat: 0,
                dynamic,
                carveout,
                barriers: 1,
            });
        }
    }
    cmds
}

fn factors(limiters: &[Limiter]) -> u32 {
    limiters
        .iter()
        .map(|l| match l {
            Limiter::Warps => 1,
            Limiter::Registers => 2,
            Limiter::SharedMemory => 4,
            Limiter::Blocks => 8,
            Limiter::Barriers => 16,
        })
        .sum()
}

fn oracle_program() -> PathBuf {
    let root = std::env::var("WARPSCOPE_CUDA_ROOT").unwrap_or_default();
    assert!(
        !root.is_empty(),
        "WARPSCOPE_CUDA_ROOT is not set: this test needs the CUDA root holding include/cuda_occupancy.h \
         (run ./scripts/test, or export WARPSCOPE_CUDA_ROOT=$(./scripts/cuda-wheels.sh))"
    );
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(repo.join("scripts/occupancy-oracle.sh"))
        .output()
        .expect("cannot run scripts/occupancy-oracle.sh");
    assert!(
        out.status.success(),
        "scripts/occupancy-oracle.sh failed (is g++ installed?):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

#[test]
fn calculator_equals_cuda_occupancy_h_on_every_preset() {
    let prog = oracle_program();
    let all: Vec<Limits> = Limits::supported_ccs()
        .map(|cc| Limits::for_cc(cc).unwrap())
        .collect();
    assert_eq!(all.first().map(|l| l.cc), Some(50));
    assert_eq!(all.last().map(|l| l.cc), Some(121));
    let plan: Vec<(Limits, Vec<Cmd>)> = all
        .into_iter()
        .map(|l| {
            let c = commands(&l);
            (l, c)
        })
        .collect();

    let mut child = Command::new(&prog)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cannot start the oracle");
    let mut stdin = BufWriter::new(child.stdin.take().unwrap());
    let script: Vec<String> = plan
        .iter()
        .flat_map(|(l, cmds)| {
            let p = format!(
                "P {} {} {} {} {} {} {} {} {} {}",
                l.cc,
                l.max_threads_per_block,
                l.max_threads_per_sm,
                l.regs_per_block,
                l.regs_per_sm,
                l.smem_per_block,
                l.smem_per_sm,
                l.smem_per_block_optin,
                l.smem_reserved_per_block,
                l.sm_count
            );
            std::iter::once(p).chain(cmds.iter().map(Cmd::line))
        })
        .collect();
    let writer = std::thread::spawn(move || {
        for line in script {
            writeln!(stdin, "{line}").unwrap();
        }
    });

    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut compared = 0u64;
    let mut mismatches = Vec::new();
    let mut miss = |msg: String| {
        if mismatches.len() < 30 {
            mismatches.push(msg);
        }
    };
    let mut n_miss = 0u64;
    for (l, cmds) in &plan {
        for cmd in cmds {
            for launch in cmd.launches() {
                let line = lines.next().expect("oracle ended early").unwrap();
                let f: Vec<i64> = line
                    .split_whitespace()
                    .map(|x| x.parse().unwrap_or(i64::MIN))
                    .collect();
                compared += 1;
                if let Cmd::Best { .. } = cmd {
                    let b = best_block_size(l, &launch).unwrap();
                    if f != [i64::from(b.threads), i64::from(b.min_grid)] {
                        n_miss += 1;
                        miss(format!(
                            "cc {} best {launch:?}: oracle `{line}`, ours {b:?}",
                            l.cc
                        ));
                    }
                    continue;
                }
                let o = occupancy(l, &launch).unwrap();
                let ours = [
                    i64::from(o.blocks_per_sm),
                    i64::from(factors(&o.limiters)),
                    i64::from(o.regs_per_block),
                    i64::from(o.smem_per_block),
                ];
                let same = if launch.barriers > 1 {
                    // Ours names only the factors that set the final count (see `occupancy`).
                    f.len() == 4
                        && ours[0] == f[0]
                        && ours[2..] == f[2..]
                        && (ours[1] & !f[1]) == 0
                        && (ours[1] & 16 == f[1] & 16)
                } else {
                    f == ours
                };
                if !same {
                    n_miss += 1;
                    miss(format!("cc {} {launch:?}: oracle `{line}`, ours {ours:?}", l.cc));
                }
            }
        }
    }
    writer.join().unwrap();
    assert!(
        lines.next().is_none(),
        "the oracle printed more lines than asked for"
    );
    assert!(child.wait().unwrap().success());
    println!("occupancy oracle: {compared} launches compared, {n_miss} mismatches");
    assert!(compared > 5_000_000, "the sweep shrank: {compared}");
    assert!(
        n_miss == 0,
        "{n_miss} mismatches; first ones:\n{}",
        mismatches.join("\n")
    );
}
