//! The GPU lab (filled in below).
