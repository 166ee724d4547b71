# traces/: importers of public traces into the canonical job list (model/trace.h),
# their records, presets and workload mapping, the synthetic generator, trace stats;
# the bundled workload catalog, clusters and sample traces.
libmlsched_a_SOURCES += traces/generate.c traces/generate.h traces/import.c traces/import.h \
	traces/import_gavel.c traces/import_helios.c traces/import_itp.c traces/import_openb.c \
	traces/import_pai.c traces/import_philly.c traces/import_prod.c traces/import_prod.h \
	traces/import_readers.h traces/import_rows.c traces/import_rows.h \
	traces/import_workloads.c traces/mapping.c traces/mapping.h traces/pollux_apps.c \
	traces/pollux_apps.h traces/records.c traces/records.h traces/stats.c traces/stats.h
EXTRA_DIST += traces/catalog traces/clusters traces/samples
