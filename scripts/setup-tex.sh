#!/usr/bin/env bash
# pdflatex with booktabs and adjustbox for the LaTeX tests (tests/it/latex.rs): Debian's
# texlive-latex-recommended and texlive-latex-extra, installed with apt when missing.
set -euo pipefail
have() { command -v pdflatex >/dev/null 2>&1 && kpsewhich booktabs.sty adjustbox.sty >/dev/null 2>&1; }
if ! have; then
  "$(dirname "$0")/apt-install.sh" setup-tex.sh texlive-latex-recommended texlive-latex-extra
fi
command -v pdflatex
