//! One module per subcommand: its flags (`Args`) and its `run`.

pub mod analyze;
pub mod bank;
pub mod calibrate;
pub mod check;
pub mod device;
pub mod fix;
pub mod index;
pub mod lab;
pub mod latency;
pub mod occupancy;
pub mod report;
pub mod run;
pub mod setup;
pub mod tour;
