//! `warpscope calibrate`'s judgement: the project's calibration batteries, measured on a GPU or read
//! back from a directory, against warpscope's model for the device's architecture.
//!
//! Batteries: the bank battery (`calibration/bank/`: one warp request per row; the `--quick` subset
//! is made of rows of the checked-in tables), occupancy against the driver
//! (`cuOccupancyMaxActiveBlocksPerMultiprocessor` for the lab's kernels vs the calculator), the
//! latency pointer chases (`calibration/latency/chase.cu`) and the ldmatrix / stmatrix / cp.async
//! battery ([`matrix`]). Tables are read and written in the calibration formats, with the device,
//! driver and ncu versions in their header.
//!
//! The verdicts: per rule (clause of the bank rule, occupancy, latency) `holds` or `breaks` with
//! the first breaking rows, and for each battery whether its rows equal the checked-in H100 tables.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;
use warpscope_gpu::calibrate::{BANK_METRICS, BankPattern, Latencies};
use warpscope_gpu::lab::ncu::NcuRow;
use warpscope_model::arch::Arch;
use warpscope_model::bank::{Config, Op, Request, wavefronts};
use warpscope_model::occupancy::{Launch, Limits, occupancy};

use crate::error::{Context, Error, Result, bail};

pub mod matrix;

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

/// One bank row: the pattern and what was measured.
#[derive(Clone, Debug, PartialEq)]
pub struct BankRow {
    /// The table it belongs to (`measured`, `measured_merge`).
    pub table: &'static str,
    /// The warp request.
    pub pattern: BankPattern,
    /// ld wavefronts, st wavefronts, ld instructions, st instructions.
    pub counts: [u64; 4],
}

/// Parses a bank table (`measured*.tsv` layout, or the `patterns*.tsv` one when `measured` is
/// false); errors name the file and line.
pub fn parse_bank(text: &str, file: &str, table: &'static str, measured: bool) -> Result<Vec<BankRow>> {
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
pub fn checked_in_bank(quick: bool) -> Result<Vec<BankRow>> {
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
pub struct Verdict {
    /// The battery (`bank`, `occupancy`, `latency`, `ldmatrix`...).
    pub battery: String,
    /// The rule, in words.
    pub rule: String,
    /// `holds`, `breaks`, or `not calibrated`.
    pub status: String,
    /// Rows judged.
    pub rows: usize,
    /// Rows that break the rule.
    pub breaking: usize,
    /// The first breaking rows (at most 5), as evidence.
    pub evidence: Vec<String>,
}

impl Verdict {
    /// A rule that holds until a row breaks it.
    pub fn new(battery: &str, rule: &str) -> Self {
        Verdict {
            battery: battery.into(),
            rule: rule.into(),
            status: "holds".into(),
            rows: 0,
            breaking: 0,
            evidence: Vec::new(),
        }
    }
    /// Counts one row; `what` describes it when it breaks the rule.
    pub fn add(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.rows += 1;
        if !ok {
            self.breaking += 1;
            self.status = "breaks".into();
            if self.evidence.len() < 5 {
                self.evidence.push(what());
            }
        }
    }
    /// The status as the table shows it: `holds (N rows)`, `breaks (N of M rows)`...
    pub fn shown_status(&self) -> String {
        match self.status.as_str() {
            "breaks" => format!("breaks ({} of {} rows)", self.breaking, self.rows),
            "holds" => format!("holds ({} rows)", self.rows),
            "no rule" => format!("no rule ({} rows)", self.rows),
            s => s.to_string(),
        }
    }
}

/// The bank rule's verdicts per clause, and the instruction count's.
pub fn bank_verdicts(arch: &'static Arch, rows: &[BankRow]) -> Result<Vec<Verdict>> {
    let mut by_clause: BTreeMap<&str, Verdict> = BTreeMap::new();
    let mut inst = Verdict::new("bank", INSTRUCTIONS);
    for r in rows {
        let p = &r.pattern;
        let op = if p.load { Op::Load } else { Op::Store };
        let req = Request::from_fn(p.width, op, |l| p.addrs[l as usize]);
        let model = wavefronts(arch, &Config::default(), &req)
            .map_err(|e| Error::Input(format!("{} row {}: {e:?}", r.table, p.id)))?
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
pub fn equal_to_checked_in(rows: &[BankRow]) -> Result<(usize, Vec<String>)> {
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

/// A bank table in the `measured*.tsv` layout.
pub fn bank_table_text(header: &str, rows: &[&BankRow]) -> String {
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

/// The patterns of `rows` in the `patterns*.tsv` layout (what a child run launches).
pub fn patterns_text(rows: &[BankRow]) -> String {
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
pub struct OccRow {
    /// The lab's kernel.
    pub kernel: String,
    /// Registers per thread.
    pub regs: u32,
    /// Static shared memory per block, bytes.
    pub static_smem: u32,
    /// Threads per block.
    pub block: u32,
    /// Dynamic shared memory per block, bytes.
    pub dyn_smem: u32,
    /// The driver's blocks per SM.
    pub driver: u32,
}

/// The occupancy calculator against the driver's answers for compute capability `cc`.
pub fn occ_verdict(cc: u32, rows: &[OccRow]) -> Verdict {
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

/// The checked-in H100 occupancy rows.
pub fn occ_checked_in() -> Result<Vec<OccRow>> {
    let v: serde_json::Value =
        serde_json::from_str(OCC_H100).context("calibration/lab/h100/occupancy.json")?;
    serde_json::from_value(v["data"]["configurations"].clone())
        .context("calibration/lab/h100/occupancy.json: data.configurations")
}

/// An occupancy table (`occupancy/driver.tsv`).
pub fn occ_text(header: &str, rows: &[OccRow]) -> String {
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

/// Parses an occupancy table; errors name the file and line.
pub fn parse_occ(text: &str, file: &str) -> Result<Vec<OccRow>> {
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
        let num = |k: usize| -> Result<u32> {
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
pub fn latency_verdict(cc: u32, measured: &[(String, f64)]) -> Verdict {
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

/// Parses a latency table (`test<TAB>cycles`); errors name the file and line.
pub fn parse_latency(text: &str, file: &str) -> Result<Vec<(String, f64)>> {
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
pub struct Report {
    /// The device, driver and ncu versions the tables were measured with.
    pub measured_on: String,
    /// The architecture preset judged.
    pub arch: String,
    /// Whether the bank battery is the `--quick` subset.
    pub quick: bool,
    /// Per rule of the model: measured / assumed / documented for this architecture.
    pub rules_basis: serde_json::Value,
    /// Per rule: holds, breaks, not calibrated.
    pub verdicts: Vec<Verdict>,
    /// Per battery: rows equal to the checked-in H100 tables, and the first that differ.
    pub checked_in: Vec<CheckedIn>,
    /// The latency chases' cycles per test.
    pub latency_cycles: BTreeMap<String, f64>,
    /// Seconds the run took (absent when judged from files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
}

#[derive(Serialize)]
/// Rows of one battery against the checked-in H100 table.
pub struct CheckedIn {
    /// The battery.
    pub battery: String,
    /// The checked-in table, with the rule's basis.
    pub table: String,
    /// Rows equal to the checked-in ones.
    pub equal: usize,
    /// Rows measured.
    pub rows: usize,
    /// The first rows that differ.
    pub differing: Vec<String>,
}

/// Tables of one calibration run.
pub struct Tables {
    /// The device, driver and ncu versions (the tables' `# measured on:` header).
    pub header: String,
    /// Compute capability, as 90 for 9.0.
    pub cc: u32,
    /// Whether the bank battery is the `--quick` subset.
    pub quick: bool,
    /// The bank battery.
    pub bank: Vec<BankRow>,
    /// The occupancy battery.
    pub occ: Vec<OccRow>,
    /// The latency chases: (test, cycles).
    pub latency: Vec<(String, f64)>,
    /// The matrix battery (empty when it did not run).
    pub matrix: Vec<matrix::MatrixRow>,
}

/// Reads the tables `--out` wrote into `dir` (the matrix tables when present).
pub fn read_tables(dir: &Path) -> Result<Tables> {
    let read = |rel: &str| -> Result<String> {
        let p = dir.join(rel);
        Ok(warpscope_driver::limits::read_source(&p)?)
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

/// Writes the tables and the report into `dir` in the calibration formats.
pub fn write_tables(dir: &Path, t: &Tables, report: &Report) -> Result<()> {
    let write = |rel: &str, text: &str| -> Result<()> {
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
    write(
        "calibrate.json",
        &(serde_json::to_string_pretty(report).map_err(|e| Error::Input(e.to_string()))? + "\n"),
    )?;
    Ok(())
}

/// Judges the tables: every rule's verdict and each battery against the checked-in tables; `seconds` is the run's duration, when it ran.
pub fn judge(t: &Tables, seconds: Option<f64>) -> Result<Report> {
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

/// The bank rows measured: `patterns` (in launch order) paired with ncu's launches, each launch's
/// kernel checked against its pattern's.
pub fn bank_rows_measured(patterns: Vec<BankRow>, ncu_rows: &[NcuRow]) -> Result<Vec<BankRow>> {
    let n = warpscope_gpu::lab::ncu::launch_count(ncu_rows);
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
            counts[k] = warpscope_gpu::lab::ncu::metric(ncu_rows, id, m)
                .with_context(|| format!("ncu launch {id}: no value for {m}"))?
                as u64;
        }
        bank.push(BankRow { counts, ..p });
    }
    Ok(bank)
}

/// The occupancy rows of the lab's `occupancy` experiment (its report's `data`).
pub fn occ_rows(data: &serde_json::Value) -> Result<Vec<OccRow>> {
    serde_json::from_value(data["configurations"].clone())
        .context("the occupancy experiment's configurations")
}

/// The latency chases' results as the table's (test, cycles) rows.
pub fn latency_rows(lat: &Latencies) -> Vec<(String, f64)> {
    vec![
        ("shared_cycles".to_string(), lat.shared),
        ("l1_hit_cycles".into(), lat.l1_hit),
        ("l2_hit_cycles".into(), lat.l2_hit),
        ("fma_cycles".into(), lat.fma),
        ("dram_random_cycles".into(), lat.dram),
    ]
}

impl Report {
    /// Whether a rule breaks (the run fails).
    pub fn breaks(&self) -> bool {
        self.verdicts.iter().any(|v| v.status == "breaks")
    }
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
