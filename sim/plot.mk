# sim/plot.mk
