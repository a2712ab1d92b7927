//! warpscope-toolchain (to be written).
#![deny(missing_docs)]
