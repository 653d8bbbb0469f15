#!/usr/bin/env bash
# Chromium and chromedriver for the HTML page's tests (tests/it/html.rs drives the page in a
# real headless browser over WebDriver): Debian's chromium and chromium-driver, installed with
# apt when missing. Prints the two paths (chromium, then chromedriver) on stdout.
set -euo pipefail
found() { command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; }
if ! found; then
  "$(dirname "$0")/apt-install.sh" setup-chromium.sh chromium chromium-driver
fi
command -v chromium
command -v chromedriver
