# scripts/: the dependency installer, the quick start, a private Slurm, and the gnuplot
# scripts `mlsched plot` runs (installed in $(pkgdatadir)/plots).
plotsdir = $(pkgdatadir)/plots
dist_plots_DATA = scripts/plots/jct_cdf.gp scripts/plots/ftf_cdf.gp \
	scripts/plots/relative_bars.gp scripts/plots/timeline.gp scripts/plots/jct_vs_load.gp \
	scripts/plots/user_share.gp
pkgdata_SCRIPTS = scripts/quickstart
EXTRA_DIST += scripts/install-deps scripts/install-check scripts/quickstart scripts/slurm \
	scripts/autoscale-knee.sh scripts/saxena-elastic.sh scripts/sia-table4.sh \
	scripts/gandiva-paper.sh scripts/deeppool.sh scripts/peer-agreement.sh \
	scripts/shockwave-baselines.sh scripts/gavel-jct-vs-load.sh scripts/helios-drive.py \
	scripts/helios-predictions.py
