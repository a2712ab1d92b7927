//! Nsight Compute (`ncu --csv`) output: finding ncu and parsing its CSV.

use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// One metric of one profiled kernel launch.
#[derive(Clone, Debug, PartialEq)]
pub struct NcuRow {
    /// ncu's launch ID (0, 1, ... in launch order).
    pub id: u32,
    /// The kernel's name as ncu prints it.
    pub kernel: String,
    /// Metric name.
    pub metric: String,
    /// Unit ("", "%", ...).
    pub unit: String,
    /// The value (thousands separators removed); `None` when not numeric ("n/a").
    pub value: Option<f64>,
}

/// Splits one CSV line (double-quoted fields, `""` for a quote inside).
pub fn split_csv_line(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// Parses `ncu --csv` output (the lines before the header row, such as `==PROF==` messages and the
/// program's own output, are skipped). An error names the line and the reason.
pub fn parse_csv(text: &str) -> Result<Vec<NcuRow>> {
    let mut lines = text.lines().enumerate();
    let header = loop {
        match lines.next() {
            Some((_, l)) if l.starts_with("\"ID\"") => break split_csv_line(l),
            Some(_) => continue,
            None => return Err(Error::Ncu("no CSV header (\"ID\",...) in ncu output".into())),
        }
    };
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| Error::Ncu(format!("CSV header lacks the column \"{name}\"")))
    };
    let (c_id, c_kernel, c_metric, c_unit, c_value) = (
        col("ID")?,
        col("Kernel Name")?,
        col("Metric Name")?,
        col("Metric Unit")?,
        col("Metric Value")?,
    );
    let mut rows = Vec::new();
    for (i, l) in lines {
        if !l.starts_with('"') {
            continue;
        }
        let f = split_csv_line(l);
        if f.len() != header.len() {
            return Err(Error::Ncu(format!(
                "line {}: {} fields where the header has {}",
                i + 1,
                f.len(),
                header.len()
            )));
        }
        let id = f[c_id]
            .parse()
            .map_err(|_| Error::Ncu(format!("line {}: ID {:?} is not a number", i + 1, f[c_id])))?;
        let v = f[c_value].replace(',', "");
        rows.push(NcuRow {
            id,
            kernel: f[c_kernel].clone(),
            metric: f[c_metric].clone(),
            unit: f[c_unit].clone(),
            value: v.trim().parse().ok(),
        });
    }
    Ok(rows)
}

/// The value of `metric` for launch `id`.
pub fn metric(rows: &[NcuRow], id: u32, metric: &str) -> Option<f64> {
    rows.iter()
        .find(|r| r.id == id && r.metric == metric)
        .and_then(|r| r.value)
}

/// Number of distinct launches in the rows.
pub fn launch_count(rows: &[NcuRow]) -> usize {
    let mut ids: Vec<u32> = rows.iter().map(|r| r.id).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.len()
}

/// Finds ncu: the explicit path, then `PATH`, then the usual install places.
pub fn find_ncu(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return p.is_file().then(|| p.to_path_buf());
    }
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.push(PathBuf::from("/usr/local/cuda/bin"));
    if let Ok(rd) = std::fs::read_dir("/opt/nvidia/nsight-compute") {
        let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        v.sort();
        dirs.extend(v.into_iter().rev());
    }
    dirs.into_iter().map(|d| d.join("ncu")).find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"==PROF== Connected to process 4242 (/x/warpscope)
warpscope lab child output line
==PROF== Profiling "sqRowRow" - 0: 0%....50%....100% - 1 pass
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","4242","warpscope","127.0.0.1","sqRowRow","1","13","(32, 32, 1)","(1, 1, 1)","0","9.0","Command line profiler metrics","l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum","","32"
"0","4242","warpscope","127.0.0.1","sqRowRow","1","13","(32, 32, 1)","(1, 1, 1)","0","9.0","Command line profiler metrics","l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum","","32"
"1","4242","warpscope","127.0.0.1","sqColCol","1","13","(32, 32, 1)","(1, 1, 1)","0","9.0","Command line profiler metrics","l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum","","1,024"
"1","4242","warpscope","127.0.0.1","sqColCol","1","13","(32, 32, 1)","(1, 1, 1)","0","9.0","Command line profiler metrics","smsp__sass_average_branch_targets_threads_uniform.pct","%","n/a"
"#;

    #[test]
    fn parses_rows_skips_preamble_and_thousands_separators() {
        let rows = parse_csv(SAMPLE).unwrap();
        assert_eq!(rows.len(), 4);
        assert_eq!(launch_count(&rows), 2);
        assert_eq!(
            metric(&rows, 0, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
            Some(32.0)
        );
        assert_eq!(
            metric(&rows, 1, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
            Some(1024.0)
        );
        assert_eq!(rows[1].kernel, "sqRowRow");
        assert_eq!(rows[3].unit, "%");
        assert_eq!(rows[3].value, None);
    }

    #[test]
    fn quoted_commas_and_quotes() {
        assert_eq!(split_csv_line(r#""a,b","c""d",e"#), ["a,b", "c\"d", "e"]);
    }

    #[test]
    fn malformed_csv_names_the_line() {
        let bad = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n\"x\",\"k\",\"m\",\"\",\"1\"\n";
        let e = parse_csv(bad).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("ID"), "{e}");
        let short = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n\"0\",\"k\"\n";
        assert!(parse_csv(short).unwrap_err().to_string().contains("2 fields"));
        assert!(parse_csv("no csv at all").is_err());
    }
}
