//! Output shared by every command: the `--format table|json|csv|markdown` choice, writers for each
//! format, the colour policy (colour only on a terminal, never with `--no-color` or `NO_COLOR`), and
//! progress bars on stderr that hide themselves when stderr is not a terminal.
//!
//! A command turns its result into one or more [`Tabular`]s for the table, CSV and Markdown formats
//! and serialises the result struct itself for JSON (the JSON schema *is* the result struct; see
//! docs/json-schema.md). CSV column names are Nsight Compute metric names where one exists.

use std::ffi::OsString;
use std::io::{IsTerminal, Write};

use comfy_table::{Cell, Color, ContentArrangement, Table};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

/// Output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Tables for people (width-aware, coloured on a terminal).
    #[default]
    Table,
    /// One JSON document: the result struct (docs/json-schema.md).
    Json,
    /// Comma-separated values, one header line; column names are ncu metric names where one exists.
    Csv,
    /// GitHub-flavoured Markdown tables.
    Markdown,
}

/// The flags every command takes for its output.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// No colour, even on a terminal (the `NO_COLOR` environment variable does the same).
    #[arg(long)]
    pub no_color: bool,
}

/// Whether to colour: never with `--no-color`, never when `NO_COLOR` is set to anything non-empty
/// (no-color.org), otherwise only when the output is a terminal.
pub fn use_color(no_color_flag: bool, no_color_env: Option<OsString>, is_terminal: bool) -> bool {
    !no_color_flag && no_color_env.is_none_or(|v| v.is_empty()) && is_terminal
}

impl OutputArgs {
    /// The colour decision for stdout in this process.
    pub fn color(&self) -> bool {
        use_color(
            self.no_color,
            std::env::var_os("NO_COLOR"),
            std::io::stdout().is_terminal(),
        )
    }
}

/// How a value reads: the table colours it on a terminal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tone {
    /// Plain.
    #[default]
    Plain,
    /// Good (green).
    Good,
    /// Worth a look (yellow).
    Warn,
    /// Bad (red).
    Bad,
}

/// One column: its title in tables and Markdown, its name in CSV.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// Title for people.
    pub title: String,
    /// CSV header (an ncu metric name where one exists, else snake_case).
    pub csv: String,
}

impl Column {
    /// A column titled `title`, called `csv` in CSV.
    pub fn new(title: impl Into<String>, csv: impl Into<String>) -> Column {
        Column {
            title: title.into(),
            csv: csv.into(),
        }
    }
}

/// A table of results, ready for the table, CSV and Markdown writers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tabular {
    /// Caption (printed above the table and as a Markdown heading; not in CSV).
    pub title: String,
    /// Columns.
    pub columns: Vec<Column>,
    /// Rows of (text, tone).
    pub rows: Vec<Vec<(String, Tone)>>,
    /// The widest the table may be in the table format, in columns (cells wrap); `None`: the
    /// terminal's width on a terminal, unbounded elsewhere.
    pub max_width: Option<u16>,
}

impl Tabular {
    /// An empty table with these columns.
    pub fn new(title: impl Into<String>, columns: Vec<Column>) -> Tabular {
        Tabular {
            title: title.into(),
            columns,
            rows: Vec::new(),
            max_width: None,
        }
    }

    /// Adds a row of plain cells.
    pub fn row<S: ToString>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows
            .push(cells.into_iter().map(|c| (c.to_string(), Tone::Plain)).collect());
    }

    /// Adds a row of cells with tones.
    pub fn toned_row(&mut self, cells: Vec<(String, Tone)>) {
        self.rows.push(cells);
    }
}

/// Quotes a CSV field when it needs it (RFC 4180).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Writes `t` as CSV: one header line of CSV names, then the rows.
pub fn write_csv(out: &mut dyn Write, t: &Tabular) -> std::io::Result<()> {
    let header: Vec<String> = t.columns.iter().map(|c| csv_field(&c.csv)).collect();
    writeln!(out, "{}", header.join(","))?;
    for r in &t.rows {
        let cells: Vec<String> = r.iter().map(|c| csv_field(&c.0)).collect();
        writeln!(out, "{}", cells.join(","))?;
    }
    Ok(())
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', "<br>")
}

/// Writes `t` as a Markdown table, under a `###` heading when it has a title.
pub fn write_markdown(out: &mut dyn Write, t: &Tabular) -> std::io::Result<()> {
    if !t.title.is_empty() {
        writeln!(out, "### {}\n", md_cell(&t.title))?;
    }
    let titles: Vec<String> = t.columns.iter().map(|c| md_cell(&c.title)).collect();
    writeln!(out, "| {} |", titles.join(" | "))?;
    writeln!(out, "|{}", "---|".repeat(t.columns.len()))?;
    for r in &t.rows {
        let cells: Vec<String> = r.iter().map(|c| md_cell(&c.0)).collect();
        writeln!(out, "| {} |", cells.join(" | "))?;
    }
    Ok(())
}

/// The comfy-table of `t`. On a terminal it fits the terminal's width (comfy-table's dynamic
/// arrangement); elsewhere (pipes, files, tests) every column keeps its full width, so the layout is
/// stable. Cells are coloured by their [`Tone`] only when `color`.
pub fn comfy(t: &Tabular, color: bool) -> Table {
    let mut table = Table::new();
    table.set_content_arrangement(ContentArrangement::Dynamic);
    if let Some(w) = t.max_width {
        table.set_width(w);
    }
    if color {
        table.enforce_styling();
    }
    table.set_header(t.columns.iter().map(|c| c.title.clone()));
    for r in &t.rows {
        table.add_row(r.iter().map(|(text, tone)| {
            let cell = Cell::new(text);
            match (color, tone) {
                (false, _) | (_, Tone::Plain) => cell,
                (true, Tone::Good) => cell.fg(Color::Green),
                (true, Tone::Warn) => cell.fg(Color::Yellow),
                (true, Tone::Bad) => cell.fg(Color::Red),
            }
        }));
    }
    table
}

/// Writes `t` as a table for people, under its title.
pub fn write_table(out: &mut dyn Write, t: &Tabular, color: bool) -> std::io::Result<()> {
    if !t.title.is_empty() {
        writeln!(out, "{}", t.title)?;
    }
    writeln!(out, "{}", comfy(t, color))
}

/// Writes a result in `format`: `value` serialised for JSON, else `tables` one after another
/// (CSV: tables separated by a blank line, each with its own header).
pub fn emit<T: Serialize>(
    out: &mut dyn Write,
    format: Format,
    color: bool,
    value: &T,
    tables: &[Tabular],
) -> anyhow::Result<()> {
    let blocks: Vec<Block> = tables.iter().cloned().map(Block::Table).collect();
    emit_blocks(out, format, color, value, &blocks)
}

/// One piece of a command's output for people.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A section heading: `== text` after a blank line in the table format, `## text` in Markdown;
    /// not in CSV.
    Heading(String),
    /// Prose, printed as is in the table format and as a paragraph in Markdown; not in CSV.
    Text(String),
    /// Code (a CUDA function, a source listing): as is in the table format, fenced in Markdown;
    /// not in CSV.
    Code(String),
    /// Notes: `note: ...` lines in the table format, a bullet list in Markdown; not in CSV.
    Notes(Vec<String>),
    /// A table (in every format but JSON).
    Table(Tabular),
    /// A table for people only (the table and Markdown formats), beside a [`Block::CsvTable`] of
    /// the same rows with machine-friendly columns.
    ShownTable(Tabular),
    /// A table for CSV only, where the other formats say the same in prose (for example an empty
    /// list of findings: CSV still gets its header line).
    CsvTable(Tabular),
}

/// The width output for people is fitted to when it can be ([`emit_blocks_fitted`]): `COLUMNS` when
/// set to a number (as `ls` reads it), else the terminal's width when stdout is one, else
/// [`DEFAULT_WIDTH`].
pub fn fit_width() -> u16 {
    let columns = std::env::var("COLUMNS").ok();
    width_from(columns.as_deref(), terminal_width())
}

/// The width when it is known (`COLUMNS`, or stdout is a terminal): what commands whose piped
/// output keeps its full width fit to.
pub fn known_width() -> Option<u16> {
    let columns = std::env::var("COLUMNS").ok();
    let terminal = terminal_width();
    (columns
        .as_deref()
        .is_some_and(|c| c.trim().parse::<u16>().is_ok_and(|w| w > 0))
        || terminal.is_some())
    .then(|| width_from(columns.as_deref(), terminal))
}

fn terminal_width() -> Option<u16> {
    std::io::stdout()
        .is_terminal()
        .then(|| terminal_size::terminal_size().map(|(w, _)| w.0))
        .flatten()
}

/// Each line of `text` wrapped at `width` (continuations indented by two spaces).
pub fn wrap_lines(text: &str, width: usize) -> String {
    text.lines()
        .flat_map(|l| {
            if l.chars().count() <= width {
                vec![l.to_string()]
            } else {
                let indent: String = l.chars().take_while(|c| *c == ' ').collect();
                wrap(l, width, &indent, &format!("{indent}  "))
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The width when stdout is not a terminal and `COLUMNS` is not set.
pub const DEFAULT_WIDTH: u16 = 120;

/// The narrowest width fitted to: below it the text would be mostly wrapping.
pub const MIN_WIDTH: u16 = 40;

/// [`fit_width`] from `COLUMNS` and the terminal's width.
pub fn width_from(columns: Option<&str>, terminal: Option<u16>) -> u16 {
    columns
        .and_then(|c| c.trim().parse::<u16>().ok())
        .filter(|w| *w > 0)
        .or(terminal.filter(|w| *w > 0))
        .unwrap_or(DEFAULT_WIDTH)
        .max(MIN_WIDTH)
}

/// `text` wrapped at spaces into lines of at most `width` characters, the first starting with
/// `first`, the others with `rest`; a word longer than a line is cut.
pub fn wrap(text: &str, width: usize, first: &str, rest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let len = |s: &str| s.chars().count();
        if !empty && len(&line) + 1 + len(word) > width {
            lines.push(std::mem::replace(&mut line, rest.to_string()));
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        let mut word = word;
        // a word wider than a whole line: as much as fits, then the rest on the next lines
        while len(&line) + len(word) > width && len(&line) < width {
            let room = width - len(&line);
            let cut = word.char_indices().nth(room).map_or(word.len(), |(i, _)| i);
            line.push_str(&word[..cut]);
            lines.push(std::mem::replace(&mut line, rest.to_string()));
            word = &word[cut..];
        }
        line.push_str(word);
        empty = false;
    }
    if !empty || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The width of `t` as the table format prints it with nothing wrapped: its widest line.
pub fn natural_width(t: &Tabular) -> usize {
    let widest = |s: &str| s.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    let cols = t.columns.iter().enumerate().map(|(i, c)| {
        t.rows
            .iter()
            .filter_map(|r| r.get(i))
            .map(|(text, _)| widest(text))
            .chain([widest(&c.title)])
            .max()
            .unwrap_or(0)
    });
    1 + cols.map(|w| w + 3).sum::<usize>()
}

/// [`emit_blocks`], with the table format fitted to `width` when given: headings, prose and notes
/// wrapped, tables at most that wide (their cells wrapped). Code is printed as it is.
pub fn emit_blocks_fitted<T: Serialize>(
    out: &mut dyn Write,
    format: Format,
    color: bool,
    value: &T,
    blocks: &[Block],
    width: Option<u16>,
) -> anyhow::Result<()> {
    let (Format::Table, Some(w)) = (format, width) else {
        return emit_blocks(out, format, color, value, blocks);
    };
    let n = usize::from(w);
    let fitted: Vec<Block> = blocks
        .iter()
        .map(|b| match b {
            Block::Heading(h) => Block::Heading(wrap(h, n.saturating_sub(3), "", "   ").join("\n")),
            Block::Text(s) => Block::Text(wrap_lines(s, n)),
            Block::Notes(ns) if ns.is_empty() => Block::Notes(Vec::new()),
            Block::Notes(ns) => Block::Text(
                ns.iter()
                    .flat_map(|note| wrap(note, n, "note: ", "      "))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            Block::Table(t) | Block::ShownTable(t) => {
                let mut t = t.clone();
                t.max_width = Some(t.max_width.map_or(w, |m| m.min(w)));
                t.title = wrap_lines(&t.title, n);
                Block::Table(t)
            }
            other => other.clone(),
        })
        .collect();
    emit_blocks(out, format, color, value, &fitted)
}

/// Writes a result in `format`: `value` serialised for JSON; otherwise the blocks in order (CSV
/// keeps only the tables, separated by a blank line, each with its own header line).
pub fn emit_blocks<T: Serialize>(
    out: &mut dyn Write,
    format: Format,
    color: bool,
    value: &T,
    blocks: &[Block],
) -> anyhow::Result<()> {
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, value)?;
            writeln!(out)?;
        }
        Format::Csv => {
            let tables = blocks.iter().filter_map(|b| match b {
                Block::Table(t) | Block::CsvTable(t) => Some(t),
                _ => None,
            });
            for (i, t) in tables.enumerate() {
                if i > 0 {
                    writeln!(out)?;
                }
                write_csv(out, t)?;
            }
        }
        Format::Markdown => {
            let shown = blocks.iter().filter(|b| match b {
                Block::CsvTable(_) => false,
                Block::Notes(ns) => !ns.is_empty(),
                Block::Text(s) => !s.trim().is_empty(),
                _ => true,
            });
            for (i, b) in shown.enumerate() {
                if i > 0 {
                    writeln!(out)?;
                }
                match b {
                    Block::Heading(h) => writeln!(out, "## {}", md_cell(h))?,
                    Block::Text(s) => writeln!(out, "{}", s.trim_end())?,
                    Block::Code(s) => writeln!(out, "```\n{}\n```", s.trim_end())?,
                    Block::Notes(ns) => {
                        for n in ns {
                            writeln!(out, "- note: {}", n.replace('\n', " "))?;
                        }
                    }
                    Block::Table(t) | Block::ShownTable(t) => write_markdown(out, t)?,
                    Block::CsvTable(_) => {}
                }
            }
        }
        Format::Table => {
            for (i, b) in blocks.iter().enumerate() {
                match b {
                    Block::Heading(h) if i == 0 => writeln!(out, "== {h}")?,
                    Block::Heading(h) => writeln!(out, "\n== {h}")?,
                    Block::Text(s) | Block::Code(s) => writeln!(out, "{s}")?,
                    Block::Notes(ns) => {
                        for n in ns {
                            writeln!(out, "note: {n}")?;
                        }
                    }
                    Block::Table(t) | Block::ShownTable(t) => write_table(out, t, color)?,
                    Block::CsvTable(_) => {}
                }
            }
        }
    }
    Ok(())
}

/// A progress bar on stderr for `len` steps, hidden when stderr is not a terminal.
pub fn progress_bar(len: u64, prefix: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_prefix(prefix.to_string());
    bar
}

/// `text` with the current directory (and its `/`) taken off every path under it, so headings and
/// notes show paths as the user would type them from here.
pub fn relative(text: &str) -> String {
    match std::env::current_dir() {
        Ok(d) if d.parent().is_some() => text.replace(&format!("{}/", d.display()), ""),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Tabular {
        let mut t = Tabular::new(
            "per line",
            vec![
                Column::new("line", "line"),
                Column::new(
                    "wavefronts",
                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                ),
            ],
        );
        t.row(["k.cu:12", "1024"]);
        t.toned_row(vec![("a,\"b\"|c".into(), Tone::Bad), ("1".into(), Tone::Plain)]);
        t
    }

    #[test]
    fn width_policy() {
        assert_eq!(width_from(Some("80"), Some(200)), 80, "COLUMNS first");
        assert_eq!(width_from(None, Some(200)), 200);
        assert_eq!(width_from(Some("wide"), None), DEFAULT_WIDTH);
        assert_eq!(width_from(Some("0"), None), DEFAULT_WIDTH);
        assert_eq!(width_from(Some("10"), None), MIN_WIDTH);
    }

    #[test]
    fn wrapping() {
        assert_eq!(
            wrap("one two three four", 14, "note: ", "      "),
            ["note: one two", "      three", "      four"]
        );
        assert_eq!(wrap("", 10, "note: ", "  "), ["note: "]);
        // a long word is cut, never over the width
        let cut = wrap("x /a/very/long/path/without/spaces y", 12, "", "  ");
        assert!(cut.iter().all(|l| l.chars().count() <= 12), "{cut:?}");
        assert_eq!(
            cut.concat().replace(' ', ""),
            "x/a/very/long/path/without/spacesy"
        );
    }

    #[test]
    fn fitted_output_is_no_wider_than_asked() {
        let mut wide = Tabular::new(
            "wide",
            (0..12).map(|i| Column::new(format!("column {i}"), "c")).collect(),
        );
        wide.row((0..12).map(|i| format!("value {i}")));
        assert!(natural_width(&wide) > 80);
        let blocks = [
            Block::Heading("a heading that is rather long ".repeat(5)),
            Block::Table(wide),
            Block::Notes(vec!["a note that goes on and on ".repeat(6)]),
        ];
        let mut out = Vec::new();
        emit_blocks_fitted(&mut out, Format::Table, false, &(), &blocks, Some(80)).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        assert!(text.contains("note: a note that"), "{text}");
        // every column kept, its cells wrapped
        let row = text.lines().find(|l| l.starts_with("| valu")).unwrap();
        assert_eq!(row.matches('|').count(), 13, "{text}");
    }

    #[test]
    fn color_policy() {
        assert!(use_color(false, None, true));
        assert!(!use_color(false, None, false), "not a terminal");
        assert!(!use_color(true, None, true), "--no-color");
        assert!(!use_color(false, Some("1".into()), true), "NO_COLOR=1");
        assert!(use_color(false, Some("".into()), true), "empty NO_COLOR is unset");
    }

    #[test]
    fn csv_quotes_and_uses_metric_names() {
        let mut out = Vec::new();
        write_csv(&mut out, &sample()).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "line,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\nk.cu:12,1024\n\"a,\"\"b\"\"|c\",1\n"
        );
    }

    #[test]
    fn markdown_escapes_pipes() {
        let mut out = Vec::new();
        write_markdown(&mut out, &sample()).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "### per line\n\n| line | wavefronts |\n|---|---|\n| k.cu:12 | 1024 |\n| a,\"b\"\\|c | 1 |\n"
        );
    }

    #[test]
    fn blocks_in_each_format() {
        let blocks = [
            Block::Text("intro".into()),
            Block::Code("int f();".into()),
            Block::Table(sample()),
            Block::Notes(vec!["n1".into()]),
            Block::Table(Tabular::new("", vec![Column::new("a", "a_csv")])),
        ];
        let render = |f: Format| {
            let mut out = Vec::new();
            emit_blocks(&mut out, f, false, &serde_json::json!({"k": 1}), &blocks).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(
            render(Format::Csv),
            "line,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\nk.cu:12,1024\n\"a,\"\"b\"\"|c\",1\n\na_csv\n"
        );
        let md = render(Format::Markdown);
        assert!(
            md.starts_with("intro\n\n```\nint f();\n```\n\n### per line\n"),
            "{md}"
        );
        assert!(md.contains("\n- note: n1\n\n| a |\n|---|\n"), "{md}");
        let table = render(Format::Table);
        assert!(table.starts_with("intro\nint f();\nper line\n"), "{table}");
        assert!(table.contains("note: n1\n"), "{table}");
        assert_eq!(render(Format::Json), "{\n  \"k\": 1\n}\n");
    }

    #[test]
    fn table_is_plain_without_color_and_red_with() {
        let plain = comfy(&sample(), false).to_string();
        assert!(!plain.contains('\u{1b}'), "{plain}");
        assert!(plain.contains("k.cu:12"));
        let coloured = comfy(&sample(), true).to_string();
        assert!(coloured.contains("\u{1b}["), "{coloured}");
    }
}
