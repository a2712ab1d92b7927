//! warpscope-gpu (to be written).
#![deny(missing_docs)]
