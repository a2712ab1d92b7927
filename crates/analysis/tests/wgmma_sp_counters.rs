//! What Nsight Compute counts of sparse `wgmma.mma_async.sp` reading shared memory
//! (`warpscope_analysis::banks::GmmaCounts`) against an H200 (calibration/wgmma-sp/h200/ncu_gmma.tsv:
//! one launch of each of the 47 sparse calibration kernels): per warpgroup instruction 64 N bytes
//! of B (K-major rows of 64 bytes) and 2048 of the compressed A when A comes from shared memory.
//! The counts do not depend on the data, so the launches run on zeroed inputs with the rows'
//! descriptors.
//!
//! ptxas adds one dense HGMMA per warp to every calibration kernel (as in calibration/wgmma:
//! `HGMMA.64x8x16.F16 RZ, gdesc[URZ], RZ, !UPT, gsb0`, the `wgmma.commit_group` after the K loop):
//! it is in `smsp__sass_inst_executed_op_shared_gmma` (4 warp instructions) and in
//! `sm__sass_data_bytes_mem_shared_op_gmma` / `sm__sass_..._op_gmma` (a 64x8x16 f16 product: 2048 +
//! 256 bytes, 18 wavefronts) but not in `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma`; the
//! program has no instruction for it, so the model leaves it out and the test adds it back.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use warpscope_analysis::banks::{self, Side};
use warpscope_analysis::reconcile::Reconciliation;
use warpscope_emu::{Arg, Launch, Limits};

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../calibration/wgmma-sp"))
}

/// The extra HGMMA ptxas puts in each calibration kernel: (warp instructions, bytes).
const PTXAS_EXTRA: (u64, u64) = (4, 2048 + 256);

#[test]
fn sparse_gmma_counters_match_the_gpu() {
    let raw = std::fs::read(dir().join("sp_calib.ptx.zst")).unwrap();
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&raw[..]).unwrap();
    let mut src = String::new();
    std::io::Read::read_to_string(&mut dec, &mut src).unwrap();
    let program = warpscope_ptx::compile(&src).unwrap();
    let rows_text = std::fs::read_to_string(dir().join("rows.tsv")).unwrap();
    let rows: HashMap<&str, Vec<&str>> = rows_text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0], f)
        })
        .collect();
    let ncu = std::fs::read_to_string(dir().join("h200/ncu_gmma.tsv")).unwrap();
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
            if r[1].starts_with("s_f16") { n / 4 } else { n / 2 }
        };
        let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
        let mut launch = Launch::new(
            [1, 1, 1],
            [128, 1, 1],
            vec![
                Arg::Buffer(vec![0; 65536]),
                Arg::Buffer(vec![0; 4096]),
                Arg::Buffer(vec![0; 4 * 128 * n_regs]),
                // metadata: element pairs (0, 1) of every chunk (the counts do not depend on it)
                Arg::Buffer([0x44u8; 1024].to_vec()),
                Arg::Buffer(vec![0; 4 * (128 * n_regs + 1)]),
                Arg::U64(hex(r[4])),
                Arg::U64(hex(r[5])),
                Arg::I32(r[6].parse().unwrap()),
                Arg::I32(r[7].parse().unwrap()),
                Arg::I32(r[8].parse().unwrap()),
                Arg::I32(r[9].parse().unwrap()),
            ],
        );
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
    assert_eq!(n, 47);
    assert!(
        wrong.is_empty(),
        "{} of {n} kernels differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
