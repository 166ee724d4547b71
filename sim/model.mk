# sim/model.mk
# Perf models beyond the table: the Pollux backend and its catalog builder,
# batch-size adaptation, `mlsched model`; their tests.
libmlsched_a_SOURCES += sim/perf_pollux.c sim/perf_pollux.h sim/adapt.c sim/adapt.h \
	sim/pollux_catalog.c sim/pollux_catalog.h sim/cmd-model.c
check_PROGRAMS += tests/test_perf_models
TESTS += tests/test_perf_models
tests_test_perf_models_SOURCES = tests/test_perf_models.c tests/engine_fixture.c \
	tests/engine_fixture.h
tests_test_perf_models_CFLAGS = $(TEST_CFLAGS)
tests_test_perf_models_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/fixtures/pollux
TESTS += tests/model_fit.sh
EXTRA_DIST += tests/model_fit.sh
TESTS += tests/alone_duration.sh
EXTRA_DIST += tests/alone_duration.sh
