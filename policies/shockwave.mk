# policies/shockwave.mk: the Shockwave policy (dynamic market, GLPK program,
# Bayesian batch-change predictor), its unit tests and its decision-time bench.
libmlsched_a_SOURCES += policies/shockwave.h policies/shockwave.c policies/shockwave_market.c
check_PROGRAMS += tests/test_shockwave
TESTS += tests/test_shockwave
tests_test_shockwave_CFLAGS = $(TEST_CFLAGS)
tests_test_shockwave_LDADD = $(TEST_LIBS)
# bench/shockwave_decide: decision time with many active jobs (built by make check, not run).
check_PROGRAMS += bench/shockwave_decide
bench_shockwave_decide_LDADD = $(MLS_LIBS)
