#!/usr/bin/env python3
"""helios-predictions.py: writes, for each job of a canonical mlsched trace, a
predicted duration made as HeliosArtifact's Philly generator makes them, but
seeded, in the layout its QSSF estimator reads (issue 17).

The artifact's QSSF on Philly (framework/QSSF Service, PhillyEstimator) reads
estimators/Philly_lgb.csv, a file made by estimators/philly_estimate.py and
not published (git LFS): each job's traced duration x with a random error
(its priority_generater, "Helios estimate distribution"):

    10 % of the jobs  x + x * U(-1, 1) * 0.1            (error within 10 %)
    40 %              x +/- x * U(0.1, 0.5)             (10-50 %)
    20 %              x +/- x * U(0.5, 1)               (50-100 %)
    20 %              x +/- x * U(1, 10)                (100-1000 %)
    10 %              x +/- x * U(10, 100)              (1000-10000 %)

(the sign drawn with random.choice((-1, 1)); 15 % of the predictions come
out negative and the queue serves those first), truncated to an integer
(pandas astype(int)). Its script means to seed Python's generator with 6 but
assigns `random.seed = 6` instead, so its file cannot be rebuilt; here
random.seed(SEED) is called (default 6), and the draws are made in the same
order, one job after another in the trace's order, so a seed gives one file.

The output has its layout's columns that the estimator reads, jobname (our
job id) and priority (the predicted duration in s; the estimator multiplies it
by the job's GPUs), beside gpu_num, submit_time and duration for reading.
Both simulators take it: its QSSF through scripts/helios-drive.py, ours as
`qssf -P predictions=FILE`.

    helios-predictions.py TRACE.csv [SEED] > PREDICTIONS.csv
"""
import csv
import random
import sys


def predict(x, rng):
    """Its priority_generater, drawing from rng."""
    level = rng.uniform(0, 1)
    if level <= 0.1:
        return x + x * rng.uniform(-1, 1) * 0.1
    if level <= 0.5:
        return x + x * rng.uniform(0.1, 0.5) * rng.choice((-1, 1))
    if level <= 0.7:
        return x + x * rng.uniform(0.5, 1) * rng.choice((-1, 1))
    if level <= 0.9:
        return x + x * rng.uniform(1, 10) * rng.choice((-1, 1))
    return x + x * rng.uniform(10, 100) * rng.choice((-1, 1))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split('\n\n')[-1])
    path = sys.argv[1]
    try:
        seed = int(sys.argv[2]) if len(sys.argv) == 3 else 6
    except ValueError:
        sys.exit(f'helios-predictions.py: seed {sys.argv[2]!r}: want an integer')
    rng = random.Random(seed)
    out = csv.writer(sys.stdout, lineterminator='\n')
    out.writerow(['jobname', 'gpu_num', 'submit_time', 'duration', 'priority'])
    try:
        f = open(path, newline='')
    except OSError as e:
        sys.exit(f'{path}: {e.strerror}')
    with f:
        lines = [(n, t) for n, t in enumerate(f, 1) if not t.startswith('#')]
    if not lines:
        sys.exit(f'{path}: empty')
    reader = csv.DictReader(t for _, t in lines)
    for (line_no, _), r in zip(lines[1:], reader):
        try:
            job, gpus = int(r['id']), int(r['gpus'])
            duration = float(r['duration'])
        except (KeyError, TypeError, ValueError) as e:
            sys.exit(f'{path}:{line_no}: want id, gpus and duration (the traced '
                     f'duration, s): {e}')
        out.writerow([job, gpus, r['submit_time'], r['duration'],
                      int(predict(duration, rng))])


if __name__ == '__main__':
    main()
