# policies/: policy.h (the whole policy API), plan checks, the registry, one file per
# policy and the helpers they share. Includes nothing outside policies/.
libmlsched_a_SOURCES += policies/allox.c policies/autoscale.c policies/deeppool.c policies/drf.c \
	policies/elastic.c policies/elastic.h policies/fifo.c policies/fifo_backfill.c policies/gandiva.c \
	policies/gandiva_fair.c policies/gavel.c policies/gavel.h policies/gavel_assign.c \
	policies/gavel_center.c policies/gavel_farkas.c policies/gavel_fifo.c policies/gavel_fifo_perf.c policies/gavel_fifo_packed.c \
	policies/gavel_finish_time_fairness.c \
	policies/gavel_lp.c policies/gavel_lp.h policies/gavel_max_min_fairness.c \
	policies/gavel_max_min_fairness_packed.c policies/gavel_max_min_fairness_perf.c \
	policies/gavel_max_sum_throughput.c policies/gavel_min_total_duration.c \
	policies/gavel_round.c policies/gavel_round.h policies/gavel_share.c policies/gavel_share.h policies/gavel_warm.c \
	policies/gavel_warm.h policies/idmap.c policies/idmap.h policies/lsap.c policies/lsap.h policies/isolated.c \
	policies/las.c policies/optimus.c policies/pathways.c policies/placement.c policies/pyrandom.c policies/pyrandom.h \
	policies/placement.h policies/plan.c policies/policies.h policies/policy.h \
	policies/policy_util.c policies/policy_util.h policies/pollux.c policies/pollux.h \
	policies/qssf.c policies/registry.c policies/shockwave.c policies/shockwave.h \
	policies/shockwave_market.c policies/sjf.c policies/srtf.c policies/themis.c \
	policies/tiresias.c
libmlsched_a_SOURCES += policies/sia.c policies/sia.h
libmlsched_a_SOURCES += policies/gandiva_paper.c
