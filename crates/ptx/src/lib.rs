//! warpscope-ptx (to be written).
#![deny(missing_docs)]
