//! Replays every H100 measurement of calibration/bank/ against the bank model: exact equality, row
//! by row, loads and stores, all widths. The tables come from `calibration/bank/run.sh` (see its
//! README); nothing here is produced by the model.

use std::path::Path;

use warpscope_model::arch::Arch;
use warpscope_model::bank::{Config, Op, Request, breakdown, wavefronts};

struct Row {
    file: &'static str,
    line: usize,
    id: String,
    desc: String,
    req: Request,
    measured: u32,
    instructions: u32,
}

fn load(file: &'static str) -> Vec<Row> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/bank")
        .join(file);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: cannot read: {e}", path.display()));
    let mut rows = Vec::new();
    let mut header_seen = false;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') {
            continue;
        }
        if !header_seen {
            assert!(
                line.starts_with("id\twidth\top"),
                "{file}:{}: header expected",
                i + 1
            );
            header_seen = true;
            continue;
        }
        let c: Vec<&str> = line.split('\t').collect();
        assert_eq!(c.len(), 40, "{file}:{}: 40 fields expected", i + 1);
        let width: u8 = c[1].parse().unwrap();
        let op = match c[2] {
            "ld" => Op::Load,
            "st" => Op::Store,
            o => panic!("{file}:{}: op {o}", i + 1),
        };
        let (wf, inst) = if op == Op::Load {
            (c[4], c[6])
        } else {
            (c[5], c[7])
        };
        let lanes: Vec<Option<u32>> = c[8..40]
            .iter()
            .map(|a| if *a == "-" { None } else { Some(a.parse().unwrap()) })
            .collect();
        let req = Request::from_fn(width, op, |l| lanes[l as usize]);
        rows.push(Row {
            file,
            line: i + 1,
            id: c[0].to_string(),
            desc: c[3].to_string(),
            req,
            measured: wf.parse().unwrap(),
            instructions: inst.parse().unwrap(),
        });
    }
    rows
}

#[test]
fn every_h100_measurement_equals_the_model() {
    let h100 = Arch::parse("sm_90").unwrap();
    let mut rows = load("measured.tsv");
    rows.extend(load("measured_merge.tsv"));
    assert!(rows.len() >= 3700, "only {} rows", rows.len());
    let mut per_width = [[0usize; 2]; 17];
    let mut failures = Vec::new();
    for r in &rows {
        per_width[r.req.width as usize][(r.req.op == Op::Store) as usize] += 1;
        // one instruction per launch, or none when every lane was predicated off
        assert_eq!(
            r.instructions,
            u32::from(r.req.mask != 0),
            "{}:{}: instruction count",
            r.file,
            r.line
        );
        let c = wavefronts(h100, &Config::default(), &r.req).unwrap();
        let b = breakdown(h100, &Config::default(), &r.req).unwrap();
        assert_eq!(
            c, b.counts,
            "{}:{}: fast and reference paths differ",
            r.file, r.line
        );
        if c.wavefronts != r.measured {
            failures.push(format!(
                "{}:{} id {} {} ({}B {}): measured {}, model {}",
                r.file,
                r.line,
                r.id,
                r.desc,
                r.req.width,
                r.req.op.name(),
                r.measured,
                c.wavefronts
            ));
        }
    }
    for w in [1, 2, 4, 8, 16] {
        for (op, n) in per_width[w].iter().enumerate() {
            assert!(*n >= 200, "width {w} op {op}: only {n} rows");
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows differ:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn seed_ground_truth_per_request() {
    // /work/shared/groundtruth/seed_kernels_h100.tsv, per request: double by tid 2 wavefronts,
    // LDS.64 struct of two floats 2, char by tid 1, char by 4*tid 1; int tile[32][16] column 16.
    let h100 = Arch::parse("sm_90").unwrap();
    let cfg = Config::default();
    let wf = |w: u8, op: Op, f: &dyn Fn(u32) -> u32| {
        wavefronts(h100, &cfg, &Request::from_fn(w, op, |l| Some(f(l))))
            .unwrap()
            .wavefronts
    };
    for op in [Op::Load, Op::Store] {
        assert_eq!(wf(8, op, &|l| 8 * l), 2, "double by tid");
        assert_eq!(wf(1, op, &|l| l), 1, "char by tid");
        assert_eq!(wf(1, op, &|l| 4 * l), 1, "char by 4*tid");
        assert_eq!(wf(4, op, &|l| l * 33 * 4), 1, "col33");
        assert_eq!(wf(4, op, &|l| l * 32 * 4), 32, "col32");
    }
    // rectangular ColCol: int tile[32][16], threads (x 32, y 16) read tile[x][y]: stride 16 words
    assert_eq!(wf(4, Op::Load, &|l| l * 16 * 4), 16);
}
