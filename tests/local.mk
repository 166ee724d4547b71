# tests/: unit tests (Check: one program per suite, linked with the library) and
# end-to-end scripts, by the folder they test, with their fixtures and goldens.
# Unit tests link Check and the library (TEST_CFLAGS, TEST_LIBS: Makefile.am).

# The order make check runs the tests in (make -j2 in CI). The Slurm tests take
# turns, one private Slurm at a time (tests/slurm_serial.sh's lock): together
# the longest chain of make check (about 8 min). One make (mls-slurm-chain, a
# make -j1 in one job slot) runs them one after the other from the start, in
# the order of mls_slurm_tests; the other tests share the other slot (both
# once the chain is done), the longest first (mls_first_tests), the rest in
# TESTS order. The outer make's recipe for a Slurm test's log runs nothing
# (LOG_DRIVER = :, private: not for its prerequisites): it waits for the chain. (Before, the Slurm logs were
# chained by make prerequisites: make defers a log whose prerequisite is
# running to the end of its pass over the logs, so the chain's tests after
# the second ran one at a time at the end, the other slot idle: 2-5 min.)
# A new Slurm test: add it to mls_slurm_tests (it still goes in TESTS). A new
# test that takes over ~20 s: add it to mls_first_tests, by its time. These
# rules use TEST_LOGS as make check (check-TESTS, recheck) passes it: every
# log to make, on the command line.
TESTS += tests/live_slurm.sh
mls_slurm_tests = live_slurm live_slurm_pack live_pollux_slurm slurm_array \
	live_elastic_slurm live_exec_slurm live_mech_slurm live_async_slurm
mls_first_tests = valgrind.sh sia_paper.sh peer_agreement_th.sh live_pollux.sh live_e2e.sh \
	live_exec.sh live_crash.sh exec_policy.sh live_pack.sh model_fit.sh live_elastic.sh \
	live_gandiva_paper.sh live_async_stop.sh live_gang.sh
mls_slurm_logs = $(filter $(mls_slurm_tests:%=tests/%.sh.log),$(TEST_LOGS))
mls_first_logs = $(foreach t,$(mls_first_tests),$(filter tests/$(t).log,$(TEST_LOGS)))
mls_first_log = $(firstword $(TEST_LOGS))
mls-slurm-chain:
	@$(MAKE) $(AM_MAKEFLAGS) MLS_SLURM_CHAIN=1 $(mls_slurm_logs)
.PHONY: mls-slurm-chain
# (Rules of their own naming the logs would replace Automake's rules for them,
# so make functions write them; Automake passes those through. The inner make,
# MLS_SLURM_CHAIN=1, has none of them: it runs the Slurm tests' own rules, one
# at a time. The outer make reaches the first log first: its prerequisites
# start the chain and the longest tests.)
$(eval $(if $(MLS_SLURM_CHAIN),.NOTPARALLEL:))
$(eval $(if $(MLS_SLURM_CHAIN),,$(if $(mls_slurm_logs),$(mls_slurm_logs): private LOG_DRIVER = :)))
$(eval $(if $(MLS_SLURM_CHAIN),,$(if $(mls_slurm_logs),$(mls_slurm_logs): mls-slurm-chain)))
$(eval $(if $(MLS_SLURM_CHAIN)$(if $(mls_first_log),,none),,$(mls_first_log): \
	$(if $(mls_slurm_logs),mls-slurm-chain) $(filter-out $(mls_first_log),$(mls_first_logs))))

# the layers: a file includes its own folder or a lower floor, naming the folder
TESTS += tests/layers.sh
EXTRA_DIST += tests/layers.sh

# model/
check_PROGRAMS += tests/test_model tests/test_pollux tests/test_curves
TESTS += tests/test_model tests/test_pollux tests/test_curves
tests_test_model_CFLAGS = $(TEST_CFLAGS)
tests_test_model_LDADD = $(TEST_LIBS)
tests_test_pollux_CFLAGS = $(TEST_CFLAGS)
tests_test_pollux_LDADD = $(TEST_LIBS)
tests_test_curves_CFLAGS = $(TEST_CFLAGS)
tests_test_curves_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/fixtures/model tests/fixtures/pollux

# policies/
check_PROGRAMS += tests/test_policies tests/test_gavel tests/test_tiresias_optimus_drf \
	tests/test_themis_gandiva tests/test_pollux_policy
TESTS += tests/test_policies tests/test_gavel tests/test_tiresias_optimus_drf \
	tests/test_themis_gandiva tests/test_pollux_policy
tests_test_policies_CFLAGS = $(TEST_CFLAGS)
tests_test_policies_LDADD = $(TEST_LIBS)
tests_test_gavel_CFLAGS = $(TEST_CFLAGS)
tests_test_gavel_LDADD = $(TEST_LIBS)
tests_test_tiresias_optimus_drf_CFLAGS = $(TEST_CFLAGS)
tests_test_tiresias_optimus_drf_LDADD = $(TEST_LIBS)
tests_test_themis_gandiva_CFLAGS = $(TEST_CFLAGS)
tests_test_themis_gandiva_LDADD = $(TEST_LIBS)
tests_test_pollux_policy_CFLAGS = $(TEST_CFLAGS)
tests_test_pollux_policy_LDADD = $(TEST_LIBS)
TESTS += tests/policies_cli.sh tests/drf_cpus.sh tests/pollux_policy.sh tests/pollux_paper.sh \
	tests/shockwave_baselines.sh
EXTRA_DIST += tests/policies_cli.sh tests/drf_cpus.sh tests/fixtures/drf tests/pollux_policy.sh \
	tests/pollux_paper.sh tests/shockwave_baselines.sh

# traces/
check_PROGRAMS += tests/test_import tests/test_import_readers
TESTS += tests/test_import tests/test_import_readers
tests_test_import_CFLAGS = $(TEST_CFLAGS)
tests_test_import_LDADD = $(TEST_LIBS)
tests_test_import_readers_CFLAGS = $(TEST_CFLAGS)
tests_test_import_readers_LDADD = $(TEST_LIBS)
TESTS += tests/import_gavel.sh tests/import_prod.sh tests/import_readers.sh
EXTRA_DIST += tests/import_gavel.sh tests/fixtures/import tests/import_prod.sh \
	tests/fixtures/import_prod tests/import_readers.sh tests/fixtures/import_readers

# profiler/: `profile run|fit` end to end against a fake training job and a fake NVML
check_PROGRAMS += tests/fake_train tests/libfake-nvml.so
tests_fake_train_SOURCES = tests/fake_train.c
tests_libfake_nvml_so_SOURCES = tests/fake_nvml.c
tests_libfake_nvml_so_CFLAGS = $(AM_CFLAGS) -fPIC
tests_libfake_nvml_so_LDFLAGS = -shared
TESTS += tests/profile.sh tests/gpu_bench.sh
EXTRA_DIST += tests/profile.sh tests/gpu_bench.sh
# curves backend: measured pair rates (pair files -> catalog "pairs" -> packing)
TESTS += tests/curve_pairs.sh
EXTRA_DIST += tests/curve_pairs.sh tests/fixtures/curve_pairs

# sim/
check_PROGRAMS += tests/test_eventq tests/test_engine tests/test_perf_models tests/test_results \
	tests/test_runner
TESTS += tests/test_eventq tests/test_engine tests/test_perf_models tests/test_results \
	tests/test_runner
tests_test_eventq_CFLAGS = $(TEST_CFLAGS)
tests_test_eventq_LDADD = $(TEST_LIBS)
tests_test_engine_SOURCES = tests/test_engine.c tests/engine_fixture.c tests/engine_fixture.h
tests_test_engine_CFLAGS = $(TEST_CFLAGS)
tests_test_engine_LDADD = $(TEST_LIBS)
tests_test_perf_models_SOURCES = tests/test_perf_models.c tests/engine_fixture.c \
	tests/engine_fixture.h
tests_test_perf_models_CFLAGS = $(TEST_CFLAGS)
tests_test_perf_models_LDADD = $(TEST_LIBS)
tests_test_results_CFLAGS = $(TEST_CFLAGS)
tests_test_results_LDADD = $(TEST_LIBS)
tests_test_runner_CFLAGS = $(TEST_CFLAGS)
tests_test_runner_LDADD = $(TEST_LIBS)
TESTS += tests/e2e_simulate.sh tests/valgrind.sh tests/model_fit.sh tests/alone_duration.sh \
	tests/regress.sh
EXTRA_DIST += tests/e2e_simulate.sh tests/fixtures/e2e tests/valgrind.sh tests/model_fit.sh \
	tests/alone_duration.sh tests/regress.sh tests/golden tests/fixtures/regress

# live/
check_PROGRAMS += tests/test_live tests/test_live_pack tests/test_live_batch
TESTS += tests/test_live tests/test_live_pack tests/test_live_batch
tests_test_live_CFLAGS = $(TEST_CFLAGS)
tests_test_live_LDADD = $(TEST_LIBS)
tests_test_live_pack_CFLAGS = $(TEST_CFLAGS)
tests_test_live_pack_LDADD = $(TEST_LIBS)
tests_test_live_batch_CFLAGS = $(TEST_CFLAGS)
tests_test_live_batch_LDADD = $(TEST_LIBS)
TESTS += tests/live_e2e.sh tests/live_crash.sh tests/live_requests.sh \
	tests/live_pack.sh tests/live_pack_crash.sh tests/live_slurm_pack.sh tests/live_pollux.sh \
	tests/live_pollux_slurm.sh
EXTRA_DIST += tests/live_e2e.sh tests/fixtures/live tests/live_crash.sh tests/live_requests.sh \
	tests/live_slurm.sh tests/slurm_serial.sh tests/live_pack.sh tests/live_pack_crash.sh \
	tests/live_slurm_pack.sh tests/live_pollux.sh tests/live_pollux_slurm.sh

# cli/
check_PROGRAMS += tests/test_cli
TESTS += tests/test_cli
tests_test_cli_SOURCES = tests/test_cli.c tests/check_main.h
tests_test_cli_CFLAGS = $(TEST_CFLAGS)
tests_test_cli_LDADD = $(TEST_LIBS)
TESTS += tests/compare.sh tests/slurm_array.sh tests/plot.sh tests/html_report.sh tests/report_live.sh
EXTRA_DIST += tests/compare.sh tests/slurm_array.sh tests/plot.sh tests/html_report.sh tests/report_live.sh

# The options parser, the shared mechanism, Pathways' gangs (simulated and live),
# concurrent clients of the live daemon, Shockwave, the elastic policies.
check_PROGRAMS += tests/test_opts
TESTS += tests/test_opts
tests_test_opts_SOURCES = tests/test_opts.c tests/check_main.h
tests_test_opts_CFLAGS = $(TEST_CFLAGS)
tests_test_opts_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_shockwave
TESTS += tests/test_shockwave
tests_test_shockwave_CFLAGS = $(TEST_CFLAGS)
tests_test_shockwave_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_elastic
TESTS += tests/test_elastic
tests_test_elastic_CFLAGS = $(TEST_CFLAGS)
tests_test_elastic_LDADD = $(TEST_LIBS)
TESTS += tests/autoscale_knee.sh
EXTRA_DIST += tests/autoscale_knee.sh tests/fixtures/elastic/knee.json tests/fixtures/elastic/knee.csv tests/fixtures/elastic/slow.csv
check_PROGRAMS += tests/test_mechanism
TESTS += tests/test_mechanism
tests_test_mechanism_CFLAGS = $(TEST_CFLAGS)
tests_test_mechanism_LDADD = $(TEST_LIBS)
TESTS += tests/pathways.sh tests/live_gang.sh
EXTRA_DIST += tests/pathways.sh tests/live_gang.sh tests/fixtures/pathways tests/live_lib.sh
# what every script test shares (test_init: tests/test_lib.sh)
EXTRA_DIST += tests/test_lib.sh
TESTS += tests/live_clients.sh
EXTRA_DIST += tests/live_clients.sh
check_PROGRAMS += tests/sock_client
tests_sock_client_SOURCES = tests/sock_client.c
# Inputs read exactly as written: every reader's findings (NUL bytes, duplicate
# keys, trailing data, UTF-8, numbers and bounds), and the importers' cases.
check_PROGRAMS += tests/test_harden
TESTS += tests/test_harden
tests_test_harden_CFLAGS = $(TEST_CFLAGS)
tests_test_harden_LDADD = $(TEST_LIBS)
TESTS += tests/harden_inputs.sh
EXTRA_DIST += tests/harden_inputs.sh
# Jobs larger than the perf model's measurements: the extrapolation tests' fixture.
EXTRA_DIST += tests/fixtures/bigjobs
# Sia: unit tests, and its Table 4 ordering (skipped without shared/data).
check_PROGRAMS += tests/test_sia
TESTS += tests/test_sia
tests_test_sia_CFLAGS = $(TEST_CFLAGS)
tests_test_sia_LDADD = $(TEST_LIBS)
TESTS += tests/sia_paper.sh
EXTRA_DIST += tests/sia_paper.sh
# External policies over the pipe: Python fifo/las byte-identical to C, protocol
# errors, live (exec_policy_2000.sh takes minutes: run by hand).
TESTS += tests/exec_policy.sh tests/live_exec.sh
EXTRA_DIST += tests/exec_policy.sh tests/exec_policy_2000.sh tests/live_exec.sh \
	tests/fixtures/exec/bad_policy.py tests/fixtures/exec/raise_policy.py \
	tests/fixtures/exec/trace6.csv tests/fixtures/exec/total_batch.py
# gandiva-paper: unit tests on the engine, the paper's micro-benchmarks, live.
check_PROGRAMS += tests/test_gandiva_paper
TESTS += tests/test_gandiva_paper
tests_test_gandiva_paper_SOURCES = tests/test_gandiva_paper.c tests/engine_fixture.c \
	tests/engine_fixture.h
tests_test_gandiva_paper_CFLAGS = $(TEST_CFLAGS)
tests_test_gandiva_paper_LDADD = $(TEST_LIBS)
TESTS += tests/gandiva_paper.sh tests/live_gandiva_paper.sh
EXTRA_DIST += tests/gandiva_paper.sh tests/live_gandiva_paper.sh

# DeepPool (Park et al., MLSys 2022, issue 15): the multiplexed pair rates of the
# table backend's "multiplex" section and the deeppool policy's plans on tiny views.
check_PROGRAMS += tests/test_deeppool
TESTS += tests/test_deeppool
tests_test_deeppool_CFLAGS = $(TEST_CFLAGS)
tests_test_deeppool_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/fixtures/deeppool/tiny.json tests/fixtures/deeppool/bad.json
# its comparison with data parallelism (scripts/deeppool.sh, ~3 s)
TESTS += tests/deeppool.sh
EXTRA_DIST += tests/deeppool.sh
# deeppool live on fake jobs (local executor, ~13 s): within 5 % of the simulator's JCT
TESTS += tests/live_deeppool.sh
EXTRA_DIST += tests/live_deeppool.sh tests/fixtures/deeppool/live.json \
	tests/fixtures/deeppool/live.csv
TESTS += tests/live_elastic.sh tests/live_elastic_slurm.sh
EXTRA_DIST += tests/live_elastic.sh tests/live_elastic_slurm.sh
# --placement spread|consolidate on simulate, compare and sweep (~1 s)
TESTS += tests/placement.sh
EXTRA_DIST += tests/placement.sh tests/fixtures/placement
# --like PEER equals the peer's flags; order and -P override rules (~2 s)
TESTS += tests/like.sh
EXTRA_DIST += tests/like.sh
# gavel-fifo: Gavel's fifo.py over-allocates a type and shares it by rounds (<1 s)
TESTS += tests/gavel_fifo.sh
EXTRA_DIST += tests/gavel_fifo.sh tests/fixtures/gavel_fifo
# scripts/peer-agreement.sh on the 300-job Gavel rows, fifo-perf and allox within
# 2 % / 3.5 % of Gavel's simulator (~5 s; skips without ../shared/data)
TESTS += tests/peer_agreement.sh
EXTRA_DIST += tests/peer_agreement.sh
# scripts/peer-agreement.sh's Helios rows (Tiresias's with TIRESIAS_DIR): ours within
# 3 % of HeliosArtifact's simulator (~5 CPU s; skips without ../shared/data)
TESTS += tests/peer_agreement_th.sh
EXTRA_DIST += tests/peer_agreement_th.sh
# scripts/peer-agreement.sh's Pollux tiresias rows at measured rates: tiresias-las
# --like pollux within 1 % of the artifact, per job 0.5 % (~5 s; skips without data)
TESTS += tests/peer_agreement_pollux.sh
EXTRA_DIST += tests/peer_agreement_pollux.sh
# live serve --placement: spread starts a split job at once, consolidate waits (~10 s)
TESTS += tests/live_placement.sh
EXTRA_DIST += tests/live_placement.sh
# Stops are asynchronous (issue 19): a job that ignores SIGTERM holds up no request
TESTS += tests/live_async_stop.sh
EXTRA_DIST += tests/live_async_stop.sh
# `pip install bindings/python` (issue 20), offline; skips without setuptools and wheel
TESTS += tests/pip_install.sh
EXTRA_DIST += tests/pip_install.sh
# The Python las live on Slurm against the simulated C las (issue 20), ~60 s
TESTS += tests/live_exec_slurm.sh
EXTRA_DIST += tests/live_exec_slurm.sh
# issue 15, live checks of the seed mechanisms: the daemon SIGKILLed while a job is
# suspended by time-slicing, right after a migration, and while a gang runs (~10 s)
TESTS += tests/live_mech_crash.sh
EXTRA_DIST += tests/live_mech_crash.sh
# the same mechanisms on a private Slurm (time-slicing by checkpoint and release, a
# migration, a gang start; the gang's daemon SIGKILLed): within 5 % of simulate (~60 s)
TESTS += tests/live_mech_slurm.sh
EXTRA_DIST += tests/live_mech_slurm.sh

# No Slurm command blocks the daemon (issue 19): sbatch, squeue, scontrol, scancel (~20 s)
TESTS += tests/live_async_slurm.sh
EXTRA_DIST += tests/live_async_slurm.sh

# trace stats warns about jobs far from their traced duration on the reference GPU (issue 18)
TESTS += tests/trace_stats_duration.sh
EXTRA_DIST += tests/trace_stats_duration.sh

# Gavel's rounds (--round-end steps): round end at the last job's steps, failed jobs (issue 17)
TESTS += tests/gavel_rounds.sh
EXTRA_DIST += tests/gavel_rounds.sh
# Gavel rounds: job lookup by id table and by sorted map give the same schedule.
TESTS += tests/gavel_round_ids.sh
EXTRA_DIST += tests/gavel_round_ids.sh
# Gavel rounds: the same schedules with and without the mechanism's shortcuts (-P shortcuts=0).
TESTS += tests/gavel_shortcuts.sh
EXTRA_DIST += tests/gavel_shortcuts.sh

# Pollux measured-rates mode (simulate --measured-rates)
TESTS += tests/pollux_measured.sh
EXTRA_DIST += tests/pollux_measured.sh

# issue 17: qssf -P predictions=FILE (Helios its Philly predictor), order=helios
TESTS += tests/qssf_predictions.sh
EXTRA_DIST += tests/qssf_predictions.sh

# Optimus keeping the total batch as GPUs change (optimus -P batch=total, --like pollux; issue 17)
TESTS += tests/optimus_batch.sh
EXTRA_DIST += tests/optimus_batch.sh

# fail-loop: a job that can never finish between node failures stops the run
TESTS += tests/fail_loop.sh
EXTRA_DIST += tests/fail_loop.sh

# sim/diagnose.c: the diagnosis from memory equals the one from the database
check_PROGRAMS += tests/test_diagnose
TESTS += tests/test_diagnose
tests_test_diagnose_SOURCES = tests/test_diagnose.c tests/engine_fixture.c tests/engine_fixture.h
tests_test_diagnose_CFLAGS = $(TEST_CFLAGS)
tests_test_diagnose_LDADD = $(TEST_LIBS)

# `mlsched live wrap`: a command that prints progress lines as a live job (~8 s)
TESTS += tests/live_wrap.sh
EXTRA_DIST += tests/live_wrap.sh

# profiler/examples/pair_rates.py (gpu-predict.sh's pair measurement) without a GPU (~3 s)
TESTS += tests/pair_rates.sh
EXTRA_DIST += tests/pair_rates.sh
# profiler/predict/compare.sh and perturb.sh on the committed H100 runs (~5 s)
TESTS += tests/predict_compare.sh
EXTRA_DIST += tests/predict_compare.sh
