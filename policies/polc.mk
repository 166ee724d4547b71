# policies/polc.mk: Themis, Gandiva-Fair and Gandiva, and their unit tests.
libmlsched_a_SOURCES += policies/placement.h policies/placement.c policies/themis.c policies/gandiva_fair.c policies/gandiva.c
check_PROGRAMS += tests/test_polc
TESTS += tests/test_polc
tests_test_polc_CFLAGS = $(TEST_CFLAGS)
tests_test_polc_LDADD = $(TEST_LIBS)
