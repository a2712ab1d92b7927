//! warpscope-emu (to be written).
#![deny(missing_docs)]
