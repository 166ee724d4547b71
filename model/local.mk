# model/: the ground floor: the types and their file formats, on which every other
# folder builds and which include nothing above them: util (errors, checked
# allocation, parsers), strtab, csv and JSON helpers, the trace, the cluster, the perf
# model and its backends (table, Pollux model and catalog, profiled curves and their
# catalog).
libmlsched_a_SOURCES += model/cluster.c model/cluster.h model/csv.c model/csv.h model/curve_catalog.c \
	model/curve_catalog.h model/curves.c model/curves.h model/datadir.c model/datadir.h model/json_util.c model/json_util.h \
	model/perf.c model/perf.h model/perf_curves.c model/perf_pollux.c model/perf_pollux.h \
	model/perf_table.c model/pollux_catalog.c model/pollux_catalog.h model/pollux_model.c \
	model/pollux_model.h model/pollux_measured.c model/pollux_measured.h model/samples.c model/samples.h model/strtab.c model/strtab.h model/trace.c model/trace.h \
	model/util.c model/util.h
