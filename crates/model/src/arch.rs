//! Architecture presets (CC 1.0 to 12.0).
