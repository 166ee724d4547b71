# policies/polb.mk: Tiresias (2D-LAS, 2D-Gittins), Optimus, DRF and QSSF, and
# their unit tests (tests/test_polb.c).
libmlsched_a_SOURCES += policies/idmap.h policies/idmap.c policies/tiresias.c \
	policies/optimus.c policies/drf.c policies/qssf.c
check_PROGRAMS += tests/test_polb
TESTS += tests/test_polb
tests_test_polb_CFLAGS = $(TEST_CFLAGS)
tests_test_polb_LDADD = $(TEST_LIBS)
TESTS += tests/polb_drf.sh
EXTRA_DIST += tests/polb_drf.sh tests/fixtures/polb
