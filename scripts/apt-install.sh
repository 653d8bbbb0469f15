#!/usr/bin/env bash
# Install Debian packages with apt-get (with sudo when not root), for the setup-*.sh scripts:
# `scripts/apt-install.sh WHO PACKAGE...`; WHO names the caller in messages.
set -euo pipefail
who=$1
shift
if ! command -v apt-get >/dev/null 2>&1; then
  echo "$who: needs $*, and apt-get is not here" >&2
  exit 1
fi
SUDO=""
[[ $(id -u) -ne 0 ]] && SUDO="sudo"
echo "$who: installing $* with apt-get" >&2
$SUDO apt-get update -q >&2
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >&2
