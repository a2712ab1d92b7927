//! `warpscope calibrate [--quick]`: the project's calibration batteries on the present GPU, and
//! whether warpscope's model for its architecture holds.
//!
//! Batteries: the bank battery (`calibration/bank/`: one warp request per row, counted by Nsight
//! Compute in a child run of this program; `--quick` takes a representative subset, every row of
//! which is a row of the checked-in tables), occupancy against the driver
//! (`cuOccupancyMaxActiveBlocksPerMultiprocessor` for the lab's kernels vs the calculator), and the
//! latency pointer chases (`calibration/latency/chase.cu`). The measured tables are written with
//! `--out DIR` in the calibration formats, with the device, driver and ncu versions in their
//! header; `--from DIR` reads such a directory back and judges it again with no GPU.
//!
//! The verdicts: per rule (clause of the bank rule, occupancy, latency) `holds` or `breaks (N
//! rows)` with the first breaking rows, and for each battery whether its rows equal the
//! checked-in H100 tables.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use serde::Serialize;
use warpscope_gpu::calibrate::{BANK_METRICS, BankPattern};
use warpscope_model::arch::Arch;
use warpscope_model::bank::{Config, Op, Request, wavefronts};
use warpscope_model::occupancy::{Launch, Limits, occupancy};

use super::device::gpu_error;

#[path = "calibrate_matrix.rs"]
mod matrix;
use crate::output::{Block, Column, OutputArgs, Tabular, Tone, emit_blocks};

/// The checked-in bank tables (H100), in the format `--out` writes.
const BANK_MAIN: &str = include_str!("../../../../calibration/bank/measured.tsv");
const BANK_MERGE: &str = include_str!("../../../../calibration/bank/measured_merge.tsv");
/// The checked-in H100 occupancy comparison (the lab's `occupancy` experiment).
const OCC_H100: &str = include_str!("../../../../calibration/lab/h100/occupancy.json");

/// Families of the main bank table in the `--quick` subset (first row of each per width and op).
const QUICK_MAIN: &[&str] = &[
    "stride0_off",
    "stride1_off",
    "stride2_off",
    "stride3_off",
    "stride4_off",
    "stride8_off",
    "stride16_off",
    "stride17_off",
    "stride31_off",
    "stride32_off",
    "stride33_off",
    "wordstride",
    "broadcast",
    "group2_stride",
    "group4_stride",
    "group8_stride",
    "group16_stride",
    "mod8_stride",
    "mod16_stride",
    "mod16_upper_shift",
    "mirror",
    "two_addrs_same_bank",
    "two_addrs_halves",
    "same_word_bytes",
    "pair_lanes_k",
    "half_rows_k",
    "quarter_rows_k",
    "none_stride",
    "odd_stride",
    "lo16_stride",
    "lane0_stride",
    "randmask0_stride",
    "perm",
    "xor",
    "randwide",
];

/// Flags of `warpscope calibrate`.
#[derive(clap::Args)]
pub struct Args {
    /// A representative subset of the bank battery (every clause of the rule, every width and op;
    /// under two minutes on an H100) instead of all 3710 rows.
    #[arg(long)]
    quick: bool,
    /// Leave out the ldmatrix / stmatrix / cp.async battery.
    #[arg(long)]
    no_matrix: bool,
    /// Device ordinal.
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// Nsight Compute executable (default: found on PATH, /usr/local/cuda/bin, /opt/nvidia).
    #[arg(long, value_name = "PATH")]
    ncu: Option<PathBuf>,
    /// NVRTC library file or directory.
    #[arg(long, value_name = "PATH")]
    nvrtc: Option<PathBuf>,
    /// Write the measured tables here (bank/, occupancy/, latency/, calibrate.json).
    #[arg(long, value_name = "DIR", conflicts_with = "from")]
    out: Option<PathBuf>,
    /// Judge tables written earlier by `--out` (no GPU needed).
    #[arg(long, value_name = "DIR")]
    from: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
    /// Internal: launch the bank patterns of FILE (what runs under ncu).
    #[arg(long, hide = true, value_name = "FILE")]
    bank_child: Option<PathBuf>,
    /// Internal: launch the ldmatrix / stmatrix / cp.async patterns of FILE (what runs under ncu).
    #[arg(long, hide = true, value_name = "FILE")]
    matrix_child: Option<PathBuf>,
}

/// One bank row: the pattern and what was measured.
#[derive(Clone, Debug, PartialEq)]
struct BankRow {
    table: &'static str,
    pattern: BankPattern,
    /// ld wavefronts, st wavefronts, ld instructions, st instructions.
    counts: [u64; 4],
}

/// Parses a bank table (`measured*.tsv` layout, or the `patterns*.tsv` one when `measured` is
/// false); errors name the file and line.
fn parse_bank(text: &str, file: &str, table: &'static str, measured: bool) -> anyhow::Result<Vec<BankRow>> {
    let mut rows = Vec::new();
    let mut header = false;
    let first = if measured { 8 } else { 4 };
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let c: Vec<&str> = line.split('\t').collect();
        if !header {
            if c.first() != Some(&"id") || c.len() != first + 32 {
                bail!(
                    "{file}:{n}: header `id\\twidth\\top\\tdesc...` with {} columns expected",
                    first + 32
                );
            }
            header = true;
            continue;
        }
        if c.len() != first + 32 {
            bail!("{file}:{n}: {} fields, expected {}", c.len(), first + 32);
        }
        let width: u8 = c[1]
            .parse()
            .ok()
            .filter(|w| [1, 2, 4, 8, 16].contains(w))
            .with_context(|| format!("{file}:{n}: width `{}` (1, 2, 4, 8 or 16)", c[1]))?;
        let load = match c[2] {
            "ld" => true,
            "st" => false,
            o => bail!("{file}:{n}: op `{o}` (ld or st)"),
        };
        let mut counts = [0u64; 4];
        if measured {
            for (k, slot) in counts.iter_mut().enumerate() {
                *slot = c[4 + k].parse().with_context(|| {
                    format!("{file}:{n}: column {}: `{}` is not a count", 5 + k, c[4 + k])
                })?;
            }
        }
        let mut addrs = [None; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            let s = c[first + l];
            *a = if s == "-" {
                None
            } else {
                Some(
                    s.parse()
                        .with_context(|| format!("{file}:{n}: lane {l}: `{s}` is not an address or `-`"))?,
                )
            };
        }
        rows.push(BankRow {
            table,
            pattern: BankPattern {
                id: c[0].to_string(),
                width,
                load,
                desc: c[3].to_string(),
                addrs,
            },
            counts,
        });
    }
    if !header {
        bail!("{file}: no header line");
    }
    Ok(rows)
}

fn family(desc: &str) -> &str {
    desc.trim_end_matches(|c: char| c.is_ascii_digit())
}

/// The checked-in rows, all or the `--quick` subset.
fn checked_in_bank(quick: bool) -> anyhow::Result<Vec<BankRow>> {
    let main = parse_bank(BANK_MAIN, "calibration/bank/measured.tsv", "measured", true)?;
    let merge = parse_bank(
        BANK_MERGE,
        "calibration/bank/measured_merge.tsv",
        "measured_merge",
        true,
    )?;
    if !quick {
        return Ok(main.into_iter().chain(merge).collect());
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for r in main.into_iter().chain(merge) {
        let f = family(&r.pattern.desc).to_string();
        let wanted = r.table == "measured_merge" || QUICK_MAIN.contains(&f.as_str());
        if wanted && seen.insert((r.table, f, r.pattern.width, r.pattern.load)) {
            out.push(r);
        }
    }
    Ok(out)
}

/// The clause of the bank rule a row tests.
fn clause(p: &BankPattern) -> &'static str {
    match (p.width, p.load) {
        (1..=4, _) => {
            "1/2/4-byte accesses: the whole warp is one phase; wavefronts = most distinct words of one bank"
        }
        (_, false) => "8/16-byte stores: phases of 16/8 lanes in lane order, their costs add",
        (_, true) => {
            "8/16-byte loads: phases of 16/8 lanes, doubled when lane pairs (2k, 2k+1) or lanes L and L^2 share"
        }
    }
}

const INSTRUCTIONS: &str = "instructions: one per request, none when every lane is off";

/// The verdict of one rule.
#[derive(Clone, Debug, Serialize, PartialEq)]
struct Verdict {
    battery: String,
    rule: String,
    /// `holds`, `breaks`, or `not calibrated`.
    status: String,
    rows: usize,
    breaking: usize,
    /// The first breaking rows (at most 5), as evidence.
    evidence: Vec<String>,
}

impl Verdict {
    fn new(battery: &str, rule: &str) -> Self {
        Verdict {
            battery: battery.into(),
            rule: rule.into(),
            status: "holds".into(),
            rows: 0,
            breaking: 0,
            evidence: Vec::new(),
        }
    }
    fn add(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.rows += 1;
        if !ok {
            self.breaking += 1;
            self.status = "breaks".into();
            if self.evidence.len() < 5 {
                self.evidence.push(what());
            }
        }
    }
    fn shown_status(&self) -> String {
        match self.status.as_str() {
            "breaks" => format!("breaks ({} of {} rows)", self.breaking, self.rows),
            "holds" => format!("holds ({} rows)", self.rows),
            "no rule" => format!("no rule ({} rows)", self.rows),
            s => s.to_string(),
        }
    }
}

fn bank_verdicts(arch: &'static Arch, rows: &[BankRow]) -> anyhow::Result<Vec<Verdict>> {
    let mut by_clause: BTreeMap<&str, Verdict> = BTreeMap::new();
    let mut inst = Verdict::new("bank", INSTRUCTIONS);
    for r in rows {
        let p = &r.pattern;
        let op = if p.load { Op::Load } else { Op::Store };
        let req = Request::from_fn(p.width, op, |l| p.addrs[l as usize]);
        let model = wavefronts(arch, &Config::default(), &req)
            .map_err(|e| anyhow::anyhow!("{} row {}: {e:?}", r.table, p.id))?
            .wavefronts;
        let (wf, n) = if p.load {
            (r.counts[0], r.counts[2])
        } else {
            (r.counts[1], r.counts[3])
        };
        let c = clause(p);
        by_clause
            .entry(c)
            .or_insert_with(|| Verdict::new("bank", c))
            .add(u64::from(model) == wf, || {
                format!(
                    "{} id {} {} ({} B {}): measured {wf}, model {model}",
                    r.table,
                    p.id,
                    p.desc,
                    p.width,
                    if p.load { "ld" } else { "st" }
                )
            });
        let want = u64::from(req.mask != 0);
        inst.add(n == want, || {
            format!(
                "{} id {} {}: {n} instructions, expected {want}",
                r.table, p.id, p.desc
            )
        });
    }
    let mut v: Vec<Verdict> = by_clause.into_values().collect();
    v.push(inst);
    Ok(v)
}

/// Rows equal to the checked-in table (matched by table and id).
fn equal_to_checked_in(rows: &[BankRow]) -> anyhow::Result<(usize, Vec<String>)> {
    let all = checked_in_bank(false)?;
    let index: BTreeMap<(&str, &str), &BankRow> = all
        .iter()
        .map(|r| ((r.table, r.pattern.id.as_str()), r))
        .collect();
    let mut equal = 0;
    let mut differ = Vec::new();
    for r in rows {
        match index.get(&(r.table, r.pattern.id.as_str())) {
            Some(c) if c.pattern == r.pattern && c.counts == r.counts => equal += 1,
            Some(c) if c.pattern == r.pattern => differ.push(format!(
                "{} id {}: measured {:?}, checked in {:?}",
                r.table, r.pattern.id, r.counts, c.counts
            )),
            _ => differ.push(format!(
                "{} id {}: not the checked-in pattern",
                r.table, r.pattern.id
            )),
        }
    }
    Ok((equal, differ))
}

fn bank_table_text(header: &str, rows: &[&BankRow]) -> String {
    let mut s = format!(
        "# measured on: {header}\n# counters: {}; one launch, one warp, per row\n",
        BANK_METRICS.join(", ")
    );
    s.push_str("id\twidth\top\tdesc\tld_wavefronts\tst_wavefronts\tld_inst\tst_inst");
    for l in 0..32 {
        let _ = write!(s, "\ta{l}");
    }
    s.push('\n');
    for r in rows {
        let p = &r.pattern;
        let _ = write!(
            s,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            p.id,
            p.width,
            if p.load { "ld" } else { "st" },
            p.desc,
            r.counts[0],
            r.counts[1],
            r.counts[2],
            r.counts[3]
        );
        for a in &p.addrs {
            match a {
                Some(a) => {
                    let _ = write!(s, "\t{a}");
                }
                None => s.push_str("\t-"),
            }
        }
        s.push('\n');
    }
    s
}

fn patterns_text(rows: &[BankRow]) -> String {
    let mut s = String::from("id\twidth\top\tdesc");
    for l in 0..32 {
        let _ = write!(s, "\ta{l}");
    }
    s.push('\n');
    for r in rows {
        let p = &r.pattern;
        let _ = write!(
            s,
            "{}\t{}\t{}\t{}",
            p.id,
            p.width,
            if p.load { "ld" } else { "st" },
            p.desc
        );
        for a in &p.addrs {
            match a {
                Some(a) => {
                    let _ = write!(s, "\t{a}");
                }
                None => s.push_str("\t-"),
            }
        }
        s.push('\n');
    }
    s
}

/// One occupancy configuration measured against the driver.
#[derive(Clone, Debug, Serialize, PartialEq, serde::Deserialize)]
struct OccRow {
    kernel: String,
    regs: u32,
    static_smem: u32,
    block: u32,
    dyn_smem: u32,
    driver: u32,
}

fn occ_verdict(cc: u32, rows: &[OccRow]) -> Verdict {
    let mut v = Verdict::new(
        "occupancy",
        "blocks per SM: the calculator equals cuOccupancyMaxActiveBlocksPerMultiprocessor",
    );
    let Some(lim) = Limits::for_cc(cc) else {
        v.status = "not calibrated".into();
        v.evidence
            .push(format!("no occupancy preset for CC {}.{}", cc / 10, cc % 10));
        return v;
    };
    for r in rows {
        let ours = occupancy(
            &lim,
            &Launch {
                static_smem: r.static_smem,
                dyn_smem: r.dyn_smem,
                ..Launch::new(r.block, r.regs)
            },
        )
        .map(|o| o.blocks_per_sm)
        .ok();
        v.add(ours == Some(r.driver), || {
            format!(
                "{} block {} regs {} static {} B dyn {} B: driver {}, calculator {}",
                r.kernel,
                r.block,
                r.regs,
                r.static_smem,
                r.dyn_smem,
                r.driver,
                ours.map_or("invalid".into(), |o| o.to_string())
            )
        });
    }
    v
}

fn occ_checked_in() -> anyhow::Result<Vec<OccRow>> {
    let v: serde_json::Value =
        serde_json::from_str(OCC_H100).context("calibration/lab/h100/occupancy.json")?;
    serde_json::from_value(v["data"]["configurations"].clone())
        .context("calibration/lab/h100/occupancy.json: data.configurations")
}

fn occ_text(header: &str, rows: &[OccRow]) -> String {
    let mut s = format!(
        "# measured on: {header}\n# driver: cuOccupancyMaxActiveBlocksPerMultiprocessor for the lab's kernels (NVRTC CUBIN for the device)\nkernel\tregs\tstatic_smem\tblock\tdyn_smem\tdriver_blocks_per_sm\n"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{}\t{}\t{}\t{}\t{}\t{}",
            r.kernel, r.regs, r.static_smem, r.block, r.dyn_smem, r.driver
        );
    }
    s
}

fn parse_occ(text: &str, file: &str) -> anyhow::Result<Vec<OccRow>> {
    let mut rows = Vec::new();
    let mut header = false;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let c: Vec<&str> = line.split('\t').collect();
        if c.len() != 6 {
            bail!("{file}:{}: {} fields, expected 6", i + 1, c.len());
        }
        if !header {
            header = true;
            continue;
        }
        let num = |k: usize| -> anyhow::Result<u32> {
            c[k].parse()
                .with_context(|| format!("{file}:{}: column {}: `{}` is not a number", i + 1, k + 1, c[k]))
        };
        rows.push(OccRow {
            kernel: c[0].into(),
            regs: num(1)?,
            static_smem: num(2)?,
            block: num(3)?,
            dyn_smem: num(4)?,
            driver: num(5)?,
        });
    }
    Ok(rows)
}

/// Latency figures: (test, cycles).
fn latency_verdict(cc: u32, measured: &[(String, f64)]) -> Verdict {
    use warpscope_model::latency::h100_measured as h;
    let mut v = Verdict::new(
        "latency",
        "the H100 preset of `warpscope latency`: shared, L1, L2, FMA and DRAM latencies within 5 %",
    );
    if cc != 90 {
        v.status = "not calibrated".into();
        v.evidence.push(format!(
            "the latency preset is the H100's; CC {}.{} has none (measured values recorded)",
            cc / 10,
            cc % 10
        ));
        return v;
    }
    for (test, got) in measured {
        let want = match test.as_str() {
            "shared_cycles" => h::SHARED,
            "l1_hit_cycles" => h::L1,
            "l2_hit_cycles" => h::L2,
            "fma_cycles" => h::FMA,
            "dram_random_cycles" => h::DRAM,
            _ => continue,
        };
        v.add((got - want).abs() <= 0.05 * want, || {
            format!("{test}: measured {got:.1} cycles, preset {want}")
        });
    }
    v
}

fn parse_latency(text: &str, file: &str) -> anyhow::Result<Vec<(String, f64)>> {
    let mut v = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() || line.starts_with("test\t") {
            continue;
        }
        let (k, x) = line
            .split_once('\t')
            .with_context(|| format!("{file}:{}: `test<TAB>cycles` expected", i + 1))?;
        let x: f64 = x
            .trim()
            .parse()
            .with_context(|| format!("{file}:{}: `{x}` is not a number", i + 1))?;
        v.push((k.to_string(), x));
    }
    Ok(v)
}

/// The whole result (JSON).
#[derive(Serialize)]
struct Report {
    measured_on: String,
    arch: String,
    quick: bool,
    /// Per rule of the model: measured / assumed / documented for this architecture.
    rules_basis: serde_json::Value,
    verdicts: Vec<Verdict>,
    /// Per battery: rows equal to the checked-in H100 tables, and the first that differ.
    checked_in: Vec<CheckedIn>,
    latency_cycles: BTreeMap<String, f64>,
    /// Seconds the run took (absent when judged from files).
    #[serde(skip_serializing_if = "Option::is_none")]
    seconds: Option<f64>,
}

#[derive(Serialize)]
struct CheckedIn {
    battery: String,
    table: String,
    equal: usize,
    rows: usize,
    differing: Vec<String>,
}

/// Tables of one calibration run.
struct Tables {
    header: String,
    cc: u32,
    quick: bool,
    bank: Vec<BankRow>,
    occ: Vec<OccRow>,
    latency: Vec<(String, f64)>,
    /// The matrix battery (empty when it did not run).
    matrix: Vec<matrix::MatrixRow>,
}

fn read_tables(dir: &Path) -> anyhow::Result<Tables> {
    let read = |rel: &str| -> anyhow::Result<String> {
        let p = dir.join(rel);
        warpscope_driver::limits::read_source(&p).map_err(crate::launch::driver_error)
    };
    let main_path = format!("{}/bank/measured.tsv", dir.display());
    let merge_path = format!("{}/bank/measured_merge.tsv", dir.display());
    let main = read("bank/measured.tsv")?;
    let header = main
        .lines()
        .find_map(|l| l.strip_prefix("# measured on: "))
        .with_context(|| format!("{main_path}:1: `# measured on: DEVICE, CC X.Y, ...` header expected"))?
        .to_string();
    let cc = header
        .split(", ")
        .find_map(|p| p.strip_prefix("CC "))
        .and_then(|c| {
            let (a, b) = c.split_once('.')?;
            Some(a.parse::<u32>().ok()? * 10 + b.parse::<u32>().ok()?)
        })
        .with_context(|| format!("{main_path}:1: no `CC X.Y` in the header"))?;
    let mut bank = parse_bank(&main, &main_path, "measured", true)?;
    bank.extend(parse_bank(
        &read("bank/measured_merge.tsv")?,
        &merge_path,
        "measured_merge",
        true,
    )?);
    let occ = parse_occ(
        &read("occupancy/driver.tsv")?,
        &format!("{}/occupancy/driver.tsv", dir.display()),
    )?;
    let latency = parse_latency(
        &read("latency/results.tsv")?,
        &format!("{}/latency/results.tsv", dir.display()),
    )?;
    let mut mat = Vec::new();
    for (name, _) in matrix::TABLES {
        let rel = format!("ldsm/{name}.tsv");
        if dir.join(&rel).exists() {
            mat.extend(matrix::parse(
                &read(&rel)?,
                &format!("{}/{rel}", dir.display()),
                name,
                true,
            )?);
        }
    }
    let full = checked_in_bank(false)?.len();
    Ok(Tables {
        header,
        cc,
        quick: bank.len() < full,
        bank,
        occ,
        latency,
        matrix: mat,
    })
}

fn write_tables(dir: &Path, t: &Tables, report: &Report) -> anyhow::Result<()> {
    let write = |rel: &str, text: &str| -> anyhow::Result<()> {
        let p = dir.join(rel);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).with_context(|| format!("cannot create {}", d.display()))?;
        }
        std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))
    };
    let pick = |table: &str| -> Vec<&BankRow> { t.bank.iter().filter(|r| r.table == table).collect() };
    write(
        "bank/measured.tsv",
        &bank_table_text(&t.header, &pick("measured")),
    )?;
    write(
        "bank/measured_merge.tsv",
        &bank_table_text(&t.header, &pick("measured_merge")),
    )?;
    write("occupancy/driver.tsv", &occ_text(&t.header, &t.occ))?;
    let mut lat = format!(
        "# measured on: {}\n# one thread, dependent chain, cycles per step, median of 15 launches (calibration/latency/chase.cu)\ntest\tcycles\n",
        t.header
    );
    for (k, v) in &t.latency {
        let _ = writeln!(lat, "{k}\t{v:.2}");
    }
    write("latency/results.tsv", &lat)?;
    for (name, _) in matrix::TABLES {
        let rows: Vec<&matrix::MatrixRow> = t.matrix.iter().filter(|r| r.table == name).collect();
        if !rows.is_empty() {
            write(&format!("ldsm/{name}.tsv"), &matrix::table_text(&t.header, &rows))?;
        }
    }
    write("calibrate.json", &(serde_json::to_string_pretty(report)? + "\n"))?;
    Ok(())
}

fn judge(t: &Tables, seconds: Option<f64>) -> anyhow::Result<Report> {
    let arch = Arch::parse(&format!("sm_{}", t.cc)).with_context(|| format!("no preset for CC {}", t.cc))?;
    let mut verdicts = bank_verdicts(arch, &t.bank)?;
    verdicts.push(occ_verdict(t.cc, &t.occ));
    verdicts.push(latency_verdict(t.cc, &t.latency));
    verdicts.extend(matrix::verdicts(arch, &t.matrix));
    let (equal, differing) = equal_to_checked_in(&t.bank)?;
    let occ_in = occ_checked_in()?;
    let mut occ_equal = 0;
    let mut occ_diff = Vec::new();
    for r in &t.occ {
        if occ_in.contains(r) {
            occ_equal += 1;
        } else if occ_diff.len() < 5 {
            occ_diff.push(format!(
                "{} block {} dyn {}: driver {}",
                r.kernel, r.block, r.dyn_smem, r.driver
            ));
        }
    }
    let p = arch.provenance();
    let mut checked_in = vec![];
    if !t.matrix.is_empty() {
        let (equal, differing) = matrix::equal_to_checked_in(&t.matrix)?;
        checked_in.push(CheckedIn {
            battery: "ldmatrix / stmatrix / cp.async".into(),
            table: format!(
                "calibration/ldsm/ (matrix rules for {}: {})",
                arch.name,
                crate::basis::matrix_line(arch)
            ),
            equal,
            rows: t.matrix.len(),
            differing: differing.into_iter().take(5).collect(),
        });
    }
    Ok(Report {
        measured_on: t.header.clone(),
        arch: arch.name.into(),
        quick: t.quick,
        rules_basis: crate::basis::json(arch),
        verdicts,
        checked_in: vec![
            CheckedIn {
                battery: "bank".into(),
                table: format!(
                    "calibration/bank/ (bank rule for {}: {})",
                    arch.name,
                    p.bank.describe()
                ),
                equal,
                rows: t.bank.len(),
                differing: differing.into_iter().take(5).collect(),
            },
            CheckedIn {
                battery: "occupancy".into(),
                table: format!(
                    "calibration/lab/h100/occupancy.json (occupancy for {}: {})",
                    arch.name,
                    p.occupancy.describe()
                ),
                equal: occ_equal,
                rows: t.occ.len(),
                differing: occ_diff,
            },
        ]
        .into_iter()
        .chain(checked_in)
        .collect(),
        latency_cycles: t.latency.iter().cloned().collect(),
        seconds,
    })
}

fn blocks(r: &Report) -> Vec<Block> {
    let mut out = vec![Block::Heading(format!(
        "calibration{} on {} ({})",
        if r.quick { " (--quick)" } else { "" },
        r.measured_on,
        r.arch
    ))];
    let cols = ["battery", "rule", "verdict", "evidence (first breaking rows)"];
    let mut t = Tabular::new("", cols.map(|c| Column::new(c, c)).to_vec());
    let mut csv = Tabular::new(
        "",
        ["battery", "rule", "status", "rows", "breaking", "evidence"]
            .map(|c| Column::new(c, c))
            .to_vec(),
    );
    for v in &r.verdicts {
        let tone = match v.status.as_str() {
            "holds" => Tone::Good,
            "breaks" => Tone::Bad,
            _ => Tone::Warn,
        };
        t.toned_row(vec![
            (v.battery.clone(), Tone::Plain),
            (v.rule.clone(), Tone::Plain),
            (v.shown_status(), tone),
            (v.evidence.join("\n"), Tone::Plain),
        ]);
        csv.row([
            v.battery.clone(),
            v.rule.clone(),
            v.status.clone(),
            v.rows.to_string(),
            v.breaking.to_string(),
            v.evidence.join("; "),
        ]);
    }
    out.push(Block::ShownTable(t));
    out.push(Block::CsvTable(csv));
    let mut c = Tabular::new(
        "rows equal to the checked-in H100 tables",
        ["battery", "table", "equal", "rows"]
            .map(|c| Column::new(c, c))
            .to_vec(),
    );
    for x in &r.checked_in {
        c.row([
            x.battery.clone(),
            x.table.clone(),
            x.equal.to_string(),
            x.rows.to_string(),
        ]);
    }
    out.push(Block::Table(c));
    let mut notes: Vec<String> = r
        .checked_in
        .iter()
        .flat_map(|x| {
            x.differing
                .iter()
                .map(move |d| format!("{}: differs from the checked-in table: {d}", x.battery))
        })
        .collect();
    notes.push(format!(
        "latency (cycles): {}",
        r.latency_cycles
            .iter()
            .map(|(k, v)| format!("{k} {v:.1}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if let Ok(a) = Arch::parse(&r.arch) {
        notes.push(crate::basis::line(a));
        if a.provenance().bank.status() != "measured" && r.verdicts.iter().all(|v| v.status != "breaks") {
            notes.push(format!(
                "every rule holds: with these tables checked in under calibration/, {}'s bank rule can be marked measured (Arch::provenance in crates/model/src/arch.rs)",
                a.name
            ));
        }
    }
    if let Some(s) = r.seconds {
        notes.push(format!("took {s:.1} s"));
    }
    out.push(Block::Notes(notes));
    out
}

fn exit_for(r: &Report) -> ExitCode {
    if r.verdicts.iter().any(|v| v.status == "breaks") {
        ExitCode::from(crate::exit::FINDINGS)
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs `warpscope calibrate`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(file) = &args.bank_child {
        let text = warpscope_driver::limits::read_source(file).map_err(crate::launch::driver_error)?;
        let rows = parse_bank(&text, &file.display().to_string(), "measured", false)?;
        let patterns: Vec<BankPattern> = rows.into_iter().map(|r| r.pattern).collect();
        warpscope_gpu::calibrate::bank_launches(args.device, args.nvrtc.as_deref(), &patterns)
            .map_err(gpu_error)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(file) = &args.matrix_child {
        let text = warpscope_driver::limits::read_source(file).map_err(crate::launch::driver_error)?;
        let rows = matrix::parse(&text, &file.display().to_string(), "measured", false)?;
        let patterns: Vec<_> = rows.into_iter().map(|r| r.pattern).collect();
        warpscope_gpu::calibrate::matrix_launches(args.device, args.nvrtc.as_deref(), &patterns)
            .map_err(gpu_error)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(dir) = &args.from {
        let t = read_tables(dir)?;
        let r = judge(&t, None)?;
        emit_blocks(
            &mut std::io::stdout().lock(),
            args.output.format,
            args.output.color(),
            &r,
            &blocks(&r),
        )?;
        return Ok(exit_for(&r));
    }
    let start = std::time::Instant::now();
    warpscope_gpu::ensure_driver().map_err(gpu_error)?;
    let info = warpscope_gpu::device::query(args.device).map_err(gpu_error)?;
    let cc = info.cc_major * 10 + info.cc_minor;
    let ncu = warpscope_gpu::measure::find_ncu(args.ncu.as_deref()).ok_or_else(|| {
        anyhow::Error::new(crate::exit::Unavailable(
            "calibrate needs Nsight Compute (ncu) for the bank battery: not found on PATH, /usr/local/cuda/bin or /opt/nvidia (pass --ncu PATH)".into(),
        ))
    })?;
    let versions = warpscope_gpu::measure::versions(args.device, Some(&ncu)).map_err(gpu_error)?;
    // Bank battery under ncu, in a child run of this program.
    let patterns = checked_in_bank(args.quick)?;
    let tmp = std::env::temp_dir().join(format!("warpscope-calibrate-{}.tsv", std::process::id()));
    std::fs::write(&tmp, patterns_text(&patterns))
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    let exe = std::env::current_exe().context("the path of this program (to re-run under ncu)")?;
    let mut child = vec![
        "calibrate".to_string(),
        "--bank-child".into(),
        tmp.display().to_string(),
    ];
    child.extend(["--device".into(), args.device.to_string()]);
    if let Some(n) = &args.nvrtc {
        child.extend(["--nvrtc".into(), n.display().to_string()]);
    }
    let profiled = warpscope_gpu::measure::profile(&ncu, &exe, &child, &BANK_METRICS, Some("bank_"));
    let _ = std::fs::remove_file(&tmp);
    let (ncu_rows, _) = profiled.map_err(gpu_error)?;
    let n = warpscope_gpu::lab::ncu::launch_count(&ncu_rows);
    if n != patterns.len() {
        bail!("ncu counted {n} launches for {} bank patterns", patterns.len());
    }
    let mut ids: Vec<u32> = ncu_rows.iter().map(|r| r.id).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut bank = Vec::with_capacity(patterns.len());
    for (p, id) in patterns.into_iter().zip(ids) {
        let kernel = ncu_rows
            .iter()
            .find(|r| r.id == id)
            .map(|r| r.kernel.clone())
            .unwrap_or_default();
        if !kernel.contains(&p.pattern.kernel()) {
            bail!(
                "ncu launch {id} is `{kernel}`, expected {} for row {}",
                p.pattern.kernel(),
                p.pattern.id
            );
        }
        let mut counts = [0u64; 4];
        for (k, m) in BANK_METRICS.iter().enumerate() {
            counts[k] = warpscope_gpu::lab::ncu::metric(&ncu_rows, id, m)
                .with_context(|| format!("ncu launch {id}: no value for {m}"))?
                as u64;
        }
        bank.push(BankRow { counts, ..p });
    }
    // Matrix battery (ldmatrix / stmatrix / cp.async) under ncu, in a child run of this program. The
    // harness has stmatrix, which needs CC 9.0.
    let mut mat = Vec::new();
    if cc >= 90 && !args.no_matrix {
        let patterns = matrix::checked_in(args.quick)?;
        let tmp = std::env::temp_dir().join(format!("warpscope-calibrate-m{}.tsv", std::process::id()));
        std::fs::write(&tmp, matrix::patterns_text(&patterns))
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        let mut child = vec![
            "calibrate".to_string(),
            "--matrix-child".into(),
            tmp.display().to_string(),
        ];
        child.extend(["--device".into(), args.device.to_string()]);
        if let Some(n) = &args.nvrtc {
            child.extend(["--nvrtc".into(), n.display().to_string()]);
        }
        let metrics: Vec<&str> = warpscope_gpu::calibrate::MATRIX_METRICS
            .iter()
            .map(|(_, m)| *m)
            .collect();
        let profiled =
            warpscope_gpu::measure::profile(&ncu, &exe, &child, &metrics, Some("(ldsm|stsm|ldgsts)_"));
        let _ = std::fs::remove_file(&tmp);
        let (ncu_rows, _) = profiled.map_err(gpu_error)?;
        let n = warpscope_gpu::lab::ncu::launch_count(&ncu_rows);
        if n != patterns.len() {
            bail!("ncu counted {n} launches for {} matrix patterns", patterns.len());
        }
        let mut ids: Vec<u32> = ncu_rows.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        ids.dedup();
        for (p, id) in patterns.into_iter().zip(ids) {
            let kernel = ncu_rows
                .iter()
                .find(|r| r.id == id)
                .map(|r| r.kernel.clone())
                .unwrap_or_default();
            let name = p.pattern.kernel();
            let plain = kernel.split('(').next().unwrap_or("").trim();
            if plain != name && !kernel.contains(&format!("{}{name}", name.len())) {
                bail!(
                    "ncu launch {id} is `{kernel}`, expected {name} for row {}",
                    p.pattern.id
                );
            }
            let mut counts = [None; warpscope_gpu::calibrate::MATRIX_METRICS.len()];
            for (k, (_, m)) in warpscope_gpu::calibrate::MATRIX_METRICS.iter().enumerate() {
                counts[k] = Some(
                    warpscope_gpu::lab::ncu::metric(&ncu_rows, id, m)
                        .with_context(|| format!("ncu launch {id}: no value for {m}"))?
                        as u64,
                );
            }
            mat.push(matrix::MatrixRow { counts, ..p });
        }
    }
    // Occupancy against the driver: the lab's experiment (no ncu, no timing involved).
    let lab = warpscope_gpu::lab::Lab::open(warpscope_gpu::lab::LabConfig {
        device: args.device,
        nvrtc: args.nvrtc.clone(),
        ncu: None,
        no_ncu: true,
        self_exe: None,
        reps: 20,
        seed: 1,
    })
    .map_err(gpu_error)?;
    let occ_report = lab
        .run(
            "occupancy",
            &warpscope_gpu::lab::GroundTruth,
            &warpscope_gpu::lab::NoProgress,
        )
        .map_err(gpu_error)?;
    let occ: Vec<OccRow> = serde_json::from_value(occ_report.data["configurations"].clone())
        .context("the occupancy experiment's configurations")?;
    drop(lab);
    let lat = warpscope_gpu::calibrate::latency(args.device, args.nvrtc.as_deref()).map_err(gpu_error)?;
    let latency = vec![
        ("shared_cycles".to_string(), lat.shared),
        ("l1_hit_cycles".into(), lat.l1_hit),
        ("l2_hit_cycles".into(), lat.l2_hit),
        ("fma_cycles".into(), lat.fma),
        ("dram_random_cycles".into(), lat.dram),
    ];
    let t = Tables {
        header: versions.header(),
        cc,
        quick: args.quick,
        bank,
        occ,
        latency,
        matrix: mat,
    };
    let r = judge(&t, Some(start.elapsed().as_secs_f64()))?;
    if let Some(dir) = &args.out {
        write_tables(dir, &t, &r)?;
    }
    emit_blocks(
        &mut std::io::stdout().lock(),
        args.output.format,
        args.output.color(),
        &r,
        &blocks(&r),
    )?;
    Ok(exit_for(&r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_subset_is_made_of_checked_in_rows_and_covers_every_width_op_and_clause() {
        let quick = checked_in_bank(true).unwrap();
        let all = checked_in_bank(false).unwrap();
        assert_eq!(all.len(), 3710);
        assert!(quick.len() >= 250 && quick.len() <= 450, "{}", quick.len());
        for r in &quick {
            assert!(all.contains(r), "{} {}", r.table, r.pattern.id);
        }
        for w in [1, 2, 4, 8, 16] {
            for load in [true, false] {
                assert!(
                    quick
                        .iter()
                        .filter(|r| r.pattern.width == w && r.pattern.load == load)
                        .count()
                        >= 20
                );
            }
        }
        // The evidence the README cites for the wide-load merge: broadcasts, lane groups, the
        // xor-2 symmetry and pairs with one lane off, mod-8/16 and mirrors that do not merge.
        for f in [
            "broadcast",
            "group2_stride",
            "mod16_stride",
            "mirror",
            "t_xor2_sym",
            "t_pairs_one_off",
            "t_xor4_sym",
        ] {
            assert!(
                quick
                    .iter()
                    .any(|r| family(&r.pattern.desc) == f && r.pattern.width == 8 && r.pattern.load),
                "{f}"
            );
        }
    }

    #[test]
    fn tables_round_trip_and_verdicts_on_the_checked_in_rows() {
        let bank = checked_in_bank(true).unwrap();
        let text = bank_table_text(
            "H, CC 9.0, CUDA driver 13.0 | ncu",
            &bank.iter().filter(|r| r.table == "measured").collect::<Vec<_>>(),
        );
        let back = parse_bank(&text, "t", "measured", true).unwrap();
        assert_eq!(
            back,
            bank.iter()
                .filter(|r| r.table == "measured")
                .cloned()
                .collect::<Vec<_>>()
        );
        let arch = Arch::parse("sm_90").unwrap();
        let v = bank_verdicts(arch, &bank).unwrap();
        assert_eq!(v.len(), 4);
        assert!(v.iter().all(|v| v.status == "holds"), "{v:?}");
        // One wrong count breaks its clause, with the row as evidence.
        let mut bad = bank.clone();
        let i = bad
            .iter()
            .position(|r| r.pattern.width == 16 && r.pattern.load)
            .unwrap();
        bad[i].counts[0] += 1;
        let v = bank_verdicts(arch, &bad).unwrap();
        let broken: Vec<&Verdict> = v.iter().filter(|v| v.status == "breaks").collect();
        assert_eq!(broken.len(), 1);
        assert!(broken[0].rule.starts_with("8/16-byte loads"));
        assert_eq!(broken[0].breaking, 1);
        assert!(broken[0].evidence[0].contains(&format!("id {}", bad[i].pattern.id)));
        let (eq, diff) = equal_to_checked_in(&bad).unwrap();
        assert_eq!((eq, diff.len()), (bank.len() - 1, 1));
    }

    #[test]
    fn bad_table_lines_are_named() {
        let e = parse_bank("id\twidth\n", "f.tsv", "measured", true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("f.tsv:1"), "{e}");
        let mut t = bank_table_text("h", &[]);
        t.push_str("0\t3\tld\tx\t1\t0\t1\t0");
        t.push_str(&"\t0".repeat(32));
        let e = parse_bank(&t, "f.tsv", "measured", true).unwrap_err().to_string();
        assert!(e.contains("f.tsv:4") && e.contains("width"), "{e}");
        assert!(
            parse_latency("x\ty\n", "l.tsv")
                .unwrap_err()
                .to_string()
                .contains("l.tsv:1")
        );
        assert!(
            parse_occ("a\tb\n", "o.tsv")
                .unwrap_err()
                .to_string()
                .contains("o.tsv:1")
        );
    }

    #[test]
    fn occupancy_and_latency_verdicts() {
        let rows = occ_checked_in().unwrap();
        assert_eq!(rows.len(), 80);
        assert_eq!(occ_verdict(90, &rows).status, "holds");
        let mut bad = rows.clone();
        bad[3].driver += 1;
        let v = occ_verdict(90, &bad);
        assert_eq!((v.status.as_str(), v.breaking), ("breaks", 1));
        let lat = vec![
            ("shared_cycles".to_string(), 23.0),
            ("l2_hit_cycles".to_string(), 277.0),
        ];
        assert_eq!(latency_verdict(90, &lat).status, "holds");
        let slow = vec![("l2_hit_cycles".to_string(), 320.0)];
        assert_eq!(latency_verdict(90, &slow).status, "breaks");
        assert_eq!(latency_verdict(80, &lat).status, "not calibrated");
    }
}
