# Fast Matrix Multiplication on NVIDIA GPUs: a literate program.
#
#   make             the programs ./ch0 ... ./chN and build/book.{pdf,html}
#   make chapterN    just ./chN
#   make bench       measure every chapter on this GPU -> results/<gpu>/
#   make answers     the changed programs of the worked answers (answers/)
#   make test        the tests (those that need a GPU run when one is here)
#
# Nothing here knows a chapter.  Each chapter chapters/chN.nw declares how
# it is built in its manifest, the code chunk <<chN.mk>>, tangled to
# tangle/chN.mk and read below: its programs, the GPU it needs, flags,
# libraries, headline kernel, expected machine code and model keys, and
# optionally a microbenchmark program (field micro).
# The programs are built from tangle/, which `make` writes from chapters/
# with noweb.  On a machine without noweb (a GPU box with only the CUDA
# Toolkit) the committed tangle/ is used as it is.

SHELL := /bin/bash
.DEFAULT_GOAL := all
# Every core, unless the command line says how many (make -j1); each
# target's output kept together.  (make cannot see its own -j while it
# reads the Makefile, so it reads its command line; a make that runs
# under another shares the first one's jobs.)
ifeq ($(MAKELEVEL),0)
ifeq ($(filter -j% --jobs%,$(shell tr '\0' ' ' < /proc/$$PPID/cmdline 2>/dev/null)),)
MAKEFLAGS += --jobs=$(shell nproc 2>/dev/null || echo 2) --output-sync=target
endif
endif
.DELETE_ON_ERROR:

CHAPTERS := $(shell ls chapters | sed -n 's/^ch\([0-9]*\)\.nw$$/\1/p' \
                    | sort -n)
NW := $(CHAPTERS:%=chapters/ch%.nw)
MANIFESTS := $(CHAPTERS:%=tangle/ch%.mk)

# The GPU target: the installed GPU's compute capability (nvidia-smi
# says 8.6 for an RTX 3090: sm_86), or sm_90 where there is none.
GPU_ARCH := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader \
              2>/dev/null | sed -n '1s/^\([0-9]*\)\.\([0-9]\)$$/sm_\1\2/p')
ARCH ?= $(or $(GPU_ARCH),sm_90)
NVCC ?= nvcc
CC ?= gcc
CUDA_INC := $(abspath $(dir $(shell command -v $(NVCC)))../include)
CFLAGS ?= -std=c11 -O2 -Wall -Wextra
# Kernel entries are designated initializers that leave out the fields a
# kernel does not need; in C++ -Wextra would warn about each one.
NVCCFLAGS ?= -O3 -std=c++17 -Xptxas -v \
  -Xcompiler -Wall,-Wextra,-Wno-missing-field-initializers
# The book shows the first GPU whose results all belong to the current
# code (book/tools/fresh-results); make RESULTS=results/<gpu> picks one.
GPU_RESULTS := $(shell book/tools/fresh-results)
RESULTS ?= $(GPU_RESULTS)
GPU_DIR ?=
TOOLS_STAMP := build/tools.stamp
BENCH_SIZES ?= 256,512,1024,1111,2048,4096,4097
BENCH_CHAPTERS ?= $(CHAPTERS)

# notangle, unless told not to use it or it is not installed.
NOTANGLE := $(if $(filter 1,$(NO_TANGLE)),,$(shell command -v notangle \
                                                     2>/dev/null))

.PHONY: all programs book tangle bench profile test clean readme tools
.PRECIOUS: build/%.o build/%.log build/sass-%.txt build/kernels-%.tsv

all: programs book readme

# --- tools ---------------------------------------------------------------
tools: $(TOOLS_STAMP)
$(TOOLS_STAMP): book/tools/need-tools
	@book/tools/need-tools
	@mkdir -p build && touch $@

# --- the chapters' manifests ---------------------------------------------
# Chapter N's code may use chunks of every chapter up to N.  A chapter
# may keep part of its code in an appendix, chapters/chN-NAME.nw: it is
# tangled with the chapter and woven at the end of the book.
APPENDICES := $(foreach c,$(CHAPTERS),$(sort $(wildcard chapters/ch$(c)-*.nw)))
# The files chapter N is tangled from: book/tools/nw-upto says, for make
# and for the tests alike.
$(foreach l,$(shell book/tools/nw-upto --all | sed 's/^\([0-9]*\) /NW_UPTO_\1:=/; s/ /~/g'),\
  $(eval $(subst ~, ,$(subst :=, := ,$(l)))))
nw_upto = $(NW_UPTO_$(1))

# A manifest sets these fields, and model.NAME formulas; each chapter's
# values are kept as chN.FIELD.
FIELDS := programs roots common links needs flags libs headline sass lab \
          lab_kernel extra_runs ceilings sweep spills micro micro_links \
          events profile_at emulated may_spill lab_hours lab_needs lab_reach \
          lab_entries lab_also lab_none slide_figure slide_chunk slide_idea \
          suite
define read_manifest
include tangle/ch$(1).mk
$$(foreach f,$$(FIELDS),$$(eval ch$(1).$$(f) := $$$$(value $$(f)))\
  $$(eval undefine $$(f)))
ch$(1).models := $$(filter model.%,$$(.VARIABLES))
$$(foreach v,$$(ch$(1).models),$$(eval ch$(1).$$(v) := $$$$(value $$(v)))\
  $$(eval undefine $$(v)))
endef
$(foreach n,$(CHAPTERS),$(eval $(call read_manifest,$(n))))

# What chapter N tangles: its manifest first (it names the other files),
# its code (tangle/chN.cu, which holds every program's table of kernels),
# its other roots (its header chN.h, if later chapters use its code) and
# its microbenchmark's source.
roots_of = ch$(1).cu $(ch$(1).roots) $(ch$(1).micro:%=%.cu)
# A chapter with a lab (field lab: its chunk) also tangles the lab's
# stub, tangle/chN-lab.cu (book/tools/labtangle): its code with that
# chunk replaced by the chunk <<Lab: NAME>>.
lab_of = $(if $(ch$(1).lab),ch$(1)-lab.cu)
TANGLED := $(MANIFESTS) $(foreach n,$(CHAPTERS),\
             $(addprefix tangle/,$(call roots_of,$(n)) $(call lab_of,$(n))))
ifneq ($(NOTANGLE),)
define tangle_manifest
tangle/ch$(1).mk: $(call nw_upto,$(1)) book/tools/tangle
	@book/tools/tangle ch$(1).mk $$@ $(call nw_upto,$(1))
endef
$(foreach n,$(CHAPTERS),$(eval $(call tangle_manifest,$(n))))

# Every program and every other root of chapter N, tangled from the
# chapters up to N.  cpif (in book/tools/tangle) keeps a file's date when
# its code did not change, so an edit to prose recompiles nothing.
define tangle_roots
$(addprefix tangle/,$(call roots_of,$(1))): $(call nw_upto,$(1)) book/tools/tangle
	@book/tools/tangle $$(notdir $$@) $$@ $(call nw_upto,$(1))
endef
$(foreach n,$(CHAPTERS),$(eval $(call tangle_roots,$(n))))
define tangle_lab
tangle/ch$(1)-lab.cu: $(call nw_upto,$(1)) tangle/ch$(1).mk book/tools/labtangle book/tools/tangle
	@book/tools/labtangle $(1) $$@ $(call nw_upto,$(1))
endef
$(foreach n,$(CHAPTERS),$(if $(ch$(n).lab),$(eval $(call tangle_lab,$(n)))))
endif
tangle: $(TANGLED)

# --- the GPU each chapter is built for -----------------------------------
# A chapter needs sm_XY (it runs on that GPU and newer: it is built for
# ARCH, if ARCH is at least XY) or sm_XYa (instructions of that GPU alone:
# built for exactly it, if ARCH is sm_XY or sm_XYa).  Otherwise it is
# skipped, by name.
sm_num = $(patsubst sm_%,%,$(patsubst %a,%,$(1)))
exact = $(filter %a,$(1))
arch_ok = $(shell n=$(call sm_num,$(ch$(1).needs)); a=$(call sm_num,$(ARCH)); \
  if [ -z "$$n" ]; then echo y; \
  elif [ -n "$(call exact,$(ch$(1).needs))" ]; then [ "$$a" = "$$n" ] && echo y; \
  else [ "$$a" -ge "$$n" ] && echo y; fi)
target_of = $(if $(call exact,$(ch$(1).needs)),$(ch$(1).needs),$(ARCH))
gencode = -gencode=arch=compute_$(patsubst sm_%,%,$(1)),code=$(1) \
  $(if $(call exact,$(1)),,-gencode=arch=compute_$(patsubst sm_%,%,$(1)),code=compute_$(patsubst sm_%,%,$(1)))
BUILDABLE := $(foreach n,$(CHAPTERS),$(if $(call arch_ok,$(n)),$(n)))
SKIPPED := $(filter-out $(BUILDABLE),$(CHAPTERS))
# The programs that link the harness (and share its command line), and
# the chapters' microbenchmarks (field micro): standalone programs that
# measure an instruction's ceiling and link only the CUDA runtime and the
# chapter's libs.
HARNESS_BINS := $(foreach n,$(BUILDABLE),$(ch$(n).programs))
MICROS := $(foreach n,$(BUILDABLE),$(ch$(n).micro))
BINS := $(HARNESS_BINS) $(MICROS)
COMMON := $(foreach n,$(CHAPTERS),$(ch$(n).common))
COMMON_OBJS := $(COMMON:%=build/%.o)
HEADERS := $(foreach n,$(CHAPTERS),$(filter %.h,$(addprefix tangle/,$(ch$(n).roots))))

programs: $(BINS) $(SKIPPED:%=skip-ch%)
chapter%: ch%
	@:

# --- compiling ------------------------------------------------------------
# With noweb, the compiler reads a copy of the code tangled with #line
# directives (build/src/), so that its messages point into chapters/*.nw;
# the object still depends only on tangle/, so prose edits compile nothing.
# Compiler output is kept in build/*.log: the ptxas report (registers,
# shared memory, spills) feeds the book and the tests.
define source_of   # $(1) file in tangle/, $(2) chapter, $(3) name of the copy
$(if $(NOTANGLE),notangle -L -R$(1) $(call nw_upto,$(2)) > build/src/$(or $(3),$(1)) \
  && echo build/src/$(or $(3),$(1)),echo tangle/$(1))
endef

define common_rules
build/$(1).o: tangle/$(1).c $(HEADERS)
	@mkdir -p build/src
	src=$$$$($(call source_of,$(1).c,$(2))) && \
	$(CC) $(CFLAGS) -I$(CUDA_INC) -Itangle -c $$$$src -o $$@ 2> build/$(1).log; \
	  rc=$$$$?; cat build/$(1).log >&2; exit $$$$rc
endef
$(foreach n,$(CHAPTERS),$(foreach c,$(ch$(n).common),\
  $(eval $(call common_rules,$(c),$(n)))))

# The compiler's flags for a program, kept in build/P.flags, which changes
# (and recompiles the program) only when they do: make ARCH=sm_80 after a
# build for sm_90 rebuilds everything.
nvcc_for = $(call gencode,$(call target_of,$(2))) $(NVCCFLAGS) \
  $(ch$(2).flags) -DBOOK_CHAPTER=$(2) -DBOOK_TARGET='"$(call target_of,$(2))"'
# A harness program and a microbenchmark compile alike; $(3) is what the
# object depends on besides its source and flags.
define compile_rules   # $(1) program, $(2) chapter, $(3) headers
build/$(1).flags: FORCE
	@mkdir -p build
	@echo '$(subst ','"'"',$(call nvcc_for,$(1),$(2)))' | cmp -s - $$@ \
	  || echo '$(subst ','"'"',$(call nvcc_for,$(1),$(2)))' > $$@
build/$(1).o: tangle/$(1).cu $(3) build/$(1).flags
	@mkdir -p build/src
	src=$$$$($(call source_of,$(1).cu,$(2))) && \
	$(NVCC) $(call nvcc_for,$(1),$(2)) -Itangle -c $$$$src \
	  -o $$@ 2> build/$(1).log; rc=$$$$?; echo $$$$src > build/$(1).src; \
	  grep -v -e '^ptxas info' -e 'bytes stack frame' build/$(1).log >&2; \
	  exit $$$$rc
.PHONY: FORCE
endef
$(foreach n,$(BUILDABLE),$(eval $(call compile_rules,ch$(n),$(n),$(HEADERS))))
$(foreach n,$(BUILDABLE),$(foreach p,$(ch$(n).micro),\
  $(eval $(call compile_rules,$(p),$(n),$(HEADERS)))))

# A program P of chapter N is the chapter's code, build/chN.o, whose
# table P_program it runs, with the one main function (main.c) compiled
# for P, the objects of the earlier chapters whose launch functions the
# chapter calls (field links: ch5 for build/ch5.o) and the harness.
link_objs = $(foreach o,$(1),build/$(o).o)
main_for = -DPROGRAM=$(1) -DBOOK_CHAPTER=$(2) \
  -DBOOK_TARGET='"$(call target_of,$(2))"'
define program_rules   # $(1) program, $(2) chapter
build/main-$(1).o: tangle/main.c $(HEADERS) build/ch$(2).flags
	@mkdir -p build/src
	src=$$$$($(call source_of,main.c,0,main-$(1).c)) && \
	$(CC) $(CFLAGS) -I$(CUDA_INC) -Itangle $(call main_for,$(1),$(2)) \
	  -c $$$$src -o $$@ 2> build/main-$(1).log; \
	  rc=$$$$?; cat build/main-$(1).log >&2; exit $$$$rc
$(1): build/main-$(1).o build/ch$(2).o $(call link_objs,$(ch$(2).links)) $(COMMON_OBJS)
	$(NVCC) $(call gencode,$(call target_of,$(2))) -o $$@ $$^ $(ch$(2).libs)
# What the program says about its kernels, without a GPU.
build/kernels-$(1).tsv: $(1)
	./$(1) --list > $$@
endef
$(foreach n,$(BUILDABLE),$(foreach p,$(ch$(n).programs),\
  $(eval $(call program_rules,$(p),$(n)))))

# A microbenchmark: no harness, no kernel list, no per-kernel reports.
define micro_rules   # $(1) program, $(2) chapter
$(1): build/$(1).o $(call link_objs,$(ch$(2).micro_links)) \
      $(if $(ch$(2).micro_links),$(COMMON_OBJS))
	$(NVCC) $(call gencode,$(call target_of,$(2))) -o $$@ $$^ $(ch$(2).libs)
endef
$(foreach n,$(BUILDABLE),$(foreach p,$(ch$(n).micro),\
  $(eval $(call micro_rules,$(p),$(n)))))

# A lab: make labN writes lab/chN.cu once (never over a file that
# exists): chapter N's program with the body of its lab kernel left for the
# student (book/tools/labstub); then it compiles that file into
# build/lab/chN as the chapter's program is compiled, builds the programs
# the grading compares with, and writes ./labN, which grades
# (book/tools/grade).  No noweb, and nothing in tangle/ changes.
LABS := $(foreach n,$(BUILDABLE),$(if $(ch$(n).lab),$(n)))
LAB_DIR ?= lab
define lab_rules   # $(1) chapter
$(LAB_DIR)/ch$(1).cu: | tangle/ch$(1)-lab.cu build/manifest.tsv
	@mkdir -p $(LAB_DIR)
	@if [ ! -e $$@ ]; then book/tools/labstub $(1) > $$@.tmp && mv $$@.tmp $$@ \
	  && echo "make: wrote $$@: write the lab's code there (search for \"Lab, chapter $(1)\"), then make lab$(1) && ./lab$(1)"; fi
# (a failed compile leaves no program behind, so that ./labN cannot
# grade an older one)
build/lab/ch$(1): $(LAB_DIR)/ch$(1).cu $(HEADERS) build/ch$(1).flags $(COMMON_OBJS) \
    build/main-ch$(1).o $(call link_objs,$(ch$(1).links)) FORCE
	@mkdir -p build/lab
	@if [ ! $$@ -nt $(LAB_DIR)/ch$(1).cu ] || [ ! $$@ -nt build/ch$(1).flags ] \
	    || [ "$$$$(cat $$@.src 2>/dev/null)" != "$(abspath $(LAB_DIR))/ch$(1).cu" ]; then \
	  rm -f $$@ $$@.src; \
	  echo "$(NVCC) ... -c $(LAB_DIR)/ch$(1).cu -o $$@"; \
	  $(NVCC) $(call nvcc_for,ch$(1),$(1)) -Itangle -c $(LAB_DIR)/ch$(1).cu -o $$@.o 2> $$@.log; \
	  rc=$$$$?; grep -v -e '^ptxas info' -e 'bytes stack frame' $$@.log >&2; \
	  [ $$$$rc = 0 ] || exit $$$$rc; \
	  $(NVCC) $(call gencode,$(call target_of,$(1))) -o $$@ $$@.o build/main-ch$(1).o \
	    $(call link_objs,$(ch$(1).links)) $(COMMON_OBJS) $(ch$(1).libs) \
	    || { rm -f $$@; exit 1; }; \
	  echo "$(abspath $(LAB_DIR))/ch$(1).cu" > $$@.src; fi
lab$(1): build/lab/ch$(1) $(ch$(1).programs) $(ch$(shell expr $(1) - 1).programs)
	@printf '#!/bin/sh\n# Grades lab/ch$(1).cu (make lab$(1) builds it).\nexec "$$$$(dirname "$$$$0")"/book/tools/grade $(1) "$$$$@"\n' > $$@
	@chmod +x $$@
.PHONY: lab$(1)
endef
$(foreach n,$(LABS),$(eval $(call lab_rules,$(n))))
# A chapter without a lab here says why, in one line: it has none (field
# lab_none, the reason), or ARCH cannot build it.
define no_lab_rules   # $(1) chapter
lab$(1):
	$$(error no lab$(1): $(if $(ch$(1).lab),chapter $(1) needs a GPU of $(ch$(1).needs) and ARCH is $(ARCH) (make ARCH=$(ch$(1).needs) lab$(1) on such a GPU),$(or $(ch$(1).lab_none),chapter $(1) has no lab)))
.PHONY: lab$(1)
endef
$(foreach n,$(filter-out $(LABS),$(CHAPTERS)),$(eval $(call no_lab_rules,$(n))))

# Worked answers: an exercise whose answer is a change to a chapter's
# program has it as a unified diff, answers/chN-exE.diff, against the
# tangled source it changes (its first line, --- tangle/P.cu: the
# chapter's program, or another of its programs such as its
# microbenchmark).  make answers applies each (book/tools/apply-diff,
# which fails when the diff no longer fits the code) into
# build/answers/chN-exE.cu and compiles it as P is compiled; the diff's
# preamble says what make bench runs (book/tools/answers-bench), and the
# instructor's edition prints the diff beside the measured answer.  An
# answer that only runs the chapter's programs has a preamble alone,
# answers/chN-exE.run, and nothing to build.
ANSWER_DIFFS := $(sort $(wildcard answers/ch*-ex*.diff))
answer_chapter = $(patsubst ch%,%,$(firstword $(subst -, ,$(1))))
ANSWER_BINS := $(foreach d,$(ANSWER_DIFFS),$(if $(filter \
  $(call answer_chapter,$(basename $(notdir $(d)))),$(BUILDABLE)),\
  build/answers/$(basename $(notdir $(d)))))
# the file a diff changes (F of its first line, --- tangle/F.cu) and the
# program it runs changed (its preamble's program:, or the program of F)
$(foreach l,$(shell book/tools/answer-target --make $(ANSWER_DIFFS) | tr ' ' '~'),\
  $(eval $(subst ~, ,$(l))))
answer_target = $(ANSWER_PROGRAM_$(1))
answer_source = $(ANSWER_SOURCE_$(1))
answer_main = $(ANSWER_MAIN_$(1))
define answer_rules   # $(1) chN-exE, $(2) chapter, $(3) program, $(4) file
build/answers/$(1).cu: answers/$(1).diff tangle/$(4).cu book/tools/apply-diff
	@mkdir -p $$(@D)
	book/tools/apply-diff $$< tangle/$(4).cu > $$@.tmp && mv $$@.tmp $$@
build/answers/$(1).o: build/answers/$(1).cu $(HEADERS) build/$(4).flags
	$(NVCC) $(call nvcc_for,$(4),$(2)) -Itangle -c $$< -o $$@ \
	  2> build/answers/$(1).log; rc=$$$$?; \
	  grep -v -e '^ptxas info' -e 'bytes stack frame' build/answers/$(1).log >&2; \
	  exit $$$$rc
# A changed chapter links as the chapter's program does (with main.c,
# unless the change gives it a main of its own); a changed
# microbenchmark as the microbenchmark.
build/answers/$(1): build/answers/$(1).o \
    $(if $(filter $(4),$(ch$(2).micro)),\
      $(call link_objs,$(ch$(2).micro_links)) $(if $(ch$(2).micro_links),$(COMMON_OBJS)),\
      $(if $(call answer_main,$(1)),,build/main-$(3).o) \
      $(call link_objs,$(ch$(2).links)) $(COMMON_OBJS))
	$(NVCC) $(call gencode,$(call target_of,$(2))) -o $$@ $$^ $(ch$(2).libs)
endef
$(foreach b,$(notdir $(ANSWER_BINS)),\
  $(eval $(call answer_rules,$(b),$(call answer_chapter,$(b)),$(call answer_target,$(b)),$(call answer_source,$(b)))))
answers: $(ANSWER_BINS)
.PHONY: answers

define skip_rules   # $(1) chapter
.PHONY: skip-ch$(1) $(ch$(1).programs) $(ch$(1).micro)
skip-ch$(1):
	@echo "make: skipping chapter $(1) ($(strip $(ch$(1).programs) $(ch$(1).micro))): it needs a GPU of $(ch$(1).needs), ARCH is $(ARCH)"
$(ch$(1).programs) $(ch$(1).micro): skip-ch$(1)
endef
$(foreach n,$(SKIPPED),$(eval $(call skip_rules,$(n))))

# Per kernel instance: registers, shared memory, spills (ptxas), and the
# machine code's instruction counts; no GPU is needed.  A program's
# kernels are compiled in its chapter's object and in those it links, so
# its ptxas report is theirs together, and its machine code is read from
# the program itself.
define facts_rules   # $(1) program, $(2) chapter
build/ptxas-$(1).csv: $(1) build/kernels-$(1).tsv book/tools/ptxas
	book/tools/ptxas build/kernels-$(1).tsv \
	  $(foreach o,ch$(2) $(ch$(2).links),build/$(o).log) > $$@
build/sass-$(1).txt: $(1) book/tools/sass
	book/tools/sass $(1) > $$@
endef
$(foreach n,$(BUILDABLE),$(foreach p,$(ch$(n).programs),\
  $(eval $(call facts_rules,$(p),$(n)))))
build/sass-%.csv: build/sass-%.txt build/kernels-%.tsv book/tools/sass-count
	book/tools/sass-count $< build/kernels-$*.tsv > $@

# The manifests as one table, chapter<TAB>field<TAB>value, for the tools.
# (book/tools/manifest, the one reader of the manifests, writes it; make
# adds what only it knows: the ARCH and the chapters it allows.)
build/manifest.tsv: $(MANIFESTS) Makefile book/tools/manifest
	@mkdir -p build
	@book/tools/manifest --tsv > $@.tmp
	@echo "ARCH	$(ARCH)" >> $@.tmp; echo "BUILDABLE	$(BUILDABLE)" >> $@.tmp
	@mv $@.tmp $@

PROGRAM_FACTS := $(foreach p,$(HARNESS_BINS),build/ptxas-$(p).csv build/sass-$(p).csv)

# --- measuring ------------------------------------------------------------
# Never tangles or installs anything: a GPU machine needs only nvcc and
# cuBLAS.
# (only what the chapters measured need: their programs, microbenchmarks
# and changed programs of their answers; a chapter ARCH cannot build is
# skipped by name)
bench_goals = $(foreach n,$(BENCH_CHAPTERS),$(ch$(n).programs) $(ch$(n).micro) \
  $(foreach p,$(ch$(n).programs),build/sass-$(p).csv) \
  $(filter build/answers/ch$(n)-%,$(ANSWER_BINS)))
bench:
	$(MAKE) NO_TANGLE=1 $(bench_goals) build/manifest.tsv
	book/tools/bench "$(BENCH_SIZES)" $(BENCH_CHAPTERS)

# Hardware counters (Nsight Compute), for the book, into GPU_DIR (by
# default results/<this machine's GPU>).
profile:
	$(MAKE) NO_TANGLE=1 $(foreach n,$(BENCH_CHAPTERS),$(ch$(n).programs)) build/manifest.tsv
	book/tools/profile "$(GPU_DIR)" $(BENCH_CHAPTERS)

# --- the book -------------------------------------------------------------
include book/book.mk

readme: README.md
# (after the tools are installed: the table's tools use gawk, which a
# fresh machine gets with noweb)
README.md: $(wildcard $(RESULTS)/*.csv) $(NW) build/manifest.tsv \
           book/tools/readme-table book/tools/chapter-title book/tools/csv.awk | $(TOOLS_STAMP)
	@book/tools/splice-readme '$(RESULTS)' $(NW)

# --- tests ----------------------------------------------------------------
# tests/run checks the committed tangle/ before it builds anything, then
# builds (make all) and tests what was built.
tests/unit: tests/unit.c $(COMMON_OBJS) $(HEADERS)
	$(CC) $(CFLAGS) -I$(CUDA_INC) -Itangle -c tests/unit.c \
	  -o build/unit.o
	$(NVCC) -o $@ build/unit.o $(COMMON_OBJS) -lcublas

# (+: tests/run runs make, which shares this make's jobs)
test:
	+@CHAPTERS="$(CHAPTERS)" RESULTS="$(RESULTS)" tests/run

# What the tests build after checking tangle/.
test-facts: $(PROGRAM_FACTS) build/manifest.tsv
test-build: all instructor answers slides tests/unit test-facts

clean:
	rm -rf build $(foreach n,$(CHAPTERS),$(ch$(n).programs) $(ch$(n).micro) lab$(n)) \
	  tests/unit
