# GPUs held by each user over time, as a share of the cluster (one run).
set terminal @term
set output out
set title runtitle noenhanced
set xlabel "Time (hours)"
set ylabel "Share of the cluster's GPUs (%)"
set yrange [0:100]
set key outside right noenhanced
set grid
plot for [i=0:nusers-1] datafile index i using 1:2 with steps lw 1.5 title word(users, i+1)
