#!/usr/bin/env bash
# Poppler's pdffonts and pdftotext for the figure tests (tests/it/figures.rs: the PDF's font is
# embedded and its text extractable): Debian's poppler-utils, installed with apt when missing.
set -euo pipefail
have() { command -v pdffonts >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1; }
if ! have; then
  "$(dirname "$0")/apt-install.sh" setup-poppler.sh poppler-utils
fi
command -v pdffonts
