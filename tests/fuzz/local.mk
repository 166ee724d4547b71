# tests/fuzz/local.mk: libFuzzer harnesses for every parser (issue 19).
#
#   make fuzz            builds fuzz/fuzz_<name> with clang, ASan and UBSan
#                        (the library's sources compiled again into fuzz/obj,
#                        so the normal build never needs clang)
#   make fuzz-run        runs each harness FUZZ_SECONDS (20) on a copy of its
#                        seed corpus tests/fuzz/corpus/<name>; a finding stops
#                        with the input saved as fuzz/<name>-crash-*
# FUZZ_CC=clang-NN picks another clang.
FUZZ_CC = clang
FUZZ_SECONDS = 20
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_FLAGS = -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN)
FUZZ_NAMES = trace cluster perf faults import live_request json samples
FUZZ_CPP = $(DEFS) -I$(top_builddir) $(AM_CPPFLAGS) $(CPPFLAGS) -I$(top_srcdir)/tests/fuzz
FUZZ_LIBS = $(GSL_LIBS) $(SQLITE_LIBS) $(CJSON_LIBS) $(GLPK_LIBS) -lm
FUZZ_OBJS = $(patsubst %.c,fuzz/obj/%.o,$(filter %.c,$(libmlsched_a_SOURCES)))
FUZZ_BINS = $(patsubst %,fuzz/fuzz_%,$(FUZZ_NAMES))
EXTRA_DIST += tests/fuzz/README.md tests/fuzz/fuzz_util.h tests/fuzz/run.sh \
	$(patsubst %,tests/fuzz/fuzz_%.c,$(FUZZ_NAMES)) \
	$(patsubst %,tests/fuzz/corpus/%,$(FUZZ_NAMES))

fuzz/obj/%.o: $(top_srcdir)/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPP) $(AM_CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

fuzz/libmlsched-fuzz.a: $(FUZZ_OBJS)
	rm -f $@
	$(AR) cr $@ $(FUZZ_OBJS)

fuzz/fuzz_%: $(top_srcdir)/tests/fuzz/fuzz_%.c $(top_srcdir)/tests/fuzz/fuzz_util.h fuzz/libmlsched-fuzz.a
	$(FUZZ_CC) $(FUZZ_CPP) $(AM_CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer $< \
	    fuzz/libmlsched-fuzz.a $(FUZZ_LIBS) -o $@

fuzz: $(FUZZ_BINS)

fuzz-run: fuzz
	$(SHELL) $(top_srcdir)/tests/fuzz/run.sh $(FUZZ_SECONDS) $(top_srcdir)/tests/fuzz/corpus \
	    $(FUZZ_NAMES)

clean-local: clean-fuzz
clean-fuzz:
	rm -rf fuzz

.PHONY: fuzz fuzz-run clean-fuzz
