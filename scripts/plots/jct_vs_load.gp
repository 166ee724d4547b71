# Average JCT vs arrival rate, mean over seeds with a 95 % confidence band.
set terminal @term
set output out
set xlabel "Input rate (jobs/hour)"
set ylabel "Average JCT (hours)"
set key top left
set grid
set style fill transparent solid 0.2 noborder
plot for [i=0:npol-1] datafile index i using 1:3:4 with filledcurves lc i+1 notitle, \
     for [i=0:npol-1] datafile index i using 1:2 with linespoints lc i+1 lw 2 title word(titles, i+1)
