#!/usr/bin/env python3
"""One sitting on a GPU: every choice of the GPU count measured at once, within a time budget.

A GPU is lent for minutes at a time, so a first sitting has to measure everything in one go,
from a binary built elsewhere. In order, each step stopping the sitting loudly if a count is
wrong:

 1. the adapter, named (the sitting stops if it is a software device, unless
    --allow-software, which the project's tests use);
 2. a count of --check-n on the GPU against the CPU and OEIS A000170;
 3. three shards of --shard-n (of --shard-k) on the GPU against the CPU;
 4. every variant of the kernels (tables, work, checks: CHESS_PUZZLES_GPU_TUNING) at
    --variants-n, and the fastest;
 5. a sweep of the pairing kernel's workgroups (--sweep) with the fastest variant;
 6. --best-n whole with the fastest variant and workgroups;
 7. two shards of --projection-n (of --projection-k), and the whole count projected;
 8. optionally another counter's command (--other, `{n}` for N) at each N of --other-n, in
    the same sitting; the caller builds that counter, this script builds nothing.

It writes into --out a Markdown table (`sitting.md`) and every `--stats` line (`stats.txt`),
and prints the table. A step that would start after --budget seconds is skipped and said so;
a count still running when the budget runs out is stopped, and the sitting ends there with
its table (exit 0: out of time is not a wrong count, which exits 1).

    python3 experiments/nqueens/gpu_sitting.py --bin ./chess-puzzles --out sitting \\
        --other '/opt/yao-li/nqueens {n}' --other-n 19 20 21
"""

import argparse
import os
import pathlib
import re
import subprocess
import sys
import time

# OEIS A000170.
KNOWN = {
    6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712, 14: 365596,
    15: 2279184, 16: 14772512, 17: 95815104, 18: 666090624, 19: 4968057848,
    20: 39029188884, 21: 314666222712, 22: 2691008701644, 23: 24233937684440,
    24: 227514171973736, 25: 2207893435808352, 26: 22317699616364044,
    27: 234907967154122528,
}

# What Sitting.run says of a command the budget stopped.
OUT_OF_TIME = "stopped: the sitting's budget ran out"

VARIANTS = [
    f"tables={t},work={w},checks={c}"
    for t in ("padded", "strided") for w in ("queue", "stride") for c in ("off", "on")
]


class Sitting:
    """The sitting's clock, its table and its log of --stats lines."""

    def __init__(self, args):
        self.args = args
        self.began = time.monotonic()
        self.rows = []
        self.stats = []
        self.out = pathlib.Path(args.out)
        self.out.mkdir(parents=True, exist_ok=True)

    def left(self):
        return self.args.budget - (time.monotonic() - self.began)

    def row(self, *cells):
        self.rows.append("| " + " | ".join(str(c) for c in cells) + " |")
        self.save()

    def save(self):
        table = ["| step | what | result | seconds |", "|---|---|---|---|", *self.rows]
        (self.out / "sitting.md").write_text("\n".join(table) + "\n")
        (self.out / "stats.txt").write_text("\n".join(self.stats) + "\n")

    def fail(self, why):
        self.row("stop", why, "FAILED", f"{time.monotonic() - self.began:.1f}")
        print("\n".join(self.rows), file=sys.stderr)
        sys.exit(f"gpu_sitting: {why}")

    def out_of_time(self, what):
        """Ends the sitting after `what` was stopped by the budget: its table so far."""
        self.row("stop", f"{what}: stopped after {self.args.budget:.0f} s",
                 "out of the sitting's time", f"{time.monotonic() - self.began:.1f}")
        print((self.out / "sitting.md").read_text(), end="")
        sys.exit(0)

    def run(self, command, env=None, label=""):
        """Runs `command` (a list, or a string for the shell) within the time left; returns
        (seconds, stdout, stderr), or (None, '', why)."""
        timeout = max(1.0, self.left())
        environment = dict(os.environ)
        if self.args.allow_software:
            environment["CHESS_PUZZLES_GPU_ALLOW_SOFTWARE"] = "1"
        environment.update(env or {})
        began = time.monotonic()
        try:
            done = subprocess.run(command, shell=isinstance(command, str), capture_output=True,
                                  text=True, timeout=timeout, env=environment, check=False)
        except subprocess.TimeoutExpired:
            return None, "", OUT_OF_TIME
        took = time.monotonic() - began
        for line in done.stderr.splitlines():
            if line.startswith("gpu: "):
                self.stats.append(f"{label}: {line}")
        if done.returncode != 0:
            return None, done.stdout, f"exit {done.returncode}: {done.stderr.strip()[-400:]}"
        return took, done.stdout, done.stderr

    def count(self, n, device="gpu", shard=None, tuning=None, label=""):
        """Counts N on `device` (with --stats on the GPU); returns (seconds, count)."""
        command = [self.args.bin, "nqueens", "count", str(n), "--device", device]
        if device == "gpu":
            command.append("--stats")
        if shard:
            command += ["--shard", shard]
        env = {"CHESS_PUZZLES_GPU_TUNING": tuning} if tuning else {}
        took, out, err = self.run(command, env, label or f"N = {n}")
        if err is OUT_OF_TIME:
            self.out_of_time(f"nqueens count {n} --device {device} {shard or ''} {tuning or ''}")
        if took is None:
            self.fail(f"nqueens count {n} --device {device} {shard or ''} {tuning or ''}: {err}")
        return took, int(out.strip())

    def step(self, name):
        """Whether the step `name` may start (else it is written down as skipped)."""
        if self.left() <= 0:
            self.row(name, "skipped", "out of the sitting's time", "")
            return False
        return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default="target/release/chess-puzzles")
    parser.add_argument("--out", default="gpu-sitting")
    parser.add_argument("--budget", type=float, default=540, help="seconds for the sitting")
    parser.add_argument("--allow-software", action="store_true",
                        help="go on on a software device (for the project's own tests)")
    parser.add_argument("--check-n", type=int, default=12)
    parser.add_argument("--shard-n", type=int, default=21)
    parser.add_argument("--shard-k", type=int, default=20000)
    parser.add_argument("--variants-n", type=int, default=20)
    parser.add_argument("--sweep", type=int, nargs="*", default=[264, 528, 1056, 2112, 4224])
    parser.add_argument("--best-n", type=int, default=21)
    parser.add_argument("--projection-n", type=int, default=22)
    parser.add_argument("--projection-k", type=int, default=20)
    parser.add_argument("--other", help="another counter's command, {n} for N")
    parser.add_argument("--other-name", default="other")
    parser.add_argument("--other-n", type=int, nargs="*", default=[])
    args = parser.parse_args()
    s = Sitting(args)

    # 1. The adapter.
    took, out, err = s.run([args.bin, "nqueens", "count", "8", "--device", "gpu", "--stats"],
                           label="adapter")
    if took is None:
        s.fail(f"no GPU to count on: {err}")
    adapter = next((l[5:] for l in err.splitlines() if l.startswith("gpu: ")), "?")
    adapter = adapter.split(";")[0]
    if "software)" in adapter and not args.allow_software:
        s.fail(f"the software device was picked, not a GPU: {adapter}")
    s.row(1, "adapter", adapter.replace("|", "/"), f"{took:.2f}")

    # 2. A count against the CPU and A000170.
    if s.step(2):
        n = args.check_n
        took, gpu = s.count(n)
        _, cpu = s.count(n, device="cpu")
        if gpu != cpu or gpu != KNOWN[n]:
            s.fail(f"N = {n}: the GPU counted {gpu}, the CPU {cpu}, A000170 says {KNOWN[n]}")
        s.row(2, f"N = {n} against the CPU", f"{gpu} (both)", f"{took:.2f}")

    # 3. Three shards against the CPU.
    if s.step(3):
        n, k = args.shard_n, args.shard_k
        for i in (0, k // 2, k - 1):
            shard = f"{i}/{k}"
            took, gpu = s.count(n, shard=shard, label=f"N = {n} shard {shard}")
            _, cpu = s.count(n, device="cpu", shard=shard)
            if gpu != cpu:
                s.fail(f"N = {n} shard {shard}: the GPU counted {gpu}, the CPU {cpu}")
            s.row(3, f"N = {n} shard {shard} against the CPU", f"{gpu} (both)", f"{took:.2f}")

    # 4. Every variant.
    best, best_time = VARIANTS[0], None
    if s.step(4):
        n = args.variants_n
        for tuning in VARIANTS:
            if not s.step(4):
                break
            took, gpu = s.count(n, tuning=tuning, label=f"N = {n} {tuning}")
            if gpu != KNOWN[n]:
                s.fail(f"N = {n} with {tuning}: counted {gpu}, not {KNOWN[n]}")
            s.row(4, f"N = {n}, {tuning}", gpu, f"{took:.2f}")
            if best_time is None or took < best_time:
                best, best_time = tuning, took
        s.row(4, f"fastest variant at N = {n}", best, f"{best_time:.2f}" if best_time else "")

    # 5. The workgroups.
    best_groups = None
    if s.step(5) and args.sweep:
        n = args.variants_n
        fastest = best_time
        for groups in args.sweep:
            if not s.step(5):
                break
            tuning = f"{best},workgroups={groups}"
            took, gpu = s.count(n, tuning=tuning, label=f"N = {n} {tuning}")
            if gpu != KNOWN[n]:
                s.fail(f"N = {n} with {tuning}: counted {gpu}, not {KNOWN[n]}")
            s.row(5, f"N = {n}, {groups} workgroups", gpu, f"{took:.2f}")
            if fastest is None or took < fastest:
                best_groups, fastest = groups, took
    chosen = best + (f",workgroups={best_groups}" if best_groups else "")

    # 6. The best, whole.
    if s.step(6):
        n = args.best_n
        took, gpu = s.count(n, tuning=chosen, label=f"N = {n} {chosen}")
        if gpu != KNOWN[n]:
            s.fail(f"N = {n} with {chosen}: counted {gpu}, not {KNOWN[n]}")
        s.row(6, f"N = {n} whole, {chosen}", gpu, f"{took:.2f}")

    # 7. Two shards, and the whole count projected.
    if s.step(7):
        n, k = args.projection_n, args.projection_k
        times = []
        for i in (0, k // 2):
            shard = f"{i}/{k}"
            took, gpu = s.count(n, shard=shard, tuning=chosen, label=f"N = {n} shard {shard}")
            times.append(took)
            s.row(7, f"N = {n} shard {shard}, {chosen}", gpu, f"{took:.2f}")
        s.row(7, f"N = {n} whole, projected from 2 shards of {k} (mean x {k})", "",
              f"{sum(times) / len(times) * k:.0f}")

    # 8. Another counter, in the same sitting.
    if args.other:
        for n in args.other_n:
            if not s.step(8):
                break
            took, out, err = s.run(args.other.replace("{n}", str(n)), label=args.other_name)
            if took is None:
                s.row(8, f"{args.other_name}, N = {n}", f"failed: {err[:80]}", "")
                continue
            numbers = re.findall(r"\d+", out)
            printed = int(numbers[-1]) if numbers else None
            right = "right" if printed == KNOWN.get(n) else f"printed {printed}"
            s.row(8, f"{args.other_name}, N = {n}", right, f"{took:.2f}")
            if s.step(8):
                took, gpu = s.count(n, tuning=chosen, label=f"N = {n} beside {args.other_name}")
                s.row(8, f"chess-puzzles, N = {n}, {chosen}", gpu, f"{took:.2f}")

    s.save()
    print((s.out / "sitting.md").read_text(), end="")


if __name__ == "__main__":
    main()
