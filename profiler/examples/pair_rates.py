#!/usr/bin/env python3
"""pair_rates.py: the iteration time of two training commands sharing a GPU.

Runs command A and command B at once (each printing mlsched-progress lines,
e.g. `mlsched-gpu-bench W --no-self-test --progress B --iters -1`), stamps
every progress line with the wall clock, stops both after --seconds, and
prints one line per command: `iter_time_s=` over the window in which both
were past --skip seconds of their own progress and both still running (wall
seconds per iteration: the rate a job sees while it shares the GPU, host time
included), with the iterations counted. Used by profiler/gpu-predict.sh to
rate the pairs a packing policy may form (`# mlsched-pairs v1` files).

Usage: pair_rates.py --seconds S [--skip S] -- CMD_A... -- CMD_B...
"""
import argparse
import re
import subprocess
import sys
import threading
import time

ITER = re.compile(r"mlsched-progress.*\biter=(\d+)")


def reader(proc, stamps):
    for line in proc.stdout:
        m = ITER.search(line)
        if m:
            stamps.append((time.monotonic(), int(m.group(1))))


def window_rate(stamps, lo, hi):
    """Wall seconds per iteration between the first and last line in [lo, hi]."""
    inside = [(t, i) for t, i in stamps if lo <= t <= hi]
    if len(inside) < 3:
        return None, len(inside)
    (t0, i0), (t1, i1) = inside[0], inside[-1]
    return (t1 - t0) / (i1 - i0), i1 - i0


def main():
    argv = sys.argv[1:]
    if argv.count("--") != 2:
        sys.exit("usage: pair_rates.py --seconds S [--skip S] -- CMD_A... -- CMD_B...")
    a = argv.index("--")
    b = argv.index("--", a + 1)
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("--skip", type=float, default=3.0)
    opts = ap.parse_args(argv[:a])
    cmds = [argv[a + 1:b], argv[b + 1:]]
    procs, stamps, threads = [], [[], []], []
    for k, cmd in enumerate(cmds):
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        procs.append(p)
        t = threading.Thread(target=reader, args=(p, stamps[k]), daemon=True)
        t.start()
        threads.append(t)
    time.sleep(opts.seconds)
    end = time.monotonic()
    for p in procs:
        p.terminate()
    for p in procs:
        p.wait()
    for t in threads:
        t.join(timeout=2)
    # the window: both past their own first progress + skip, until the end
    starts = [s[0][0] + opts.skip if s else end for s in stamps]
    lo = max(starts)
    rc = 0
    for k in range(2):
        rate, n = window_rate(stamps[k], lo, end)
        if rate is None:
            print(f"cmd{k} iter_time_s=nan iters={n} (too few lines in the shared window)")
            rc = 1
        else:
            print(f"cmd{k} iter_time_s={rate:.6g} iters={n} window_s={end - lo:.2f}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
