set terminal pngcairo size 1000,400 font ",10"
set output "deeppool.png"
set multiplot layout 1,2
set grid
set key top left
set logscale x 2
set xtics (2, 4, 8, 16)
set xrange [1.8:18]
set xlabel "GPUs (one foreground job strong-scaled over all)"
set ylabel "cluster throughput (one-GPU equivalents)"
plot for [p in "dp burst deeppool"] "< awk '$1 == \"".p."\"' deeppool.dat" using 2:4 with linespoints title p, \
     "< awk '$1 == \"deeppool\"' deeppool.dat" using 2:6 with lines dashtype 2 title "deeppool (model)"
set ylabel "cluster throughput / data parallel"
set yrange [0:*]
plot "< awk '$1 == \"dp\" { d[$2] = $4 } $1 == \"deeppool\" { print $2, $4 / d[$2] }' deeppool.dat" \
       using 1:2 with linespoints title "DeepPool / DP", \
     "< awk '$1 == \"dp\" { d[$2] = $4 } $1 == \"burst\" { print $2, $4 / d[$2] }' deeppool.dat" \
       using 1:2 with linespoints title "burst only / DP", \
     1.2 with lines lw 2 dashtype 2 lc rgb "gray40" title "paper: 1.2-2.3x", \
     2.3 with lines lw 2 dashtype 2 lc rgb "gray40" notitle
unset multiplot
