//! calibration/run/bench18w's programs (written for this project): loops that re-read global
//! memory next to a global atomic, where whether they wait on other threads depends on the
//! launch's arguments. A SHA-256-style nonce search re-reads its job's bound and header after an
//! `atomicMin` on a result word; a CSR transpose re-reads `rowptr[r + 1]` after an `atomicAdd` on
//! column counts (and on per-column cursors, whose results place the scatter's stores). Built
//! with the wheels' nvcc (`build.sh`), run under `warpscope run` and checked against what an H200
//! printed and counted (calibration/run/bench18w/h200/, measured by `ncu.sh` on these binaries):
//! each program prints what the GPU printed, every counter labelled exact equals the H200's, and
//! the labels are these: a launch whose loads and atomics go through pointers into different
//! allocations is exact; one whose pointers share an allocation, or whose loop reads the atomic's
//! own word, stays labelled a waiting loop. A `__device__` variable is an allocation of its own
//! (noncevar: the job or the result word in module-scope variables).

mod support;

/// Runs `program` of the set against the H200 and returns each launch's
/// (kernel stem, [branch, shared, global] exact, labelled a waiting loop).
fn labels(program: &str) -> Vec<(String, [bool; 3], bool)> {
    let folder = "calibration/run/bench18w";
    let bin = support::built(folder).join(program);
    let (_, _, export) = support::check_against_h200_export(
        &format!("{folder}/h200"),
        program,
        &["--".as_ref(), bin.as_os_str()],
    );
    export["launches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let m = &l["metrics"];
            let flag = |k: &str| m.get(k).and_then(serde_json::Value::as_f64) == Some(1.0);
            (
                support::kernel_stem(l["kernel"].as_str().unwrap()).to_string(),
                support::GROUPS.map(|(k, _)| flag(k)),
                flag("warpscope__spin_loop"),
            )
        })
        .collect()
}

#[test]
fn a_nonce_search_is_exact_where_its_result_word_has_its_own_allocation() {
    let got = labels("nonce");
    let want = [
        // the result word in its own allocation: the loop waits on no one
        ("search", [true, true, true], false),
        // the result word inside the job's allocation: the re-read bound may be what it writes
        ("search", [false, true, false], true),
        // the loop reads the result word itself: it stops when another thread found a lower nonce
        ("searchStop", [false, true, false], true),
    ];
    let want: Vec<_> = want.iter().map(|&(k, g, s)| (k.to_string(), g, s)).collect();
    assert_eq!(got, want);
}

#[test]
fn a_csr_transpose_is_exact_where_row_offsets_and_counts_are_apart() {
    let got = labels("csrt");
    let want = [
        ("countCols", [true, true, true], false),
        ("scanCounts", [true, true, true], false),
        // the stores' slots come from the cursors' atomics: the global counters stay estimates
        ("scatter", [true, true, false], false),
        // the row offsets and the counts in one allocation
        ("countCols", [false, true, false], true),
    ];
    let want: Vec<_> = want.iter().map(|&(k, g, s)| (k.to_string(), g, s)).collect();
    assert_eq!(got, want);
}

#[test]
fn device_variables_are_allocations_of_their_own() {
    // noncevar.cu: the nonce search with its job or its result word in `__device__` variables
    let got = labels("noncevar");
    let want = [
        // the result word a variable, the job through a parameter's allocation
        ("searchVar", [true, true, true], false),
        // the job a variable (`ld.global [devJob+64]`), the result word an allocation
        ("searchVarJob", [true, true, true], false),
        // two different variables
        ("searchVarBoth", [true, true, true], false),
        // the result word inside the job variable at an offset the compiler sees apart: it
        // loads the job once, before the loop (no waiting loop in the PTX)
        ("searchVarSame", [true, true, true], false),
        // the job and the result word in one word array, the result at a slot the launch gives:
        // the loop re-reads the count after each atomic, which may have written it
        ("searchVarSlot", [false, true, false], true),
    ];
    let want: Vec<_> = want.iter().map(|&(k, g, s)| (k.to_string(), g, s)).collect();
    assert_eq!(got, want);
}
