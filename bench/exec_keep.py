#!/usr/bin/env python3
"""bench/exec_keep.py: an external policy that does (almost) no work: every
job holding GPUs keeps them. With bench/exec_decide it measures the protocol
alone: mlsched writing the view, this process reading it into View and Job
objects, writing the plan, mlsched reading it back."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bindings",
                                "python"))
import mlsched_policy as mp  # noqa: E402


class Keep(mp.Policy):
    name = "keep"
    cadence = ("events", "rounds")
    view_options = ("rates",)

    def schedule(self, view):
        plan = mp.Plan()
        for j in view.jobs:
            if j.cur_gpus:
                plan.run(j, j.cur_type, j.cur_gpus)
        return plan


if __name__ == "__main__":
    sys.exit(mp.run(Keep()))
