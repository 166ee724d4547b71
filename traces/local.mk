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
# Installed under $(pkgdatadir), where an installed mlsched finds them (model/datadir.h).
catalogdir = $(pkgdatadir)/catalog
catalog_DATA = traces/catalog/default-throughputs.json traces/catalog/pollux.json traces/catalog/h100.json \
	traces/catalog/README.md
clustersdir = $(pkgdatadir)/clusters
clusters_DATA = traces/clusters/2000gpu.json traces/clusters/36v100.json \
	traces/clusters/gavel-108.json traces/clusters/philly-352x8.json \
	traces/clusters/pollux-64t4.json traces/clusters/shockwave-32v100.json \
	traces/clusters/sia-64.json traces/clusters/sia-hetero-64.json traces/clusters/h100-4x8.json \
	traces/clusters/README.md
samplesdir = $(pkgdatadir)/samples
samples_DATA = traces/samples/gavel-mix-200.csv traces/samples/README.md
