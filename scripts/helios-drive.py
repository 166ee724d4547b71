#!/usr/bin/env python3
"""helios-drive.py: runs HeliosArtifact's QSSF-service simulator on one VC of a
canonical mlsched trace and prints each job's "id jct end" (issue 17).

The artifact's own entry point (simulator.py) reads its Philly cluster_log.csv
and a pickled VC table through pandas and writes CSV logs; this driver builds
the same Trace of Jobs and the same VC from a canonical trace (id, submit_time,
gpus, duration: a job runs its traced duration) and replaces only the three
recorders (log, sequence, progress), so the policies (fifo, sjf, srtf, qssf),
the cluster, the consolidate placer and the 1 s loop run unchanged. pandas is
imported by policy.py but used only by the recorders: a stub module is put on
the path when pandas is absent.

qssf takes a predictions file (scripts/helios-predictions.py writes one, in
the layout of its estimators/Philly_lgb.csv) and runs with its
PhillyEstimator, which reads ./estimators/Philly_lgb.csv: the driver runs in
a temporary folder where that path is the file. PhillyEstimator needs pandas
(its pd.read_csv); without pandas a stand-in gives the same answer (the
priority of the file's first row whose jobname is the job's, times its GPUs).
A job's jobname is its id, as an integer (pandas reads the column as one).

    helios-drive.py "HELIOS/framework/QSSF Service" VC.csv VC NODES fifo|sjf|srtf
    helios-drive.py "HELIOS/framework/QSSF Service" VC.csv VC NODES qssf PREDICTIONS.csv
"""
import csv
import os
import sys
import tempfile
import types


def main():
    argc = 7 if len(sys.argv) > 5 and sys.argv[5] == 'qssf' else 6
    if len(sys.argv) != argc or sys.argv[5] not in ('fifo', 'sjf', 'srtf', 'qssf'):
        sys.exit(__doc__.split('\n\n')[-1])
    qssf_dir, path, vc_name, nodes, policy = sys.argv[1:6]
    qssf_dir, path = os.path.abspath(qssf_dir), os.path.abspath(path)
    sys.path.insert(0, qssf_dir)
    try:
        import pandas  # noqa: F401
        have_pandas = True
    except ImportError:
        sys.modules['pandas'] = types.ModuleType('pandas')
        have_pandas = False
    import cluster
    from job import Job, Trace
    import policies.policy as pol
    from policies import FirstInFirstOut, ShortestJobFirst, ShortestRemainingTimeFirst

    class Row(dict):
        def to_dict(self):
            return dict(self)

    def log_recorder(self, name):
        for j in self.trace.job_list:
            print(j['jobname'], j['end_time'] - j['submit_time'], j['end_time'])

    pol.Policy.log_recorder = log_recorder
    pol.Policy.seq_recorder = lambda self: None
    pol.Policy.runtime_log = lambda self: None

    trace = Trace()
    with open(path) as f:
        for line_no, r in enumerate(csv.DictReader(f), 2):
            try:
                gpus, submit = int(r['gpus']), int(float(r['submit_time']))
                duration = int(float(r['duration']))
            except (KeyError, TypeError, ValueError) as e:
                sys.exit(f'{path}:{line_no}: {e}')
            trace.append_job(Job(Row(
                jobname=int(r['id']), vc=vc_name, user=r['user'], gpu_num=gpus, submit_time=submit,
                duration=duration, remain=duration, start_time=sys.maxsize,
                end_time=sys.maxsize, ckpt_times=0, queue=0, jct=0, status=None,
                state='COMPLETED')))
    trace.sort_jobs('submit_time')
    vc = cluster.VC(vc_name, int(nodes), 8, 96)
    if policy == 'qssf':
        qssf(trace, vc, os.path.abspath(sys.argv[6]), have_pandas)
        return
    cls = {'fifo': FirstInFirstOut, 'sjf': ShortestJobFirst,
           'srtf': ShortestRemainingTimeFirst}[policy]
    cls(trace, vc, 'consolidate', tempfile.gettempdir(), None, 0).simulate()


class StandIn:
    """PhillyEstimator's answer without pandas: the priority of the first
    row whose jobname is the job's, times its GPUs."""
    name = 'PhillyEstimator'

    def __init__(self, path):
        self.priority = {}
        with open(path, newline='') as f:
            for line_no, r in enumerate(csv.DictReader(f), 2):
                try:
                    self.priority.setdefault(int(r['jobname']), int(r['priority']))
                except (KeyError, TypeError, ValueError) as e:
                    sys.exit(f'{path}:{line_no}: {e}')

    def inference(self, job):
        return self.priority[job['jobname']] * job['gpu_num']


def qssf(trace, vc, predictions, have_pandas):
    """Its QuasiShortestServiceFirst with its PhillyEstimator on predictions."""
    from policies import QuasiShortestServiceFirst
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, 'estimators'))
        os.symlink(predictions, os.path.join(d, 'estimators', 'Philly_lgb.csv'))
        os.chdir(d)
        if have_pandas:
            from estimators import PhillyEstimator
            estimator = PhillyEstimator(None)
        else:
            estimator = StandIn(predictions)
        QuasiShortestServiceFirst(trace, vc, 'consolidate', d, None, 0, estimator).simulate()


if __name__ == '__main__':
    main()
