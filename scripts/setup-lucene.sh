#!/usr/bin/env bash
# Lucene for the side-by-side checks: Debian's liblucene8-java and a JDK, installed with apt
# when missing. Prints the classpath (lucene-core and lucene-analyzers-common) on stdout.
set -euo pipefail
jars() {
  local core common
  core=$(ls /usr/share/java/lucene-core-8.*.jar 2>/dev/null | head -n1 || true)
  common=$(ls /usr/share/java/lucene-analyzers-common-8.*.jar 2>/dev/null | head -n1 || true)
  [[ -n $core && -n $common ]] && echo "$core:$common"
}
if ! command -v javac >/dev/null 2>&1 || ! jars >/dev/null; then
  "$(dirname "$0")/apt-install.sh" setup-lucene.sh liblucene8-java default-jdk-headless
fi
jars
