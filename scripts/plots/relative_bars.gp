# Makespan, average JCT, worst rho and unfair fraction relative to the baseline.
set terminal @term
set output out
set ylabel sprintf("Relative to %s", baseline)
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -30
set key top left
set grid ytics
plot datafile using 2:xtic(1) title "avg JCT", '' using 3 title "makespan", '' using 4 title "worst {/Symbol r}", '' using 5 title "unfair fraction"
