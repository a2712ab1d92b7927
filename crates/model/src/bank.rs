//! The warp-request shared-memory bank model.
