//! Terminal behaviour of the table format, on a pseudo-terminal made by `script` (util-linux): tables
//! fit the terminal's width, colour is on by default and off with `--no-color` or `NO_COLOR`. (The
//! other formats tests run without a terminal: full-width tables, no colour.)
//!
//! Without `script` on PATH the tests print `SKIPPED` with a count and return.

use std::process::Command;

/// Runs `warpscope ARGS` on a 90-column pseudo-terminal; `None` when `script` is missing.
fn on_tty(args: &str, no_color_env: bool) -> Option<String> {
    if Command::new("script").arg("--version").output().is_err() {
        println!("SKIPPED (1): `script` (util-linux) not on PATH: no pseudo-terminal to test on");
        return None;
    }
    let bin = env!("CARGO_BIN_EXE_warpscope");
    let mut c = Command::new("script");
    c.args([
        "-qec",
        &format!("stty cols 90 rows 50; {bin} {args}"),
        "/dev/null",
    ]);
    c.env_remove("NO_COLOR");
    if no_color_env {
        c.env("NO_COLOR", "1");
    }
    let o = c.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    Some(String::from_utf8(o.stdout).unwrap().replace('\r', ""))
}

/// The text without ANSI escape sequences.
fn plain(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn widest_table_line(s: &str) -> usize {
    plain(s)
        .lines()
        .filter(|l| l.starts_with('|') || l.starts_with('+'))
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
}

#[test]
fn tour_fits_the_terminal_and_is_coloured() {
    let Some(out) = on_tty("tour", false) else { return };
    assert!(out.contains("\u{1b}["), "colour on a terminal");
    let w = widest_table_line(&out);
    assert!(w > 60 && w <= 90, "tables fit 90 columns, widest line {w}");
    // Off a terminal the same table is wider than 90 columns.
    let piped = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("tour")
        .output()
        .unwrap();
    assert!(widest_table_line(&String::from_utf8(piped.stdout).unwrap()) > 90);
}

#[test]
fn no_color_flag_and_env_turn_colour_off_on_a_terminal() {
    let Some(flag) = on_tty("tour --no-color", false) else {
        return;
    };
    assert!(!flag.contains('\u{1b}'), "--no-color");
    assert!(widest_table_line(&flag) <= 90, "still fits the terminal");
    let Some(env) = on_tty("tour", true) else { return };
    assert!(!env.contains('\u{1b}'), "NO_COLOR=1");
}
