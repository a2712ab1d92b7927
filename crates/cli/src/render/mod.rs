//! Rendering shared by several commands: an analysis as JSON and as tables.

pub mod analysis;
pub mod analysis_blocks;
