# sim/cmp.mk
