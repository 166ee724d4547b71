# sim/model.mk
