set terminal pngcairo size 1000,400 font ",10"
set output "saxena.png"
set multiplot layout 1,2
set key bottom right
set grid
set xlabel "arrival rate (jobs/h)"
set ylabel "jobs completed in 8 h"
plot for [p in "elastic-dp elastic-fixed-batch fifo"] "< awk '$1 == \"".p."\"' saxena.dat"      using 2:3 with linespoints title p
set ylabel "average JCT (h)"
set key top left
set logscale y
plot for [p in "elastic-dp elastic-fixed-batch fifo"] "< awk '$1 == \"".p."\"' saxena.dat"      using 2:5 with linespoints title p
unset multiplot
