//! The occupancy calculator.
