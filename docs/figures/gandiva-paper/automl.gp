set terminal pngcairo size 900,560 font "sans,13"
set output "automl.png"
set title "AutoML: 48 one-GPU trials on 8 V100s (40 stopped at 10 min, 8 run 4 h)"
set xlabel "time (h)"
set ylabel "trials finished"
set key right bottom
set grid
set yrange [0:50]
plot "automl-fifo.dat" using 1:2 with steps lw 2 title "fifo", \
     "automl-noslice.dat" using 1:2 with steps lw 2 dt 2 title "gandiva-paper, no time-slicing", \
     "automl-gandiva.dat" using 1:2 with steps lw 3 title "gandiva-paper (60 s quanta)"
