//! warpscope-analysis (to be written).
#![deny(missing_docs)]
