# tests/harden.mk: inputs read exactly as written (issue 19): the unit
# suite of every reader's finding (NUL bytes, duplicate keys, trailing data,
# UTF-8, numbers and bounds) and the importers' cases as a shell test.
check_PROGRAMS += tests/test_harden
TESTS += tests/test_harden
tests_test_harden_CFLAGS = $(TEST_CFLAGS)
tests_test_harden_LDADD = $(TEST_LIBS)
TESTS += tests/harden_inputs.sh
EXTRA_DIST += tests/harden_inputs.sh
