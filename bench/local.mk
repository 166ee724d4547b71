# bench/: performance benchmarks (not run by make check).
EXTRA_DIST += bench/import_b
