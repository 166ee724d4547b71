# policies/gavel.mk: Gavel's LP policies, its round mechanism, AlloX (GLPK).
libmlsched_a_SOURCES += policies/gavel_lp.h policies/gavel_lp.c policies/gavel_farkas.c \
	policies/gavel_round.h policies/gavel_round.c policies/gavel.h policies/gavel.c \
	policies/gavel_max_min_fairness.c policies/gavel_max_min_fairness_perf.c \
	policies/gavel_max_min_fairness_packed.c policies/gavel_finish_time_fairness.c \
	policies/gavel_min_total_duration.c policies/gavel_max_sum_throughput.c \
	policies/gavel_fifo_perf.c policies/allox.c policies/gavel_assign.c policies/gavel_warm.h \
	policies/gavel_warm.c
check_PROGRAMS += tests/test_gavel
TESTS += tests/test_gavel
tests_test_gavel_CFLAGS = $(TEST_CFLAGS)
tests_test_gavel_LDADD = $(TEST_LIBS)
# bench/gavel_decide: decision time with 2,000 active jobs (built by make check, not run).
check_PROGRAMS += bench/gavel_decide
bench_gavel_decide_LDADD = $(MLS_LIBS)
# Shockwave's six baselines on its real trace against its figure (skipped without shared/data).
TESTS += tests/shockwave_baselines.sh
EXTRA_DIST += tests/shockwave_baselines.sh
