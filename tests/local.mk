# tests/: unit tests (Check) and end-to-end scripts.
