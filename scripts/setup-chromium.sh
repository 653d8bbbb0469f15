#!/usr/bin/env bash
# Chromium and chromedriver for the HTML page's tests (tests/it/html.rs drives the page in a
# real headless browser over WebDriver): Debian's chromium and chromium-driver, installed with
# apt when missing. Prints the two paths (chromium, then chromedriver) on stdout.
set -euo pipefail
found() { command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; }
if ! found; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-chromium.sh: needs chromium and chromedriver, and apt-get is not here" >&2
    exit 1
  fi
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  echo "setup-chromium.sh: installing chromium and chromium-driver with apt-get" >&2
  $SUDO apt-get update -q >&2
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    chromium chromium-driver >&2
fi
command -v chromium
command -v chromedriver
