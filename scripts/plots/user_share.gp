# GPUs held by each user over time, as a share of the cluster (one run).
# Variables set by `mlsched plot` above this line: datafile (blocks of
# "hours share%", one per user), users, nusers, xlo/xhi, xnote, logtime,
# key_x, figtitle, out, term. Users cycle through Paul Tol's muted palette
# (colour-blind safe) and four dash patterns.
set terminal @term
set output out
set title figtitle noenhanced font ",12"
set xlabel xnote
set ylabel "Share of the cluster's GPUs (%)"
set xrange [xlo:xhi]
if (logtime) { set logscale x }
set yrange [0:100]
set grid
array tol[9] = ["#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#882255", "#AA4499"]
array dash[4] = [1, 2, 3, 4]
set rmargin at screen key_x
set key at screen key_x + 0.01, graph 1 left top Left reverse noenhanced samplen 3
plot for [i=1:nusers] datafile index i-1 using 1:2 with steps lw 2 lc rgb tol[(i-1)%9+1] dt dash[((i-1)/9)%4+1] title word(users, i)
