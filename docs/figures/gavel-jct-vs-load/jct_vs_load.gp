# Written by mlsched plot; edit the style below and run: gnuplot jct_vs_load.gp
term = "pngcairo size 1000,660 font \",14\""
out = "jct_vs_load.png"
datafile = "jct_vs_load.dat"
titles = "allox(oracle) fifo finish-time-fairness(oracle) gandiva max-min-fairness max-min-fairness-packed max-min-fairness-perf"
npol = 7
# Average JCT vs arrival rate, mean over seeds with a 95 % confidence band.
set terminal @term
set output out
set xlabel "Input rate (jobs/hour)"
set ylabel "Average JCT (hours)"
set yrange [0:200]  # fifo saturates far above (up to 1,836 h at 4 jobs/h); as Gavel's figure, the axis is cut
set key top left
set grid
set style fill transparent solid 0.2 noborder
plot for [i=0:npol-1] datafile index i using 1:3:4 with filledcurves lc i+1 notitle, \
     for [i=0:npol-1] datafile index i using 1:2 with linespoints lc i+1 lw 2 title word(titles, i+1)
