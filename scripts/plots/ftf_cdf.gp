# Finish-time fairness (rho) CDF, one line per policy; rho = 1 is the isolated
# share. Variables as in jct_cdf.gp (set by `mlsched plot` above this line).
set terminal @term
set output out
set title figtitle noenhanced font ",12"
set xlabel "Finish-time fairness ρ (JCT / isolated-share time)"
set ylabel "Fraction of jobs"
set logscale x
set yrange [0:1]
set grid
set rmargin at screen key_x
set key at screen key_x + 0.01, graph 1 left top Left reverse noenhanced samplen 3
set arrow from 1, graph 0 to 1, graph 1 nohead dt 3 lc rgb "#555555"
plot for [i=1:n] datafile index i-1 using 1:2 with steps ls i notitle, \
     for [i=1:n] datafile index i-1 every mstep[i]::moff[i] using 1:2 with points ls i notitle, \
     for [i=1:n] keyentry with linespoints ls i title name[i]
