# bench/: performance benchmarks (not run by make check).
