//! What the dense and sparse wgmma counter tests share: one launch of each calibration kernel ncu
//! measured (calibration/<set>/h200/ncu_gmma.tsv), its gmma and shared counters predicted and
//! compared.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use warpscope_analysis::banks::{self, Side};
use warpscope_analysis::reconcile::Reconciliation;
use warpscope_emu::{Arg, Launch, Limits};

/// The extra HGMMA ptxas puts in each calibration kernel: (warp instructions, bytes).
const PTXAS_EXTRA: (u64, u64) = (4, 2048 + 256);

/// One calibration set: its folder under calibration/, its PTX, the prefix of its f16-accumulator
/// kernels (4 N-columns a register, else 2), the bytes of its second buffer, whether its kernels
/// take a metadata buffer (the sparse ones) and how many kernels ncu measured.
pub struct Calib {
    pub dir: &'static str,
    pub ptx: &'static str,
    pub f16_prefix: &'static str,
    pub second_buffer: usize,
    pub metadata: bool,
    pub kernels: usize,
}

/// Every measured kernel's gmma and shared counters, predicted on zeroed inputs with the rows'
/// descriptors, against the H200's.
pub fn check(c: &Calib) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration")
        .join(c.dir);
    let raw = std::fs::read(dir.join(c.ptx)).unwrap();
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&raw[..]).unwrap();
    let mut src = String::new();
    std::io::Read::read_to_string(&mut dec, &mut src).unwrap();
    let program = warpscope_ptx::compile(&src).unwrap();
    let rows_text = std::fs::read_to_string(dir.join("rows.tsv")).unwrap();
    let rows: HashMap<&str, Vec<&str>> = rows_text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0], f)
        })
        .collect();
    let ncu = std::fs::read_to_string(dir.join("h200/ncu_gmma.tsv")).unwrap();
    let mut lines = ncu.lines().filter(|l| !l.starts_with('#'));
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let h100 = warpscope_model::arch::Arch::parse("sm_90").unwrap();
    let mut wrong = Vec::new();
    let mut n = 0;
    for l in lines {
        let m: Vec<&str> = l.split('\t').collect();
        let v = |name: &str| m[col(name)].parse::<u64>().unwrap();
        let r = &rows[m[0]];
        assert_eq!(r[1], m[1], "row {} is kernel {}", m[0], m[1]);
        let n_regs = {
            let n: usize = r[1].split('_').nth(4).unwrap()[1..].parse().unwrap();
            if r[1].starts_with(c.f16_prefix) {
                n / 4
            } else {
                n / 2
            }
        };
        let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
        let mut args = vec![
            Arg::Buffer(vec![0; 65536]),
            Arg::Buffer(vec![0; c.second_buffer]),
            Arg::Buffer(vec![0; 4 * 128 * n_regs]),
        ];
        if c.metadata {
            // element pairs (0, 1) of every chunk (the counts do not depend on it)
            args.push(Arg::Buffer([0x44u8; 1024].to_vec()));
        }
        args.extend([
            Arg::Buffer(vec![0; 4 * (128 * n_regs + 1)]),
            Arg::U64(hex(r[4])),
            Arg::U64(hex(r[5])),
            Arg::I32(r[6].parse().unwrap()),
            Arg::I32(r[7].parse().unwrap()),
            Arg::I32(r[8].parse().unwrap()),
            Arg::I32(r[9].parse().unwrap()),
        ]);
        let mut launch = Launch::new([1, 1, 1], [128, 1, 1], args);
        launch.dyn_smem = 65536;
        let run = banks::run(
            &program,
            r[1],
            &launch,
            &Limits::default(),
            h100,
            Arc::new(Reconciliation::ptx_level()),
        )
        .unwrap();
        assert!(run.faults.is_empty(), "{:?}", run.faults);
        n += 1;
        let g = &run.report.gmma;
        let got = [
            g.instructions + PTXAS_EXTRA.0,
            g.bytes + PTXAS_EXTRA.1,
            g.wavefronts(),
            (g.bytes + PTXAS_EXTRA.1) / 128,
            // HGMMA's reads are in neither LDS instructions nor op_ld wavefronts
            run.report.total(Side::Load).instructions,
            run.report.total(Side::Load).wavefronts,
        ];
        let want = [
            v("smsp__sass_inst_executed_op_shared_gmma"),
            v("sm__sass_data_bytes_mem_shared_op_gmma"),
            v("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma"),
            v("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma"),
            v("smsp__sass_inst_executed_op_shared_ld"),
            v("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"),
        ];
        assert_eq!(v("smsp__inst_executed_pipe_tensor_op_gmma"), want[0]);
        assert_eq!(v("l1tex__lsuin_requests_op_gmma"), want[0]);
        assert_eq!(v("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma"), 0);
        if got != want {
            wrong.push(format!(
                "row {} {}: predicted {got:?}, measured {want:?}",
                m[0], m[1]
            ));
        }
    }
    assert_eq!(n, c.kernels);
    assert!(
        wrong.is_empty(),
        "{} of {n} kernels differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
