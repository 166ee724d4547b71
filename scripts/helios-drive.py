#!/usr/bin/env python3
"""helios-drive.py: runs HeliosArtifact's QSSF-service simulator on one VC of a
canonical mlsched trace and prints each job's "id jct end" (issue 17).

The artifact's own entry point (simulator.py) reads its Philly cluster_log.csv
and a pickled VC table through pandas and writes CSV logs; this driver builds
the same Trace of Jobs and the same VC from a canonical trace (id, submit_time,
gpus, duration: a job runs its traced duration) and replaces only the three
recorders (log, sequence, progress), so the policies (fifo, sjf, srtf), the
cluster, the consolidate placer and the 1 s loop run unchanged. pandas is
imported by policy.py but used only by the recorders: a stub module is put on
the path when pandas is absent.

    helios-drive.py "HELIOS/framework/QSSF Service" VC.csv VC NODES fifo|sjf|srtf
"""
import csv
import os
import sys
import tempfile
import types


def main():
    if len(sys.argv) != 6 or sys.argv[5] not in ('fifo', 'sjf', 'srtf'):
        sys.exit(__doc__.split('\n\n')[-1])
    qssf_dir, path, vc_name, nodes, policy = sys.argv[1:]
    sys.path.insert(0, qssf_dir)
    try:
        import pandas  # noqa: F401
    except ImportError:
        sys.modules['pandas'] = types.ModuleType('pandas')
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
                jobname=r['id'], vc=vc_name, user=r['user'], gpu_num=gpus, submit_time=submit,
                duration=duration, remain=duration, start_time=sys.maxsize,
                end_time=sys.maxsize, ckpt_times=0, queue=0, jct=0, status=None,
                state='COMPLETED')))
    trace.sort_jobs('submit_time')
    vc = cluster.VC(vc_name, int(nodes), 8, 96)
    cls = {'fifo': FirstInFirstOut, 'sjf': ShortestJobFirst,
           'srtf': ShortestRemainingTimeFirst}[policy]
    cls(trace, vc, 'consolidate', tempfile.gettempdir(), None, 0).simulate()


if __name__ == '__main__':
    main()
