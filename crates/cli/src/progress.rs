//! The progress bar of `warpscope run`: a thread that reads the progress page the runtime in the
//! program's process writes (`warpscope_cudart::progress`) and, when `stderr` is a terminal, draws
//! a bar (blocks done of the grid, rate, time left) for every launch that has run for a second.
//! The runtime prints the one line a long launch leaves on `stderr` as it ends; this side only draws
//! and takes away the bar, and tells the runtime the bar is gone (the runtime waits for that before
//! the program goes on, so the program's output never lands on the bar's line).

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use warpscope_cudart::progress::{ENDED, LONG_LAUNCH_S, Mapped, RUNNING, Snapshot, now_ns};

/// How often the page is read.
const POLL: Duration = Duration::from_millis(50);

/// The drawing thread, until [`Watcher::finish`].
pub struct Watcher {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<Option<Snapshot>>>,
}

/// Starts following `page` (bars only when `stderr` is a terminal).
pub fn watch(page: Mapped) -> Watcher {
    let stop = Arc::new(AtomicBool::new(false));
    let draw = std::io::stderr().is_terminal();
    let thread = {
        let stop = Arc::clone(&stop);
        std::thread::Builder::new()
            .name("warpscope-progress".into())
            .spawn(move || follow(&page, draw, &stop))
            .ok()
    };
    Watcher { stop, thread }
}

impl Watcher {
    /// Stops following (the program has exited): takes the bar away and returns the page's last
    /// state, which names the launch the program was in when it ended, if it ended inside one.
    pub fn finish(mut self) -> Option<Snapshot> {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.take().and_then(|t| t.join().ok()).flatten()
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A duration as people read it: `42 s`, `3 min 20 s`, `2 h 5 min`.
fn span(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

/// The bar's message: the rate over the whole launch so far, the time left at that rate, the
/// launch's kernel and shape.
fn message(s: &Snapshot, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let rate = s.done as f64 / secs;
    let rate_text = match rate {
        r if r >= 100.0 => format!("{r:.0}"),
        r if r >= 10.0 => format!("{r:.1}"),
        r => format!("{r:.2}"),
    };
    let left = if s.done == 0 {
        "?".to_string()
    } else {
        span(s.blocks.saturating_sub(s.done) as f64 / rate)
    };
    format!("{rate_text} blocks/s, ETA {left}, {}", s.label)
}

fn bar(s: &Snapshot, elapsed: Duration) -> ProgressBar {
    let style =
        ProgressStyle::with_template("warpscope: launch {prefix} [{bar:25}] {pos}/{len} blocks, {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
    let b = ProgressBar::with_draw_target(Some(s.blocks), ProgressDrawTarget::stderr_with_hz(10))
        .with_style(style)
        .with_prefix(s.launch.to_string())
        .with_message(message(s, elapsed))
        .with_position(s.done)
        .with_elapsed(elapsed);
    b.tick();
    b
}

fn follow(page: &Mapped, draw: bool, stop: &AtomicBool) -> Option<Snapshot> {
    if draw {
        page.drawing.store(1, Ordering::SeqCst);
    }
    let mut shown: Option<(u64, ProgressBar)> = None;
    let mut last = None;
    loop {
        let stopping = stop.load(Ordering::SeqCst);
        if let Some(s) = page.snapshot() {
            match s.state {
                RUNNING => {
                    if shown.as_ref().is_some_and(|(l, _)| *l != s.launch)
                        && let Some((_, b)) = shown.take()
                    {
                        b.finish_and_clear();
                    }
                    let elapsed = Duration::from_nanos(now_ns().saturating_sub(s.started_ns));
                    if draw && !stopping && shown.is_none() && elapsed.as_secs_f64() >= LONG_LAUNCH_S {
                        shown = Some((s.launch, bar(&s, elapsed)));
                    }
                    if let Some((_, b)) = &shown {
                        b.set_position(s.done);
                        b.set_message(message(&s, elapsed));
                    }
                }
                ENDED => {
                    if let Some((_, b)) = shown.take() {
                        b.finish_and_clear();
                    }
                    if page.acked.load(Ordering::SeqCst) <= s.launch {
                        page.acked.store(s.launch + 1, Ordering::SeqCst);
                    }
                }
                _ => {}
            }
            last = Some(s);
        }
        if stopping {
            if let Some((_, b)) = shown.take() {
                b.finish_and_clear();
            }
            return last;
        }
        std::thread::sleep(POLL);
    }
}
