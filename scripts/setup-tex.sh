#!/usr/bin/env bash
# pdflatex with booktabs and adjustbox for the LaTeX tests (tests/it/latex.rs): Debian's
# texlive-latex-recommended and texlive-latex-extra, installed with apt when missing.
set -euo pipefail
have() { command -v pdflatex >/dev/null 2>&1 && kpsewhich booktabs.sty adjustbox.sty >/dev/null 2>&1; }
if ! have; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-tex.sh: needs pdflatex with booktabs and adjustbox, and apt-get is not here" >&2
    exit 1
  fi
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  echo "setup-tex.sh: installing texlive-latex-recommended and texlive-latex-extra with apt-get" >&2
  $SUDO apt-get update -q >&2
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    texlive-latex-recommended texlive-latex-extra >&2
fi
command -v pdflatex
