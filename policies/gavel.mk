# policies/gavel.mk: Gavel's LP policies, its round mechanism, AlloX (GLPK).
libmlsched_a_SOURCES += policies/gavel_lp.h policies/gavel_lp.c \
	policies/gavel_round.h policies/gavel_round.c policies/gavel.c policies/allox.c
check_PROGRAMS += tests/test_gavel
TESTS += tests/test_gavel
tests_test_gavel_CFLAGS = $(TEST_CFLAGS)
tests_test_gavel_LDADD = $(TEST_LIBS)
