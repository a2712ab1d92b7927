//! Links the cdylib as NVIDIA's runtime is linked: soname `libcudart.so.13`, and every exported
//! symbol in the version node `libcudart.so.13` (programs built by nvcc import
//! `cudaMalloc@libcudart.so.13`). rustc passes its own anonymous version script for a cdylib (its
//! exact names would win over any pattern of a second script), so the version comes from GNU ld's
//! `--default-symver`, which names each exported symbol's version after the soname.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcudart.so.13");
        // rust-lld (the default linker) has no --default-symver: link this library with GNU ld.
        println!("cargo:rustc-cdylib-link-arg=-fuse-ld=bfd");
        println!("cargo:rustc-cdylib-link-arg=-Wl,--default-symver");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
