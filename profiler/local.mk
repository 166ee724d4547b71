# profiler/: curve files, the fitter, `mlsched profile`, and (with CUDA) the harness.
libmlsched_a_SOURCES += sim/cmd-profile.c
