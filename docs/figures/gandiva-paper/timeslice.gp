set terminal pngcairo size 900,560 font "sans,13"
set output "timeslice.png"
set title "Six 1-GPU jobs (1 h each alone) on 4 V100s"
set xlabel "time (h)"
set ylabel "jobs finished"
set key left top
set grid
set yrange [0:6.5]
set xrange [0:2.2]
plot "slice-fifo.dat" using 1:2 with steps lw 2 title "fifo: 4 run, 2 wait", \
     "slice-gandiva.dat" using 1:2 with steps lw 3 title "gandiva-paper: all 6 time-sliced"
