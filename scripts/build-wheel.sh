#!/usr/bin/env bash
# Builds the Python wheel: the `warpscope` binary and its CUDA runtime library
# (libwarpscope_cudart.so, installed as <prefix>/lib/warpscope/), depending on the CUDA compiler
# wheels (python/pyproject.toml). maturin comes from PyPI into a throwaway virtual environment.
# Prints the wheel's path on stdout (it lands in $CARGO_TARGET_DIR/wheels, default target/wheels).
set -euo pipefail
cd "$(dirname "$0")/.."
target=$(realpath -m "${CARGO_TARGET_DIR:-target}")
# The runtime library as a dependency of the binary, as maturin's build below makes it (so that build
# reuses it): cargo leaves it in deps/.
cargo build --release -p warpscope >&2
stage=python/build/data/data/lib/warpscope
rm -rf python/build/data
mkdir -p "$stage"
cp "$target/release/deps/libwarpscope_cudart.so" "$stage/"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv" >&2
"$tmp/venv/bin/pip" install -q --disable-pip-version-check 'maturin>=1.5,<2' >&2
mkdir -p "$target/wheels"
rm -f "$target"/wheels/warpscope-*.whl
(cd python && CARGO_TARGET_DIR="$target" "$tmp/venv/bin/maturin" build --release --out "$target/wheels" >&2)
ls "$target"/wheels/warpscope-*.whl
