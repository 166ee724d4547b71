#!/bin/sh
# predict_compare.sh: profiler/predict/compare.sh and perturb.sh on the H100
# runs committed in profiler/predict/runs/ (no GPU: they simulate the traces
# the live runs ran and read the live results back). Pins what they found:
# - run a's las (10 s rounds) within 5 % of its live run once a preempted
#   job's return is charged a start (it was 15.1 % while compare.sh charged it
#   nothing: the simulator's suspend cost 0);
# - run c's fifo within 5 % and its las at arrivals (slice.jobs) within 6 %
#   (2 % with COST=lost);
# - slice.jobs is no coin toss: with 5 % less or more work and half or 1.5x the
#   start cost, no job gains or loses a preemption; mixed.jobs under 10 s
#   rounds is one (a job does);
# - the packed run under MPS: run f's packsmall within 3 % (packsmall.jobs
#   keeps every preemption under the same perturbations, the pairs fitted in
#   with PAIRS=), run d's (6 s jobs finishing at the round's edge) more than
#   20 % apart: compare.sh reads a packing run's pairs into its catalog;
# - a missing run directory is an error, a batch without a curve row is named
#   by make-trace.sh, and perturb.sh without its arguments a usage error. ~5 s.
set -u
: "${SRCDIR:=.}"
. "$SRCDIR/tests/test_lib.sh"
test_init predict_compare sqlite3 python3
export MLSCHED
runs="$SRCDIR/profiler/predict/runs"
cp -R "$runs/2026-11-27-a" "$runs/2026-11-27-c" "$runs/2026-11-27-d" "$runs/2026-11-27-f" "$tmp/" # compare.sh writes into the run
mean() { # RUN-NAME FILE: the mean |live - sim| / sim of that run in compare.sh's output
    awk -v r="### $1:" 'index($0, r) == 1 { on = 1 } on && /^mean/ { sub(/.*sim: /, ""); print $1 + 0; exit }' "$2"
}
under() { awk -v v="${1:-100}" -v l="$2" 'BEGIN { exit !(v < l) }'; }
bash "$SRCDIR/profiler/predict/compare.sh" "$tmp/2026-11-27-a" >"$tmp/a.txt" 2>&1 ||
    bad "compare.sh on run a failed: $(tail -3 "$tmp/a.txt")"
under "$(mean las "$tmp/a.txt")" 5 || bad "run a, las: $(mean las "$tmp/a.txt") % (want < 5)"
bash "$SRCDIR/profiler/predict/compare.sh" "$tmp/2026-11-27-c" >"$tmp/c.txt" 2>&1 ||
    bad "compare.sh on run c failed: $(tail -3 "$tmp/c.txt")"
under "$(mean fifo "$tmp/c.txt")" 5 || bad "run c, fifo: $(mean fifo "$tmp/c.txt") % (want < 5)"
under "$(mean slice "$tmp/c.txt")" 6 || bad "run c, slice: $(mean slice "$tmp/c.txt") % (want < 6)"
python3 -c 'import json, sys
w = json.load(open(sys.argv[1]))["workloads"]
sys.exit(not w or any(not (c["suspend"] == c["start"] > 0) for c in w.values()))' \
    "$tmp/2026-11-27-c/overheads.json" ||
    bad "a return to the same GPU is not charged a start: $(cat "$tmp/2026-11-27-c/overheads.json")"
COST=lost bash "$SRCDIR/profiler/predict/compare.sh" "$tmp/2026-11-27-c" >"$tmp/cl.txt" 2>&1 ||
    bad "COST=lost compare.sh on run c failed"
under "$(mean slice "$tmp/cl.txt")" 2.5 || bad "run c, slice, COST=lost: $(mean slice "$tmp/cl.txt") %"
# the preemption counts of each perturbed run, one line each
preempts() { tail -n +2 "$1" | sed 's/^[^ ]*  *[^ ]*  *//; s/[0-9.]*\//\//g' | sort -u | wc -l; }
bash "$SRCDIR/profiler/predict/perturb.sh" "$tmp/2026-11-27-c" \
    "$SRCDIR/profiler/predict/slice.jobs" las 0 >"$tmp/ps.txt" 2>&1 || bad "perturb.sh slice failed"
[ "$(wc -l <"$tmp/ps.txt")" = 10 ] && [ "$(preempts "$tmp/ps.txt")" = 1 ] ||
    bad "slice.jobs: preemptions move: $(cat "$tmp/ps.txt")"
bash "$SRCDIR/profiler/predict/perturb.sh" "$tmp/2026-11-27-a" \
    "$SRCDIR/profiler/predict/mixed.jobs" las 10 >"$tmp/pm.txt" 2>&1 || bad "perturb.sh mixed failed"
[ "$(preempts "$tmp/pm.txt")" -gt 1 ] || bad "mixed.jobs: no preemption moves: $(cat "$tmp/pm.txt")"
bash "$SRCDIR/profiler/predict/compare.sh" "$tmp/2026-11-27-f" >"$tmp/f.txt" 2>&1 ||
    bad "compare.sh on run f failed: $(tail -3 "$tmp/f.txt")"
under "$(mean packsmall "$tmp/f.txt")" 3 || bad "run f, packsmall: $(mean packsmall "$tmp/f.txt") % (want < 3)"
bash "$SRCDIR/profiler/predict/compare.sh" "$tmp/2026-11-27-d" >"$tmp/d.txt" 2>&1 ||
    bad "compare.sh on run d failed: $(tail -3 "$tmp/d.txt")"
under 20 "$(mean packsmall "$tmp/d.txt")" || bad "run d, packsmall: $(mean packsmall "$tmp/d.txt") % (want > 20)"
PAIRS="$tmp/2026-11-27-f/pairs-small.csv" bash "$SRCDIR/profiler/predict/perturb.sh" "$tmp/2026-11-27-f" \
    "$SRCDIR/profiler/predict/packsmall.jobs" max-min-fairness-packed 10 >"$tmp/pp.txt" 2>&1 ||
    bad "perturb.sh packsmall failed: $(tail -3 "$tmp/pp.txt")"
[ "$(wc -l <"$tmp/pp.txt")" = 10 ] && [ "$(preempts "$tmp/pp.txt")" = 1 ] ||
    bad "packsmall.jobs: preemptions move: $(cat "$tmp/pp.txt")"
bash "$SRCDIR/profiler/predict/compare.sh" "$tmp/none" >"$tmp/n.txt" 2>&1 && bad "no run: exit 0"
grep -q "has no gpu-predict.sh results" "$tmp/n.txt" || bad "no run: $(cat "$tmp/n.txt")"
printf '9 0 T 7 5\n' >"$tmp/bad.jobs" # no batch-7 row in the curve: named, exit 1
bash "$SRCDIR/profiler/predict/make-trace.sh" "$tmp/bad.jobs" "$tmp/2026-11-27-c/builtin-transformer.csv" \
    "$tmp/2026-11-27-c/builtin-resnet18.csv" >/dev/null 2>"$tmp/b.txt"
[ $? = 1 ] && grep -q "no T row at batch 7" "$tmp/b.txt" || bad "make-trace.sh, bad batch: $(cat "$tmp/b.txt")"
bash "$SRCDIR/profiler/predict/perturb.sh" >"$tmp/u.txt" 2>&1
[ $? = 2 ] && grep -q usage "$tmp/u.txt" || bad "perturb.sh without arguments: $(cat "$tmp/u.txt")"
[ $fail -eq 0 ] || exit 1
echo "predict_compare: ok (run a las $(mean las "$tmp/a.txt") %, run c fifo $(mean fifo "$tmp/c.txt") %, slice $(mean slice "$tmp/c.txt") %, run f packsmall $(mean packsmall "$tmp/f.txt") %)"
