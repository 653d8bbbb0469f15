#!/usr/bin/env bash
# Everything the full test gate needs beyond the Rust toolchain, installed at once (cached where
# it can be), and printed as `export` lines for the caller to source:
#   - the venv with ONNX Runtime, the MiniLM models and the Python references
#     (scripts/setup-models.sh);
#   - Debian's packages, in one apt-get run: a JDK and Lucene 8 (tests/it/lucene.rs), Chromium
#     and chromedriver (html tests), TeX (LaTeX tests), poppler (figure tests).
# scripts/test.sh runs it in the background while it builds: the installs wait on the network,
# the build on the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v javac >/dev/null 2>&1 && scripts/setup-lucene.sh --check >/dev/null ||
  missing+=(liblucene8-java default-jdk-headless)
command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 ||
  missing+=(chromium chromium-driver)
command -v pdflatex >/dev/null 2>&1 && kpsewhich booktabs.sty adjustbox.sty >/dev/null 2>&1 ||
  missing+=(texlive-latex-recommended texlive-latex-extra)
command -v pdffonts >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1 ||
  missing+=(poppler-utils)
if ((${#missing[@]})); then
  scripts/apt-install.sh setup-test-env.sh "${missing[@]}"
fi
ort=$PWD/$(scripts/setup-models.sh)
scripts/setup-lucene.sh >/dev/null
chromium_paths=$(scripts/setup-chromium.sh)
scripts/setup-tex.sh >/dev/null
scripts/setup-poppler.sh >/dev/null
printf 'export ORT_DYLIB_PATH=%q\n' "$ort"
printf 'export TENURE_EVAL_MODELS=%q TENURE_EVAL_PYTHON=%q\n' "$PWD/models" "$PWD/.venv/bin/python"
printf 'export TENURE_EVAL_CHROMIUM=%q\n' "$(sed -n 1p <<<"$chromium_paths")"
printf 'export TENURE_EVAL_CHROMEDRIVER=%q\n' "$(sed -n 2p <<<"$chromium_paths")"
