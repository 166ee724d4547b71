# JCT CDF per run. Variables set by `mlsched plot` above this line:
#   datafile (blocks of "jct_hours cdf", one per run), titles, nruns, out, term
set terminal @term
set output out
set xlabel "Job completion time (hours)"
set ylabel "Fraction of jobs"
set logscale x
set yrange [0:1]
set key bottom right
set grid
plot for [i=0:nruns-1] datafile index i using 1:2 with lines lw 2 dt 1+(word(oracle, i+1) eq "1") title word(titles, i+1)
