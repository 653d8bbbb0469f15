#!/usr/bin/env bash
# The project's test command (README, and what .ci/run calls on a clean clone).
#
#   scripts/test.sh           the full gate: formatting, lints, every test (integration, doc,
#                             the tutorial example, each criterion bench once in test mode,
#                             and the unit tests, built without the `figures` feature)
#   scripts/test.sh --quick   the quick tier: formatting and every test but the heavy ones
#                             (.config/nextest.toml); installs nothing
#
# CONTRIBUTING.md, "The test loop", says what each tier holds and what it costs. Benchmark data
# the repository does not hold is read from TENURE_EVAL_DATA, and only from there
# (CONTRIBUTING.md, "Benchmark data"); without it, those tests skip with a line saying what to
# download.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
step() { echo "scripts/test.sh: $* (at $((SECONDS - start)) s)" >&2; }

if ! cargo nextest --version >/dev/null 2>&1; then
  echo "scripts/test.sh: needs cargo-nextest (cargo install cargo-nextest --locked)" >&2
  exit 2
fi
if cargo fmt --version >/dev/null 2>&1; then
  cargo fmt --all -- --check
else
  echo "scripts/test.sh: rustfmt not installed; skipping the format check" >&2
fi
if [[ ${1:-} == --quick ]]; then
  exec cargo nextest run --locked --all-features
fi

# The installs wait on the network and the build on the CPU: they run side by side.
env_file=$(mktemp)
trap 'rm -f "$env_file"' EXIT
scripts/setup-test-env.sh >"$env_file" &
setup=$!

# CI builds once from an empty target folder: incremental compilation only adds work there.
if [[ -n ${CI:-} ]]; then
  export CARGO_INCREMENTAL=0
fi
# One build for the lints and the tests: clippy-driver compiles the project's own crates (every
# lint, warnings denied) with full code generation, cargo the dependencies, so the lints cost no
# second build of the dependency tree as `cargo clippy` does.
if clippy=$(command -v clippy-driver); then
  export RUSTC_WORKSPACE_WRAPPER=$clippy
  export CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__
else
  echo "scripts/test.sh: clippy not installed; skipping lints" >&2
fi
# Every target but the library's unit tests, which are built and run once, without `figures`,
# at the end (below): two builds of them cost the build phase about 20 s. The benches as the
# one target `all` (benches/all.rs: the nine as modules; criterion built once, not nine times).
cargo test --locked --bins --test '*' --bench all --examples --all-features --no-run
step "built (lints passed)"

if ! wait "$setup"; then
  echo "scripts/test.sh: scripts/setup-test-env.sh failed (above)" >&2
  exit 1
fi
# shellcheck disable=SC1090
source "$env_file"
step "installed"
# Everything a test needs is installed above, so none may skip (tests/it/common/needs.rs): a
# plain `cargo nextest run` skips what its machine lacks; here a missing need fails the test.
export TENURE_EVAL_REQUIRE_ALL=1

cargo nextest run --locked --all-features --bins --test '*' --profile ci
step "tests passed"
# The criterion benches, each once in test mode (nextest cannot list a custom harness), as the
# one target that holds all nine (`--benches` would also take the library and the binary). Its
# binary runs beside the steps below: it mostly waits (a service simulated at 20 ms a call,
# servers starting), and the unit tests' build leaves a core idle while rustc reads the crate
# on one thread (52 s one after the other, 37 s side by side; CONTRIBUTING.md, "Where the time
# goes"). Its output is shown when it ends.
bench_exe=$(cargo test --locked --all-features --bench all --no-run --message-format=json |
  python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "all" and m.get("executable"):
        print(m["executable"])')
[[ -n $bench_exe ]] || { echo "scripts/test.sh: cargo named no bench binary \`all\`" >&2; exit 1; }
bench_log=$(mktemp)
"$bench_exe" --test >"$bench_log" 2>&1 &
benches=$!
# A step below that fails ends the script: the benches with it.
trap 'kill "$benches" 2>/dev/null || true; rm -f "$env_file" "$bench_log"' EXIT
cargo test --locked --doc --all-features
# The tutorial example: a backend written against the public API, run on the pmb suite.
cargo run --locked --quiet --example custom_backend
# A run through the library's plan writes the command line's files (reports, journals, JUnit,
# the step summary) and prints its table, measured fields aside.
scripts/library-matches-cli.sh

# The library's unit tests, built without the `figures` feature (docs/install.md, "Build time
# and features"): they compile without it, pass the lints and pass, its refusal of PNG and PDF
# among them (render::figure_file: exit 2, the rebuild hint); no unit test needs the feature
# (what it renders is tested in tests/it/figures.rs). The binary is `main.rs` over the library.
# Built with the test build's dependencies (Cargo.toml's dev-dependencies turn on what
# `figures` turns on in three of them): this crate alone is compiled again, where `cargo check
# --no-default-features` checked some 400 crates again (about a minute). This crate at -O1 here
# (the profile's -O2 is for the heavy integration tests): its 137 unit tests take 6 s instead
# of 5, the build 33 s instead of 42 (CONTRIBUTING.md, "Where the time goes").
cargo test --locked --quiet --no-default-features --lib \
  --config 'profile.dev.package.tenure-eval.opt-level=1'
benches_rc=0
wait "$benches" || benches_rc=$?
cat "$bench_log"
if ((benches_rc != 0)); then
  echo "scripts/test.sh: the benches in test mode failed (above; exit $benches_rc)" >&2
  exit 1
fi
# In CI this is the last step. Elsewhere, put the default binary back in target/debug (which
# scripts/check-identical.sh and the docs' commands use).
if [[ -z ${CI:-} ]]; then
  cargo build --locked --quiet
fi
step "the full gate passed"
