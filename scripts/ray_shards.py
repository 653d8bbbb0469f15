#!/usr/bin/env python3
"""Run a tenure-eval run's shards on a Ray cluster, then merge them (issue 35).

Each shard is one Ray task. The task receives the tenure-eval binary and the files named by
--ship through Ray's object store (nothing is assumed on the worker's disk but Python with
Ray), starts the memory system of --system if given (one per task, so that shards never reset
each other's store), runs `tenure-eval COMMAND ... --shard K/N` in a fresh folder and returns
that folder's reports and journals. The driver writes them to OUT/shards/K and runs
`tenure-eval merge`, which checks the shards (settings, suite, none missing or twice) and writes
reports equal to the unsharded run's.

The same command runs on a laptop (no --address: Ray starts in-process) and on a cluster
(--address auto on a cluster node, host:6379, or ray://head:10001). docs/guide.md shows both.

Placeholders in --run and --system: {bin} the shipped binary, {url} the URL the task's system
printed on its first line of stdout, {k} and {n} the shard. Every argument is split by shell
rules (shlex); nothing is run through a shell.

A lost worker: Ray runs the task again (--retries, default 2), from the start, in a fresh
folder with a fresh system. When the retries run out, the runner names the shard and exits 3
without merging. A killed worker cannot remove its folder (the binary alone is hundreds of MB in
a debug build): its name holds the worker's pid, and folders of pids that are gone are removed
when a task starts and, on every node, when the run ends. Exit codes as tenure-eval's: 2 for
usage and input errors, 3 for runtime failures (the runner's own included), and merge's own
code (1 for a failed gate) otherwise.
"""

import argparse
import io
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

USAGE, RUNTIME = 2, 3


def fail(code, message):
    print(f"ray_shards: {message}", file=sys.stderr)
    sys.exit(code)


def pack(paths, root):
    """A tar (bytes) of `paths`, each stored under its path relative to `root`."""
    buf = io.BytesIO()
    # Symlinks are followed: a worker gets the file, not a link into this machine's disk.
    with tarfile.open(fileobj=buf, mode="w", dereference=True) as tar:
        for p in paths:
            tar.add(str(root / p), arcname=str(p))
    return buf.getvalue()


def unpack(data, into):
    with tarfile.open(fileobj=io.BytesIO(data), mode="r") as tar:
        tar.extractall(into, filter="data")


def die_with_parent():
    """Children of a task die with it: a killed Ray worker leaves no run behind (Linux)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def expand(template, values):
    return [arg.format(**values) for arg in shlex.split(template)]


WORK = re.compile(r"tenure-shard\d+-pid(\d+)-")


def sweep_orphans():
    """Removes this node's shard folders whose worker process is gone. Returns how many."""
    removed = 0
    for folder in Path(tempfile.gettempdir()).glob("tenure-shard*-pid*-*"):
        owner = WORK.match(folder.name)
        if owner is None:
            continue
        try:
            os.kill(int(owner.group(1)), 0)
            continue  # alive (its task runs or ended, and then its folder is gone already)
        except PermissionError:
            continue  # alive, another user's
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
    return removed


def sweep_every_node(ray):
    """Runs sweep_orphans on every live node: a worker killed in this run left its folder."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    sweep = ray.remote(num_cpus=0)(sweep_orphans)
    return sum(
        ray.get(
            [
                sweep.options(
                    scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
                ).remote()
                for node in ray.nodes()
                if node["Alive"]
            ],
            timeout=120,
        )
    )


def run_shard(k, n, binary, bundle, run, suite, system, tracker):
    """One shard, on whichever node Ray chose. Returns (k, node, seconds, tar of the out folder)."""
    import ray

    tracker.started.remote(k)
    start = time.monotonic()
    sweep_orphans()
    prefix = f"tenure-shard{k}-pid{os.getpid()}-"
    with tempfile.TemporaryDirectory(prefix=prefix) as work:
        work = Path(work)
        exe = work / "tenure-eval"
        exe.write_bytes(binary)  # Ray resolves a top-level ObjectRef argument
        exe.chmod(0o755)
        unpack(bundle, work)
        values = {"bin": str(exe), "k": k, "n": n, "url": ""}
        server = None
        try:
            if system:
                server = subprocess.Popen(
                    expand(system, values),
                    cwd=work,
                    stdout=subprocess.PIPE,
                    stderr=open(work / "system.log", "w"),
                    text=True,
                    preexec_fn=die_with_parent,
                )
                values["url"] = server.stdout.readline().strip()
                if not values["url"]:
                    said = (work / "system.log").read_text().strip()[-2000:]
                    raise RuntimeError(f"shard {k}/{n}: the system printed no URL: {system}: {said}")
            out = work / "out"
            command = [str(exe)] + expand(run, values) + shlex.split(suite)
            command += ["--shard", f"{k}/{n}", "--out", str(out), "--quiet"]
            done = subprocess.run(
                command, cwd=work, capture_output=True, text=True, preexec_fn=die_with_parent
            )
            if done.returncode not in (0, 1):
                raise RuntimeError(
                    f"shard {k}/{n}: tenure-eval exited {done.returncode}: "
                    f"{done.stderr.strip()[-2000:]}"
                )
            return k, ray.get_runtime_context().get_node_id(), time.monotonic() - start, pack(
                ["."], out
            )
        finally:
            if server is not None:
                server.kill()
                server.wait()


class Tracker:
    """Counts each shard's attempts, so that the driver can say which shards Ray ran again."""

    def __init__(self):
        self.attempts = {}

    def started(self, k):
        self.attempts[k] = self.attempts.get(k, 0) + 1

    def counts(self):
        return self.attempts


def arguments():
    p = argparse.ArgumentParser(
        description="Run tenure-eval's shards as Ray tasks and merge them.",
        epilog="Example: ray_shards.py --shards 3 --suite-args '--suite pmb' "
        "--run 'static --backend http --url {url}' "
        "--system '{bin} serve --suite pmb --backend cosine' --out reports",
    )
    p.add_argument("--shards", type=int, required=True, help="N: the run is split in N shards")
    p.add_argument("--out", type=Path, required=True, help="merged reports; shards in OUT/shards")
    p.add_argument("--suite-args", default="", help="suite flags, given to every shard and merge")
    p.add_argument("--run", required=True, help="the command and flags each shard runs")
    p.add_argument("--merge", default="", help="more flags for merge (--junit, --gate, ...)")
    p.add_argument("--system", default="", help="a memory system each task starts; prints its URL")
    p.add_argument("--ship", action="append", default=[], type=Path,
                   help="a file or folder (relative) the tasks need; repeatable")
    p.add_argument("--binary", type=Path, default=Path("target/release/tenure-eval"))
    p.add_argument("--address", default=None,
                   help="a Ray cluster (auto, host:6379, ray://host:10001); none starts Ray here")
    p.add_argument("--retries", type=int, default=2, help="attempts after a lost worker")
    p.add_argument("--cpus-per-shard", type=float, default=1.0)
    p.add_argument("--quiet", action="store_true")
    # These take other programs' flags as their value ("--merge --quiet"): joined to their
    # option first, so that argparse does not read the value as an option of its own.
    argv, quoted = [], {"--suite-args", "--run", "--merge", "--system"}
    args = iter(sys.argv[1:])
    for arg in args:
        argv.append(f"{arg}={next(args, '')}" if arg in quoted else arg)
    return p.parse_args(argv)


def main():
    args = arguments()
    say = (lambda *_: None) if args.quiet else (lambda m: print(m, file=sys.stderr))
    if args.shards < 1:
        fail(USAGE, f"--shards {args.shards}: expected at least 1")
    if not args.binary.is_file():
        fail(USAGE, f"{args.binary}: no tenure-eval binary there (cargo build --release, or --binary)")
    for path in args.ship:
        if path.is_absolute() or ".." in path.parts:
            fail(USAGE, f"--ship {path}: expected a path relative to this folder, inside it")
        if not path.exists():
            fail(USAGE, f"--ship {path}: no such file or folder")
    if args.out.exists() and any(args.out.iterdir()):
        fail(USAGE, f"{args.out}: not empty; a merge writes into an empty or new folder")

    import ray

    ray.init(address=args.address, logging_level="ERROR", log_to_driver=not args.quiet)
    binary = ray.put(args.binary.read_bytes())
    bundle = ray.put(pack(args.ship, Path(".")))
    tracker = ray.remote(num_cpus=0)(Tracker).remote()
    task = ray.remote(run_shard).options(
        max_retries=args.retries, retry_exceptions=False, num_cpus=args.cpus_per_shard
    )
    n = args.shards
    start = time.monotonic()
    pending = {
        task.remote(k, n, binary, bundle, args.run, args.suite_args, args.system, tracker): k
        for k in range(1, n + 1)
    }
    results, failed = {}, []
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        k = pending.pop(done[0])
        try:
            _, node, seconds, data = ray.get(done[0])
            results[k] = data
            say(f"shard {k}/{n} finished on node {node[:8]} in {seconds:.1f} s")
        except Exception as e:  # a task's own error or a lost worker after its retries
            failed.append(k)
            say(f"shard {k}/{n} failed: {type(e).__name__}: {str(e).strip()[:2000]}")
    attempts = ray.get(tracker.counts.remote())
    for k in sorted(attempts):
        if attempts[k] > 1:
            say(f"shard {k}/{n} ran {attempts[k]} times (Ray retried it after a lost worker)")
    try:
        removed = sweep_every_node(ray)
        if removed:
            say(f"removed {removed} folder(s) of killed shard tasks")
    except Exception as e:  # a node lost since: its folders wait for the next run's sweep
        say(f"could not sweep every node for killed tasks' folders: {type(e).__name__}: {e}")
    ray.shutdown()
    if failed:
        names = ", ".join(f"{k}/{n}" for k in sorted(failed))
        fail(RUNTIME, f"shard {names} failed; nothing merged")

    shard_dirs = []
    for k in range(1, n + 1):
        into = args.out / "shards" / str(k)
        into.mkdir(parents=True)
        unpack(results[k], into)
        shard_dirs.append(str(into))
    say(f"{n} shards in {time.monotonic() - start:.1f} s; merging")
    merge = [str(args.binary), "merge", *shard_dirs, *shlex.split(args.suite_args)]
    merge += shlex.split(args.merge) + ["--out", str(args.out)]
    if args.quiet:
        merge.append("--quiet")
    sys.exit(subprocess.run(merge).returncode)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # the runner's own failure: exit 3, never 1 (a failed gate)
        import traceback

        traceback.print_exc()
        fail(RUNTIME, f"{type(e).__name__}: {e}")
