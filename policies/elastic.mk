# policies/elastic.mk: the elastic seed schedulers of issue 14: Saxena et al.'s
# dynamic program (elastic-dp, elastic-fixed-batch) and Or et al.'s autoscaler
# (autoscale), their unit tests (tests/test_elastic.c) and decision-time bench.
libmlsched_a_SOURCES += policies/elastic.h policies/elastic.c policies/autoscale.c
check_PROGRAMS += tests/test_elastic
TESTS += tests/test_elastic
tests_test_elastic_CFLAGS = $(TEST_CFLAGS)
tests_test_elastic_LDADD = $(TEST_LIBS)
# Or et al.'s scenario (scripts/autoscale-knee.sh) as a test: the knee and a straggler.
TESTS += tests/autoscale_knee.sh
EXTRA_DIST += tests/autoscale_knee.sh scripts/autoscale-knee.sh scripts/saxena-elastic.sh \
	tests/fixtures/elastic/knee.json tests/fixtures/elastic/knee.csv tests/fixtures/elastic/slow.csv
# bench/elastic_decide: decision time with many active jobs (built by make check, not run).
check_PROGRAMS += bench/elastic_decide
bench_elastic_decide_LDADD = $(MLS_LIBS)
