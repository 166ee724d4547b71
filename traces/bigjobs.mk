# traces/bigjobs.mk: jobs larger than the perf model's measurements (issue 16,
# part 1): the fixture of the extrapolation tests (tests/test_import.c).
EXTRA_DIST += tests/fixtures/bigjobs
# The whole-Philly benchmark (bench/README.md) and its Philly-sized cluster.
EXTRA_DIST += bench/philly_full
