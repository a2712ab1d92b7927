//! calibration/recursion/rec.cu under `warpscope run` against what an H200 printed and counted
//! (calibration/recursion/h200/, `measure.sh`): recursive device functions run on their
//! out-of-line bodies and print the GPU's output; the machine code's calls are followed where the
//! warp's lanes recurse together (the convergence barriers ptxas saves with `BMOV` before a
//! recursive call agree in every lane): `uniformTree` and `uniformChain` have exact branch and
//! global counters equal to the H200's. Where lanes recurse to different depths (`laneFib`,
//! `laneTree`) they restore different barriers: not followed, so estimates (the H200 counted
//! 68,410 and 10,560 targets).

use std::process::Command;

mod support;

#[test]
fn recursion_prints_the_gpus_output_and_exact_counters_equal_the_h200s() {
    let dir = support::scratch("recursion");
    let lib = dir.path().join("lib");
    std::fs::create_dir_all(&lib).unwrap();
    let cu = support::cuda_root();
    std::os::unix::fs::symlink(
        std::path::Path::new(&cu).join("lib/libcudart.so.13"),
        lib.join("libcudart.so"),
    )
    .unwrap();
    let bin = dir.path().join("rec");
    let out = Command::new(std::path::Path::new(&cu).join("bin/nvcc"))
        .args(["-O2", "-arch=sm_90", "-lineinfo", "-cudart", "shared"])
        .arg(format!("-L{}", lib.display()))
        .arg("-o")
        .arg(&bin)
        .arg(support::repo().join("calibration/recursion/rec.cu"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let export = dir.path().join("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export"])
        .arg(&export)
        .arg("--")
        .arg(&bin)
        .env("WARPSCOPE_CUDA_ROOT", &cu)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let h200 = support::repo().join("calibration/recursion/h200");
    let gpu = std::fs::read_to_string(h200.join("rec.stdout")).unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.starts_with(&gpu), "{printed}");
    let ncu = support::read_ncu_csv(&h200.join("rec.ncu1.csv"));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let launches = v["launches"].as_array().unwrap();
    assert_eq!(launches.len(), 4);
    let groups = [&support::GROUPS[0], &support::GROUPS[2]];
    for l in launches {
        let m = &l["metrics"];
        let (name, hw) = &ncu[&l["id"].as_u64().unwrap()];
        let kernel = support::kernel_stem(l["kernel"].as_str().unwrap());
        assert_eq!(kernel, support::kernel_stem(name));
        assert_eq!(
            m["launch__registers_per_thread"].as_f64(),
            hw.get("launch__registers_per_thread").copied(),
            "{kernel}"
        );
        let uniform = kernel.starts_with("uniform");
        for (flag, keys) in groups {
            let exact = m[*flag] == 1.0;
            assert_eq!(exact, uniform, "{kernel}: {flag}");
            if exact {
                for k in *keys {
                    assert_eq!(m[*k].as_f64(), hw.get(*k).copied(), "{kernel}: {k}");
                }
            }
        }
    }
}
