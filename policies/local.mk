# policies/: policy.h (the whole API), the registry, one file per policy.
libmlsched_a_SOURCES += policies/policy.h policies/plan.c sim/cmd-policies.c
