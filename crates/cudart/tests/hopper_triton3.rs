//! The third set of Triton kernels of calibration/hopper/ (gen_triton3.py: persistent matmuls with a
//! TMA-store epilogue, flattened and warp-specialised, int8 with scales, batched strided bf16, 16-element
//! K steps, e5m2 output, attention backward, RMSNorm forward and backward, rotary embedding, argmax /
//! topk / tuple reductions, segmented and reversed scans, device descriptors on partial tiles, an
//! embedding gather), replayed as hopper_triton2.rs replays the second set: the same launch-table
//! format (calibration/hopper/triton3/launches.tsv), run on the GPU by
//! calibration/hopper/host/hopper_run2.cu. Outputs must equal the H200's byte for byte
//! (h200_triton3/run.txt) and every counter labelled exact must equal Nsight Compute's
//! (h200_triton3/ncu_*.csv); what differs is listed below with its reason.

mod common;

use common::run2::{self, K};
use common::{Expect, replay_against_h200};

const DIR: &str = "calibration/hopper/triton3";
const H200: &str = "calibration/hopper/h200_triton3";

fn kernels() -> Vec<K> {
    run2::kernels(DIR)
}

fn emulate(k: &K) -> Result<common::Emulated, String> {
    run2::emulate(DIR, k)
}

#[test]
#[ignore = "exploration: prints every counter against the H200's (HOPPER_ONLY=name: one kernel)"]
fn print_triton3_counters_against_the_h200() {
    run2::print_counters(DIR, H200);
}

/// Kernels whose outputs are not bit-exact yet, and why.
const OUTPUTS_DIFFER: &[(&str, &str)] = &[];

/// Counters labelled exact that differ from the H200's, and why.
const COUNTERS_DIFFER: &[(&str, &str, &str)] = &[];

#[test]
fn every_third_set_triton_kernel_replays_the_h200() {
    let x = Expect {
        dir: H200,
        outputs_differ: OUTPUTS_DIFFER,
        counters_differ: COUNTERS_DIFFER,
        min_compared: 136,
    };
    let ks = kernels();
    replay_against_h200(&x, ks.iter().map(|k| (k.name.clone(), emulate(k))));
}
