# Average JCT vs arrival rate, mean over seeds with a 95 % confidence band in
# the policy's colour. Variables set by `mlsched plot` above this line:
# datafile (blocks of "rate mean lo hi", one per policy), n, name[i],
# color[i], line style i, key_x, figtitle, out, term
set terminal @term
set output out
set title figtitle noenhanced font ",12"
set xlabel "Input rate (jobs/hour)"
set ylabel "Average JCT (hours)"
set grid
set rmargin at screen key_x
set key at screen key_x + 0.01, graph 1 left top Left reverse noenhanced samplen 3
set style fill transparent solid 0.15 noborder
plot for [i=1:n] datafile index i-1 using 1:3:4 with filledcurves fc rgb color[i] notitle, \
     for [i=1:n] datafile index i-1 using 1:2 with linespoints ls i title name[i]
