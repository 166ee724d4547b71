# GPU utilization and queue length over time. Variables set by `mlsched plot`
# above this line: datafile (blocks of "hours util% queued", one per policy),
# marks (markers: each series at its own evenly spaced times), n, name[i],
# color[i], line style i, mstep/moff[i], xlo/xhi (the window:
# measured jobs to their 99th-percentile finish), xnote, logtime, qmax,
# panels (0: two panels with every policy; 1: one small panel per policy in
# a rows x cols grid), key_x, figtitle, out, term
set terminal @term
set output out
set grid
set xrange [xlo:xhi]
if (logtime) { set logscale x }
if (!panels) {
    set multiplot title figtitle noenhanced font ",12"
    set lmargin 9
    set rmargin at screen key_x
    set key at screen key_x + 0.01, screen 0.9 left top Left reverse noenhanced samplen 3
    set size 1, 0.47
    set origin 0, 0.47
    set format x ""
    set ylabel "GPU utilization (%)"
    set yrange [0:105]
    plot for [i=1:n] datafile index i-1 using 1:2 with steps ls i notitle, \
         for [i=1:n] marks index i-1 using 1:2 with points ls i notitle, \
         for [i=1:n] keyentry with linespoints ls i title name[i]
    unset key
    set origin 0, 0
    set size 1, 0.5
    set format x "%g"
    set xlabel xnote
    set ylabel "Queued jobs"
    set yrange [0:qmax]
    plot for [i=1:n] datafile index i-1 using 1:3 with steps ls i notitle, \
         for [i=1:n] marks index i-1 using 1:3 with points ls i notitle
    unset multiplot
} else {
    set multiplot layout rows, cols margins 0.04, 0.96, 0.04, 0.9 spacing 0.045, 0.05 \
        title figtitle."\nfilled: GPU utilization (%, left axis); black line: queued jobs (right axis)\n".xnote noenhanced font ",14"
    set yrange [0:100]
    set y2range [0:qmax]
    set ytics 25 nomirror
    set y2tics qstep nomirror
    set xtics nomirror
    unset key
    set tics font ",11"
    do for [i=1:n] {
        set title name[i] noenhanced font ",13" offset 0, -0.5
        plot datafile index i-1 using 1:2 with fillsteps fs transparent solid 0.45 lc rgb color[i], \
             '' index i-1 using 1:2 with steps lc rgb color[i] lw 1.5, \
             '' index i-1 using 1:3 axes x1y2 with steps lc rgb "#000000" lw 1.2
    }
    unset multiplot
}
