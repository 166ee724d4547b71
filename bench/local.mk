# bench/: performance benchmarks and their recorded figures (README.md). The C ones
# are built by make check, never run by it.
check_PROGRAMS += bench/gavel_decide bench/pollux_decide
bench_gavel_decide_LDADD = $(MLS_LIBS)
bench_pollux_decide_LDADD = $(MLS_LIBS)
EXTRA_DIST += bench/import_alibaba

check_PROGRAMS += bench/shockwave_decide
bench_shockwave_decide_LDADD = $(MLS_LIBS)
check_PROGRAMS += bench/elastic_decide
bench_elastic_decide_LDADD = $(MLS_LIBS)
# The whole-Philly benchmark (bench/README.md).
EXTRA_DIST += bench/philly_full
EXTRA_DIST += bench/pollux_workloads
check_PROGRAMS += bench/sia_decide
bench_sia_decide_LDADD = $(MLS_LIBS)
check_PROGRAMS += bench/exec_decide
bench_exec_decide_LDADD = $(MLS_LIBS)
EXTRA_DIST += bench/exec_keep.py
# Two binaries, same results? (bench/README.md, issue 16 part 2)
EXTRA_DIST += bench/same_results
