# Finish-time fairness (rho) CDF per run; rho = 1 is the isolated share.
set terminal @term
set output out
set xlabel "Finish-time fairness {/Symbol r} (JCT / isolated-share time)"
set ylabel "Fraction of jobs"
set logscale x
set yrange [0:1]
set key bottom right
set grid
set arrow from 1, graph 0 to 1, graph 1 nohead dt 3
plot for [i=0:nruns-1] datafile index i using 1:2 with lines lw 2 dt 1+(word(oracle, i+1) eq "1") title word(titles, i+1)
