//! calibration/bradiv: ptxas's convergence checks (`BRA.DIV`) before warp collectives whose member
//! masks are tile masks computed at run time (16, 8, 4, 2 and 1 lanes), loaded from memory,
//! `__activemask()`, equal to the active lanes or not, converged and after divergence, and
//! cooperative groups' tiles and coalesced groups (57 launches), under `warpscope run` against what
//! an H200 counted (calibration/bradiv/h200/, `run.sh`): every warp's `__activemask()` and member
//! masks at the collectives are the H200's, and every launch's branch counters are labelled exact
//! and equal the H200's. The taken checks (the tiles' `@!P BRA.DIV UR` after `R2UR P, URZ, R`
//! with the warp's lanes split over several masks) add the check's slow path; the ones whose
//! guard holds in exactly the mask's lanes (one tile alone, `coalesced_threads()`) do not.

mod support;

#[test]
fn convergence_checks_are_taken_as_the_h200_takes_them() {
    let bin = support::built("calibration/bradiv").join("bradiv");
    let ran = support::run_exported("bradiv-run", bin.to_str().unwrap());
    let h200 = support::repo().join("calibration/bradiv/h200");
    // raw<11,0> and raw<11,1> shuffle by xor among the lanes of __activemask() after divergence:
    // a lane whose partner is not in the mask reads an undefined value, so only their masks count
    let line = |l: &str| -> String {
        if l.starts_with("raw<11,0>") || l.starts_with("raw<11,1>") {
            l.split(" result").next().unwrap_or(l).to_string()
        } else {
            l.to_string()
        }
    };
    let gpu = std::fs::read_to_string(h200.join("bradiv.stdout")).unwrap();
    let theirs: Vec<String> = gpu.lines().map(line).collect();
    assert_eq!(theirs.len(), 57 * 4 + 1);
    let printed = &ran.stdout;
    let mine: Vec<String> = printed.lines().take(theirs.len()).map(line).collect();
    assert_eq!(mine, theirs, "the H200's output");
    let ncu = support::read_ncu_csv(&h200.join("bradiv.branch.csv"));
    let launches = ran.export["launches"].as_array().unwrap();
    assert_eq!((launches.len(), ncu.len()), (57, 57));
    let (flag, keys) = support::GROUPS[0];
    for l in launches {
        let id = l["id"].as_u64().unwrap();
        let kernel = l["kernel"].as_str().unwrap();
        let (name, hw) = &ncu[&id];
        assert_eq!(kernel, name, "launch {id}");
        let m = &l["metrics"];
        assert_eq!(
            m[flag], 1.0,
            "launch {id} ({kernel}): branch counters labelled exact"
        );
        for k in keys {
            assert_eq!(m[*k].as_f64().unwrap(), hw[*k], "launch {id} ({kernel}): {k}");
        }
    }
}
