# GPU utilization and queue length over time, one line per run.
set terminal @term
set output out
set multiplot layout 2,1
set xlabel "Time (hours)"
set ylabel "GPU utilization (%)"
set yrange [0:100]
set key outside right
set grid
plot for [i=0:nruns-1] datafile index i using 1:2 with steps lw 1.5 title word(titles, i+1)
set ylabel "Queued jobs"
set yrange [0:*]
plot for [i=0:nruns-1] datafile index i using 1:3 with steps lw 1.5 title word(titles, i+1)
unset multiplot
