# sim/plot.mk: mlsched plot and its gnuplot scripts.
libmlsched_a_SOURCES += sim/cmd-plot.c sim/cmd-regress.c
plotsdir = $(pkgdatadir)/plots
dist_plots_DATA = scripts/plots/jct_cdf.gp scripts/plots/ftf_cdf.gp \
	scripts/plots/relative_bars.gp scripts/plots/timeline.gp scripts/plots/jct_vs_load.gp \
	scripts/plots/user_share.gp
TESTS += tests/plot.sh
EXTRA_DIST += tests/plot.sh
TESTS += tests/regress.sh
EXTRA_DIST += tests/regress.sh tests/golden tests/fixtures/regress
