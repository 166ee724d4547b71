# JCT CDF, one line per policy. Variables set by `mlsched plot` above this line:
#   datafile (blocks of "jct_hours cdf", one per policy), n, name[i], line style
#   i (the policy's fixed style), mstep[i]/moff[i] (which points get markers),
#   key_x (where the key column starts), figtitle, out, term
set terminal @term
set output out
set title figtitle noenhanced font ",12"
set xlabel "Job completion time (hours)"
set ylabel "Fraction of jobs"
set logscale x
set yrange [0:1]
set grid
set rmargin at screen key_x
set key at screen key_x + 0.01, graph 1 left top Left reverse noenhanced samplen 3
plot for [i=1:n] datafile index i-1 using 1:2 with steps ls i notitle, \
     for [i=1:n] datafile index i-1 every mstep[i]::moff[i] using 1:2 with points ls i notitle, \
     for [i=1:n] keyentry with linespoints ls i title name[i]
