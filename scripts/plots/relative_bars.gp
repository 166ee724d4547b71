# Average JCT, makespan, worst rho and unfair fraction relative to the
# baseline: one panel per metric, one horizontal bar per policy in its colour
# with its value written at its end. Variables set by `mlsched plot` above
# this line: datafile (rows "y \"policy\" rgb avg_jct makespan worst_rho
# unfair"), n, left (the names' margin), bottom, top, and per metric m: mtitle[m],
# mrel[m] (1: relative, the baseline's 1 dashed; 0: absolute, as when the
# baseline's value is 0), mlog[m] (a log axis: one bar dominates; relative
# bars then start at 1, so better goes left, worse right), xlo/xhi[m].
set terminal @term
set output out
set multiplot layout 1,4 margins screen left, 0.98, bottom, top spacing 0.02, 0 \
    title figtitle noenhanced font ",13"
set yrange [n + 0.6:0.4]
set ytics 1 scale 0 font ",12"
set grid xtics
unset key
set style fill solid 0.85 border lc rgb "#333333"
set xtics font ",11"
set style textbox opaque noborder margins 0.5, 0.5
# the value labels, the mark for a zero and "n/a" for a missing value
labels = "'' using (column(col) > 0 && column(col) >= x0 ? column(col) : NaN):1:(sprintf(fmt, column(col))) with labels boxed left offset char 0.4, 0 font ',11', " . \
         "'' using (column(col) > 0 && column(col) < x0 ? column(col) : NaN):1:(sprintf(fmt, column(col))) with labels boxed right offset char -0.4, 0 font ',11', " . \
         "'' using (column(col) == 0 ? (mlog[m] ? xlo[m] : 0) : NaN):1 with points pt 6 ps 1.6 lw 2 lc rgb '#000000', " . \
         "'' using (column(col) == 0 ? (mlog[m] ? xlo[m] : 0) : NaN):1:('0') with labels left offset char 1.2, 0 font ',11', " . \
         "'' using (column(col) != column(col) ? x0 : NaN):1:('n/a') with labels boxed left offset char 0.4, 0 font ',11'"
bar(v) = mlog[m] && v <= 0 ? NaN : v < x0 ? v : x0
end(v) = v < x0 ? x0 : v
do for [m=1:4] {
    col = 3 + m
    x0 = mlog[m] ? (mrel[m] ? 1 : xlo[m]) : 0
    fmt = mrel[m] ? "%.2f" : "%.3g"
    set title mtitle[m] enhanced font ",13"
    if (mlog[m]) { set logscale x } else { unset logscale x }
    set xrange [xlo[m]:xhi[m]]
    unset arrow
    if (mrel[m]) { set arrow from 1, graph 0 to 1, graph 1 nohead back dt 2 lw 1.5 lc rgb "#444444" }
    if (m == 1) {
        plot datafile using (mlog[m] && column(col) <= 0 ? NaN : x0):1:(bar(column(col))):(end(column(col))):($1 - 0.38):($1 + 0.38):3:ytic(2) \
             with boxxyerror lc rgb variable, @labels
    } else {
        set ytics format ""
        plot datafile using (mlog[m] && column(col) <= 0 ? NaN : x0):1:(bar(column(col))):(end(column(col))):($1 - 0.38):($1 + 0.38):3 \
             with boxxyerror lc rgb variable, @labels
    }
}
unset multiplot
