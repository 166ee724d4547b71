# policies/gandiva_paper.mk: the Gandiva paper's policy (time-slicing,
# packing, migration, grow-shrink, introspection) and its unit tests
# (tests/test_gandiva_paper.c, run on the engine with a hand-made perf model).
libmlsched_a_SOURCES += policies/gandiva_paper.c
check_PROGRAMS += tests/test_gandiva_paper
TESTS += tests/test_gandiva_paper
tests_test_gandiva_paper_SOURCES = tests/test_gandiva_paper.c tests/engine_fixture.c \
	tests/engine_fixture.h
tests_test_gandiva_paper_CFLAGS = $(TEST_CFLAGS)
tests_test_gandiva_paper_LDADD = $(TEST_LIBS)
TESTS += tests/gandiva_paper.sh
EXTRA_DIST += tests/gandiva_paper.sh scripts/gandiva-paper.sh
TESTS += tests/live_gandiva_paper.sh
EXTRA_DIST += tests/live_gandiva_paper.sh
