# tests/: unit tests (Check) and end-to-end scripts of the engine and CLI.
check_PROGRAMS += tests/test_eventq tests/test_engine
TESTS += tests/test_eventq tests/test_engine
tests_test_eventq_CFLAGS = $(TEST_CFLAGS)
tests_test_eventq_LDADD = $(TEST_LIBS)
tests_test_engine_SOURCES = tests/test_engine.c tests/engine_fixture.c tests/engine_fixture.h
tests_test_engine_CFLAGS = $(TEST_CFLAGS)
tests_test_engine_LDADD = $(TEST_LIBS)
TESTS += tests/e2e_simulate.sh
EXTRA_DIST += tests/e2e_simulate.sh tests/fixtures/e2e
TESTS += tests/valgrind.sh
EXTRA_DIST += tests/valgrind.sh
check_PROGRAMS += tests/test_model
TESTS += tests/test_model
tests_test_model_CFLAGS = $(TEST_CFLAGS)
tests_test_model_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/fixtures/model
