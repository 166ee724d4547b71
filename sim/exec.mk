# sim/exec.mk: external policies (exec:PATH) over the view/plan protocol,
# the Python binding and its examples (docs/exec-policy.md).
libmlsched_a_SOURCES += sim/policy_exec.c sim/policy_exec.h
EXTRA_DIST += docs/exec-policy.md bindings/python/mlsched_policy.py \
	bindings/python/pyproject.toml examples/policies/fifo.py examples/policies/las.py \
	examples/policies/max_min.py bench/exec_keep.py
TESTS += tests/exec_policy.sh tests/live_exec.sh
EXTRA_DIST += tests/exec_policy.sh tests/exec_policy_2000.sh tests/live_exec.sh \
	tests/fixtures/exec/bad_policy.py tests/fixtures/exec/raise_policy.py \
	tests/fixtures/exec/trace6.csv
# bench/exec_decide: protocol time per decision (built by make check, not run).
check_PROGRAMS += bench/exec_decide
bench_exec_decide_LDADD = $(MLS_LIBS)
