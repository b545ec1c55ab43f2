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
# The one-letter flags of the command line (n, q, s...), before ours:
# make puts them first, as one word without a dash.
CMDLINE_FLAGS := $(filter-out -% %=%,$(firstword $(MAKEFLAGS)))
DRY_RUN := $(findstring n,$(CMDLINE_FLAGS))$(findstring q,$(CMDLINE_FLAGS))
# Every core, unless the command line says how many (make -j1 wins over
# this); each target's output kept together.  A make run by another
# shares the first one's jobs.
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += --jobs=$(shell nproc 2>/dev/null || echo 2) --output-sync=target
endif
.DELETE_ON_ERROR:
# V=1 prints every command in full; otherwise one short line each.
ifeq ($(V),1)
Q :=
say = @:
else
Q := @
say = @printf '  %-7s %s\n'
endif

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
BOOKDATA := book/tools/bookdata
TOOLS_STAMP := build/tools.stamp
BENCH_SIZES ?= 256,512,1024,1111,2048,4096,4097

# notangle, unless told not to use it or it is not installed.
NOTANGLE := $(if $(filter 1,$(NO_TANGLE)),,$(shell command -v notangle \
                                                     2>/dev/null))

# --- what make knows of the chapters --------------------------------------
# One generated include of variables (book/tools/bookdata make-vars, from
# the manifests tangle/chN.mk and the answers): CHAPTERS, each
# chapter's fields chN.FIELD that the build uses, chN.target (the GPU it
# is compiled for), NW_UPTO_N (the files it is tangled from), BUILDABLE
# and SKIPPED (what ARCH allows), the answers' programs.
VARS := build/vars-$(ARCH).mk
include $(VARS)
NW := $(CHAPTERS:%=chapters/ch%.nw)
MANIFESTS := $(CHAPTERS:%=tangle/ch%.mk)
$(VARS): $(wildcard tangle/ch*.mk answers/ch*-ex*.diff book/bookdata/*.py) \
           $(MANIFESTS) book/tools/bookdata chapters
	@mkdir -p build
	$(say) VARS $@
	$(Q)$(BOOKDATA) make-vars $(ARCH) > $@.tmp && mv $@.tmp $@

# The book shows the first GPU whose results all belong to the current
# code (bookdata fresh-results); make RESULTS=results/<gpu> picks one.
ifeq ($(origin RESULTS),undefined)
RESULTS := $(shell $(BOOKDATA) fresh-results)
endif
GPU_DIR ?=
BENCH_CHAPTERS ?= $(CHAPTERS)

.PHONY: all programs book tangle bench profile test clean readme tools help
.PRECIOUS: build/%.o build/%.log build/sass-%.txt build/sass-obj-%.txt build/sass-obj-%.tsv build/kernels-%.tsv

# (the README's table changes only when asked: make readme, after make
# bench; make test says when it no longer matches the results)
all: programs book
# (the last line of a build says where its results are; make -q and -n
# run no recipe, so all has none for them)
ifeq ($(DRY_RUN),)
all:
	@n=$$(cat build/book.missing 2> /dev/null); [ "$${n:-0}" = 0 ] \
	  || echo "make: $$n figures of the book are not in $(RESULTS) (not measured on that GPU): each is marked [not measured]"
	@echo "make: the book is build/book.pdf and build/html/index.html (on one page: build/book.html; its syllabus: build/syllabus.pdf); the programs are ./$(firstword $(HARNESS_BINS)) ... ./$(lastword $(HARNESS_BINS)) (make help lists the goals)"
endif

help:
	@echo 'make                 the programs ./ch0 ... ./chN and the book,'
	@echo '                     build/book.pdf and build/html/index.html (and build/book.html)'
	@echo 'make chapterN        just ./chN (and its other programs)'
	@echo 'make test            the tests (those that need a GPU run where one is)'
	@echo 'make bench           measure every chapter on this GPU -> results/<gpu>/'
	@echo 'make profile         Nsight Compute counters -> results/<gpu>/ncu-chN.csv'
	@echo 'make labN            write lab/chN.cu once, build it; ./labN grades it'
	@echo 'make instructor      build/instructor.pdf and .html: the book with answers'
	@echo 'make course          build/course.pdf: the labs'"'"' code left to the student'
	@echo 'make kit             build/kit/labN: what a student receives for lab N'
	@echo 'make grade LAB=N FILES="a.cu b.cu"   grade handed-in lab files in a clean'
	@echo '                     copy of the book (build/graded/labN/: each JSON)'
	@echo 'make syllabus        build/syllabus.pdf: the module, its assessment, its tracks'
	@echo 'make answers         the changed programs of the worked answers'
	@echo 'make slides          build/slides/chN.pdf, a deck per chapter'
	@echo 'make readme          rewrite the README table from the results'
	@echo 'make lib             build/lib/libsgemmbook.a and .so: chapter 14 as a library'
	@echo 'make install         the library, its header and pkg-config file under PREFIX'
	@echo 'make uninstall       what make install put under PREFIX, removed'
	@echo 'make examples        examples/gemm: a C program that links the library'
	@echo 'make tangle          tangle/ from chapters/ (needs noweb)'
	@echo 'make clean           remove build/ and the programs'
	@echo 'Variables: ARCH=sm_86 (the GPU to build for), RESULTS=results/<gpu>'
	@echo '(the numbers the book shows), BENCH_RUNS=3 (make bench: separate runs'
	@echo 'of every chapter), BENCH_SEED=S (make bench: the validation shapes'
	@echo 'of seed S), V=1 (every command in full), -jN.'
	@echo 'book/DATA.md explains the data; bookdata --help its program.'

# --- tools ---------------------------------------------------------------
tools: $(TOOLS_STAMP)
$(TOOLS_STAMP): book/tools/need-tools
	@book/tools/need-tools
	@mkdir -p build && touch $@

# --- the chapters' manifests ---------------------------------------------
# Chapter N's code may use chunks of every chapter up to N.  A chapter
# may keep part of its code in an appendix, chapters/chN-NAME.nw: it is
# tangled with the chapter and woven at the end of the book.  A file
# chapters/chN-atM-NAME.nw is code of chapter N that a later chapter M
# explains: tangled with chapter N, woven among chapter M's appendices,
# in the order of NAME (bookdata appendices).
APPENDICES := $(if $(CHAPTERS),$(shell book/tools/bookdata appendices $(CHAPTERS)))
nw_upto = $(NW_UPTO_$(1))

# What chapter N tangles: its manifest first (it names the other files),
# its code (tangle/chN.cu, which holds every program's table of kernels),
# its other roots (its header chN.h, if later chapters use its code) and
# its microbenchmark's source, and what it gives the library (make lib).
roots_of = ch$(1).cu $(ch$(1).roots) $(ch$(1).micro:%=%.cu) $(ch$(1).library)
# A chapter with a lab (field lab: its chunk) also tangles the lab's
# stub, tangle/chN-lab.cu (book/tools/labtangle): its code with that
# chunk replaced by the chunk <<Lab: NAME>>.
lab_of = $(if $(ch$(1).lab),ch$(1)-lab.cu)
TANGLED := $(MANIFESTS) $(foreach n,$(CHAPTERS),\
             $(addprefix tangle/,$(call roots_of,$(n)) $(call lab_of,$(n))))
ifneq ($(NOTANGLE),)
# Every file chapter N tangles (its manifest first), from the chapters up
# to N.  cpif (in book/tools/tangle) keeps a file's date when its code did
# not change, so an edit to prose recompiles nothing (and make tangles the
# chapter's files again at each run, cheaply, until its code changes).
define tangle_roots
$(addprefix tangle/,ch$(1).mk $(call roots_of,$(1))): $(call nw_upto,$(1)) book/tools/tangle
	@book/tools/tangle $$(notdir $$@) $$@ $(call nw_upto,$(1))
endef
$(foreach n,$(CHAPTERS),$(eval $(call tangle_roots,$(n))))
define tangle_lab
tangle/ch$(1)-lab.cu: $(call nw_upto,$(1)) tangle/ch$(1).mk book/tools/labtangle book/tools/tangle
	@book/tools/labtangle $(1) $$@ $(call nw_upto,$(1)) && touch $$@
endef
$(foreach n,$(CHAPTERS),$(if $(ch$(n).lab),$(eval $(call tangle_lab,$(n)))))
endif
tangle: $(TANGLED)

# --- the GPU each chapter is built for -----------------------------------
# A chapter needs sm_XY (it runs on that GPU and newer: it is built for
# ARCH, if ARCH is at least XY) or sm_XYa (instructions of that GPU alone:
# built for exactly it, if ARCH is sm_XY or sm_XYa); otherwise it is
# skipped, by name (BUILDABLE, SKIPPED and chN.target come with the
# generated variables).
exact = $(filter %a,$(1))
target_of = $(ch$(1).target)
gencode = -gencode=arch=compute_$(patsubst sm_%,%,$(1)),code=$(1) \
  $(if $(call exact,$(1)),,-gencode=arch=compute_$(patsubst sm_%,%,$(1)),code=compute_$(patsubst sm_%,%,$(1)))
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
build/$(1).o: tangle/$(1).c $(HEADERS) $(call stamp,tangle/$(1).c $(HEADERS))
	@mkdir -p build/src
	$$(say) CC $$@
	$(Q)$(call restamp) src=$$$$($(call source_of,$(1).c,$(2))) && \
	$(CC) $(CFLAGS) -I$(CUDA_INC) -Itangle -c $$$$src -o $$@ 2> build/$(1).log; \
	  rc=$$$$?; cat build/$(1).log >&2; exit $$$$rc
endef
$(foreach n,$(CHAPTERS),$(foreach c,$(ch$(n).common),\
  $(eval $(call common_rules,$(c),$(n)))))

# The compiler's flags for a program, kept in build/P.flags, which is
# rewritten (and recompiles the program) only when they change: make
# ARCH=sm_80 after a build for sm_90 rebuilds everything.  The file is
# written while the Makefile is read, with make's own $(file), so that
# it needs no rule: make -n and make -q see what a build would do (and,
# writing nothing, take a file whose flags changed as out of date).
nvcc_for = $(call gencode,$(call target_of,$(2))) $(NVCCFLAGS) \
  $(ch$(2).flags) -DBOOK_CHAPTER=$(2) -DBOOK_TARGET='"$(call target_of,$(2))"'
# The same by the front ends alone, for the tests' checks: nvcc
# -fdevice-syntax-only makes no device code, in a tenth of the time, and
# gives the front ends' warnings.
syntax_flags = $(subst -Xptxas -v,,$(call nvcc_for,$(1),$(2))) -fdevice-syntax-only
flags_differ = $(subst |$(strip $(file < build/$(1).flags))|,,|$(strip $(2))|)
ifeq ($(DRY_RUN),)
keep_flags = $(if $(call flags_differ,$(1),$(2)),$(file > build/$(1).flags,$(2)))
else
keep_flags = $(if $(call flags_differ,$(1),$(2)),$(eval build/$(1).flags: flags-changed))
endif
.PHONY: flags-changed FORCE
flags-changed: ; @:
FORCE:
# What the compiler reads, by its content too: each object depends on a
# stamp of each tangled file it reads, build/stamp/NAME, which
# book/tools/stamps rewrites, while the Makefile is read, only when the
# file's content changed.  A source whose content changed compiles again
# even when its date is older than its object's: a tree copied with its
# dates onto a machine that built another version, an older commit
# checked out.  (make -n and make -q: the changed stamps are out of date,
# and nothing is written.)
STAMPED := $(wildcard tangle/*.cu tangle/*.c tangle/*.h)
stamp = $(addprefix build/stamp/,$(notdir $(1)))
ifneq ($(wildcard build/.),)
CHANGED_STAMPS := $(shell book/tools/stamps $(if $(DRY_RUN),--check) build/stamp $(STAMPED))
$(if $(DRY_RUN),$(foreach f,$(CHANGED_STAMPS),$(eval build/stamp/$(f): flags-changed)))
endif
build/stamp/%:
	@mkdir -p build/stamp && cksum < tangle/$* > $@
# (and a compile stamps what it reads before it reads it, so that a file
# tangled during this make leaves its stamp older than the object)
restamp = book/tools/stamps build/stamp $$(filter tangle/%,$$^) > /dev/null;
# Only the chapters the goals need, when every goal names one (make
# ARCH=sm_80 ch5 leaves the other chapters' flags, and objects, alone):
# the chapter, the chapters it links and the one before it (a lab
# compares with its programs).
goal_of = ch$(1) chapter$(1) lab$(1) build/lab/ch$(1) skip-ch$(1) \
  $(ch$(1).programs) $(ch$(1).micro)
GOAL_CHAPTERS := $(foreach n,$(CHAPTERS),$(if $(filter $(call goal_of,$(n)),$(MAKECMDGOALS)),$(n)))
FLAG_CHAPTERS := $(if $(and $(MAKECMDGOALS),$(GOAL_CHAPTERS),$(if $(filter-out \
  $(foreach n,$(GOAL_CHAPTERS),$(call goal_of,$(n))),$(MAKECMDGOALS)),,y)),\
  $(sort $(foreach n,$(filter $(BUILDABLE),$(GOAL_CHAPTERS)),$(n) $(patsubst ch%,%,$(ch$(n).links) $(ch$(n).micro_links) \
    $(firstword $(ch$(n).prev_programs)) $(foreach p,$(firstword $(ch$(n).prev_programs)),\
    $(ch$(patsubst ch%,%,$(p)).links))))),$(BUILDABLE) $(LINKED_ONLY))
ifneq ($(wildcard build/.),)
$(foreach n,$(filter $(FLAG_CHAPTERS),$(BUILDABLE) $(LINKED_ONLY)),$(foreach p,ch$(n) $(ch$(n).micro),\
  $(call keep_flags,$(p),$(call nvcc_for,$(p),$(n)))))
endif
# A harness program and a microbenchmark compile alike; $(3) is what the
# object depends on besides its source and flags.
define compile_rules   # $(1) program, $(2) chapter, $(3) headers
build/$(1).o: tangle/$(1).cu $(3) build/$(1).flags $(call stamp,tangle/$(1).cu $(3))
	@mkdir -p build/src
	$$(say) NVCC $$@
	$(Q)$(call restamp) src=$$$$($(call source_of,$(1).cu,$(2))) && \
	$(NVCC) $(call nvcc_for,$(1),$(2)) -Itangle -c $$$$src \
	  -o $$@ 2> build/$(1).log; rc=$$$$?; echo $$$$src > build/$(1).src; \
	  grep -v -e '^ptxas info' -e 'bytes stack frame' build/$(1).log >&2; \
	  exit $$$$rc
endef
$(foreach n,$(BUILDABLE) $(LINKED_ONLY),$(eval $(call compile_rules,ch$(n),$(n),$(HEADERS))))
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
build/main-$(1).o: tangle/main.c $(HEADERS) build/ch$(2).flags $(call stamp,tangle/main.c $(HEADERS))
	@mkdir -p build/src
	$$(say) CC $$@
	$(Q)$(call restamp) src=$$$$($(call source_of,main.c,0,main-$(1).c)) && \
	$(CC) $(CFLAGS) -I$(CUDA_INC) -Itangle $(call main_for,$(1),$(2)) \
	  -c $$$$src -o $$@ 2> build/main-$(1).log; \
	  rc=$$$$?; cat build/main-$(1).log >&2; exit $$$$rc
$(1): build/main-$(1).o build/ch$(2).o $(call link_objs,$(ch$(2).links)) $(COMMON_OBJS)
	$$(say) LINK $$@
	$(Q)$(NVCC) $(call gencode,$(call target_of,$(2))) -o $$@ $$^ $(ch$(2).libs) \
	  && $(BOOKDATA) codehash $(2) > build/$(1).codehash
# What the program says about its kernels, without a GPU.
build/kernels-$(1).tsv: $(1)
	$$(say) LIST $$@
	$(Q)./$(1) --list > $$@
endef
$(foreach n,$(BUILDABLE),$(foreach p,$(ch$(n).programs),\
  $(eval $(call program_rules,$(p),$(n)))))

# A microbenchmark: no harness, no kernel list, no per-kernel reports.
define micro_rules   # $(1) program, $(2) chapter
$(1): build/$(1).o $(call link_objs,$(ch$(2).micro_links)) \
      $(if $(ch$(2).micro_links),$(COMMON_OBJS))
	$$(say) LINK $$@
	$(Q)$(NVCC) $(call gencode,$(call target_of,$(2))) -o $$@ $$^ $(ch$(2).libs) \
	  && $(BOOKDATA) codehash $(2) > build/$(1).codehash
endef
$(foreach n,$(BUILDABLE),$(foreach p,$(ch$(n).micro),\
  $(eval $(call micro_rules,$(p),$(n)))))
# Chapter 14's microbenchmark times the library, which it links as a
# reader's program does (appendix: chapter 14's dispatchers as a
# library), with the harness's medians and quartiles.
libspeed: build/lib/libsgemmbook.a build/harness.o

# A lab: make labN writes lab/chN.cu once (never over a file that
# exists): chapter N's program with the body of its lab kernel left for the
# student (book/tools/labstub), between two marks; then it compiles the
# lines between the marks, put into the chapter's pristine stub
# (tangle/chN-lab.cu, bookdata lab-splice: nothing else of the student's
# file is compiled), into build/lab/chN as the chapter's program is
# compiled, builds the programs the grading compares with, and writes
# ./labN, which grades (book/tools/grade).  No noweb, and nothing in
# tangle/ changes.
LABS := $(foreach n,$(BUILDABLE),$(if $(ch$(n).lab),$(n)))
# ./labN, written before the lab's code compiles (so that code that does
# not compile is graded too: wrong, with its first error)
lab_wrapper = @printf '\#!/bin/sh\n\# Grades lab/ch$(1).cu (make lab$(1) builds it).\nexec "$$$$(dirname "$$$$0")"/book/tools/grade $(1) "$$$$@"\n' > lab$(1) && chmod +x lab$(1)
LAB_DIR ?= lab
define lab_rules   # $(1) chapter
$(LAB_DIR)/ch$(1).cu: | tangle/ch$(1)-lab.cu build/manifest.tsv
	@mkdir -p $(LAB_DIR)
	@if [ ! -e $$@ ]; then book/tools/labstub $(1) > $$@.tmp && mv $$@.tmp $$@ \
	  && echo "make: wrote $$@: write the lab's code there (search for \"Lab, chapter $(1)\"), then make lab$(1) && ./lab$(1)"; fi
# (a failed compile leaves no program behind, so that ./labN cannot
# grade an older one, and its first errors in build/lab/chN.failed, which
# ./labN reports as wrong; so does code that bookdata lab-screen refuses,
# whose reasons build/lab/chN.refused keeps for ./labN to report)
# A lab compiles against its chapter's own headers as its kit has them
# (build/lab/incN, bookdata lab-headers: no #define of a name the lab's
# lines write), before tangle/'s, so that no header holds its answer.
# The screen's reference: the chapter's own code as a student's file
# (bookdata lab-answer), spliced and compiled exactly as a lab is, so that
# the two objects differ only by what the student wrote (build/chN.o may
# come from noweb's output, whose line markers name the .nw files and
# change the host compiler's choices in the book's host functions).
build/lab/inc$(1)/.made: tangle/ch$(1)-lab.cu $(HEADERS)
	$(Q)rm -rf build/lab/inc$(1) && $(BOOKDATA) lab-headers $(1) build/lab/inc$(1) && touch $$@
build/lab/ch$(1)-answer.o: tangle/ch$(1)-lab.cu tangle/ch$(1).cu $(HEADERS) build/ch$(1).flags build/lab/inc$(1)/.made
	@mkdir -p build/lab
	$$(say) NVCC $$@
	$(Q)$(BOOKDATA) lab-answer tangle/ch$(1)-lab.cu tangle/ch$(1).cu > build/lab/ch$(1)-answer-in.cu \
	  && $(BOOKDATA) lab-splice build/lab/ch$(1)-answer-in.cu tangle/ch$(1)-lab.cu build/lab/ch$(1)-answer.cu \
	  && $(NVCC) $(call nvcc_for,ch$(1),$(1)) -Ibuild/lab/inc$(1) -Itangle -c build/lab/ch$(1)-answer.cu -o $$@ \
	    2> build/lab/ch$(1)-answer.log || { cat build/lab/ch$(1)-answer.log >&2; exit 1; }
build/lab/ch$(1): $(LAB_DIR)/ch$(1).cu tangle/ch$(1)-lab.cu $(HEADERS) build/ch$(1).flags $(COMMON_OBJS) \
    build/main-ch$(1).o build/lab/ch$(1)-answer.o build/lab/inc$(1)/.made build/lab/labrun-ch$(1).o \
    $(call link_objs,$(ch$(1).links)) FORCE
	@mkdir -p build/lab
	$(call lab_wrapper,$(1))
	@if [ ! $$@ -nt $(LAB_DIR)/ch$(1).cu ] || [ ! $$@ -nt build/ch$(1).flags ] \
	    || [ ! $$@ -nt tangle/ch$(1)-lab.cu ] \
	    || [ "$$$$(cat $$@.src 2>/dev/null)" != "$(abspath $(LAB_DIR))/ch$(1).cu" ]; then \
	  rm -f $$@ $$@-run $$@.src $$@.refused $$@.failed; \
	  echo "$(abspath $(LAB_DIR))/ch$(1).cu" > $$@.file; \
	  $(BOOKDATA) lab-splice $(LAB_DIR)/ch$(1).cu tangle/ch$(1)-lab.cu $$@.cu 2> $$@.failed \
	    || { cat $$@.failed >&2; exit 2; }; rm -f $$@.failed; \
	  $(NVCC) $(call nvcc_for,ch$(1),$(1)) -Ibuild/lab/inc$(1) -Itangle -E $$@.cu -o $$@.i 2> $$@.log \
	    || { grep -m 3 -i 'error' $$@.log > $$@.failed || echo "nvcc -E failed" > $$@.failed; \
	      cat $$@.failed >&2; exit 1; }; \
	  $(BOOKDATA) lab-cpp $$@.i $(LAB_DIR)/ch$(1).cu 2> $$@.failed \
	    || { cat $$@.failed >&2; exit 2; }; rm -f $$@.failed; \
	  echo "$(NVCC) ... -c $$@.cu (the lab's code of $(LAB_DIR)/ch$(1).cu in the stub) -o $$@"; \
	  $(NVCC) $(call nvcc_for,ch$(1),$(1)) -Ibuild/lab/inc$(1) -Itangle -c $$@.cu -o $$@.o 2> $$@.log; \
	  rc=$$$$?; grep -v -e '^ptxas info' -e 'bytes stack frame' $$@.log >&2; \
	  [ $$$$rc = 0 ] || { grep -m 3 -i 'error' $$@.log > $$@.failed || echo "nvcc exit $$$$rc" > $$@.failed; \
	    exit $$$$rc; }; \
	  $(BOOKDATA) lab-screen $$@.o build/lab/ch$(1)-answer.o > $$@.refused; rc=$$$$?; \
	  [ $$$$rc = 1 ] && { sed 's/^/make: lab$(1) is not linked: /' $$@.refused >&2; \
	    echo "make: ./lab$(1) grades it wrong, with that reason" >&2; exit 0; }; \
	  [ $$$$rc = 0 ] || exit $$$$rc; rm -f $$@.refused; \
	  $(NVCC) $(call gencode,$(call target_of,$(1))) -o $$@ $$@.o build/main-ch$(1).o \
	    $(call link_objs,$(ch$(1).links)) $(COMMON_OBJS) $(ch$(1).libs) 2> $$@.log \
	    && $(NVCC) $(call gencode,$(call target_of,$(1))) -o $$@-run $$@.o build/lab/labrun-ch$(1).o \
	    $(call link_objs,$(ch$(1).links)) $(COMMON_OBJS) $(ch$(1).libs) 2>> $$@.log \
	    || { cat $$@.log >&2; rm -f $$@ $$@-run; \
	      { grep -m 3 -i 'undefined\|error' $$@.log || echo "the link failed"; } \
	        | sed 's/^/the link failed: /' > $$@.failed; exit 1; }; \
	  echo "$(abspath $(LAB_DIR))/ch$(1).cu" > $$@.src; fi
# (./labN is written by build/lab/chN's recipe, which always runs)
lab$(1): build/lab/ch$(1) build/lab/ch$(1)-book build/lab/judge $(ch$(1).programs) $(ch$(1).prev_programs)
	@:
.PHONY: lab$(1)
endef
$(foreach n,$(LABS),$(eval $(call lab_rules,$(n))))
# Students' lab files, graded where none of them reaches the grading
# (book/tools/grade-files: a copy of the book's commit, built there).
grade:
	@[ -n "$(LAB)" ] && [ -n "$(FILES)" ] \
	  || { echo 'usage: make grade LAB=N FILES="a.cu b.cu ..." [SIZE=S]' >&2; exit 2; }
	@book/tools/grade-files $(LAB) $(if $(SIZE),--size $(SIZE)) -- $(FILES)
.PHONY: grade
# The runner (book/lab/labrun.c) for chapter N's table of kernels, and
# with the book's own kernels (build/lab/chN-book): the speed a lab is
# held to, and, for every chapter, the GPU tests' check that no kernel
# writes C outside its m x n (make book-runners).
define runner_rules   # $(1) chapter
build/lab/labrun-ch$(1).o: book/lab/labrun.c book/lab/lab.h $(HEADERS)
	@mkdir -p build/lab
	$$(say) CC $$@
	$(Q)$(CC) $(CFLAGS) -I$(CUDA_INC) -Itangle -DLAB_PROGRAM=ch$(1)_program -c $$< -o $$@
build/lab/ch$(1)-book: build/lab/labrun-ch$(1).o build/ch$(1).o \
    $(call link_objs,$(ch$(1).links)) $(COMMON_OBJS)
	$$(say) LINK $$@
	$(Q)$(NVCC) $(call gencode,$(call target_of,$(1))) -o $$@ $$< build/ch$(1).o \
	    $(call link_objs,$(ch$(1).links)) $(COMMON_OBJS) $(ch$(1).libs)
endef
$(foreach n,$(BUILDABLE),$(eval $(call runner_rules,$(n))))
book-runners: $(foreach n,$(BUILDABLE),build/lab/ch$(n)-book) build/lab/judge
.PHONY: book-runners
# The grader's judge (book/lab/judge.c): it verifies, in a process of its
# own and with no student code linked, the C that a lab's runner
# (book/lab/labrun.c, linked with the student's code as build/lab/chN-run)
# wrote for one check.
build/lab/judge: book/lab/judge.c book/lab/lab.h $(HEADERS) $(COMMON_OBJS)
	@mkdir -p build/lab
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS) -I$(CUDA_INC) -Itangle -c book/lab/judge.c -o $@.o \
	  && $(NVCC) -o $@ $@.o $(COMMON_OBJS) -lcublas
# The tests' check of each lab's stub, as book/tools/labstub writes it now
# (the tests keep it in build/test-lab/): it compiles, by the front ends
# alone (syntax_flags), without a warning.
define lab_check_rules   # $(1) chapter
build/check/lab/ch$(1).ok: build/test-lab/ch$(1).cu $(HEADERS) build/ch$(1).flags
	@mkdir -p $$(@D); rm -f $$@
	$$(say) CHECK $$<
	$(Q)$(NVCC) $(call syntax_flags,ch$(1),$(1)) -Itangle -c $$< -o $$(@:.ok=.o) \
	  > $$(@:.ok=.log) 2>&1 && [ ! -s $$(@:.ok=.log) ] \
	  || { sed -i '1i lab$(1): $$<:' $$(@:.ok=.log); exit 1; }
	$(Q)rm -f $$(@:.ok=.o); touch $$@
endef
$(foreach n,$(LABS),$(eval $(call lab_check_rules,$(n))))
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
# program it runs changed (its preamble's program:, or the program of F):
# ANSWER_SOURCE_chN-exE and ANSWER_PROGRAM_chN-exE, generated variables
answer_target = $(ANSWER_PROGRAM_$(1))
answer_source = $(ANSWER_SOURCE_$(1))
answer_main = $(ANSWER_MAIN_$(1))
answer_links = $(if $(filter $(4),$(ch$(2).micro)),\
  $(call link_objs,$(ch$(2).micro_links)) $(if $(ch$(2).micro_links),$(COMMON_OBJS)),\
  $(if $(call answer_main,$(1)),,build/main-$(3).o) \
  $(call link_objs,$(ch$(2).links)) $(COMMON_OBJS))
define answer_rules   # $(1) chN-exE, $(2) chapter, $(3) program, $(4) file
build/answers/$(1).cu: answers/$(1).diff tangle/$(4).cu book/tools/apply-diff
	@mkdir -p $$(@D)
	$$(say) PATCH $$@
	$(Q)book/tools/apply-diff $$< tangle/$(4).cu > $$@.tmp && mv $$@.tmp $$@
build/answers/$(1).o: build/answers/$(1).cu $(HEADERS) build/$(4).flags
	$$(say) NVCC $$@
	$(Q)$(NVCC) $(call nvcc_for,$(4),$(2)) -Itangle -c $$< -o $$@ \
	  2> build/answers/$(1).log; rc=$$$$?; \
	  grep -v -e '^ptxas info' -e 'bytes stack frame' build/answers/$(1).log >&2; \
	  exit $$$$rc
# A changed chapter links as the chapter's program does (with main.c,
# unless the change gives it a main of its own); a changed
# microbenchmark as the microbenchmark.
build/answers/$(1): build/answers/$(1).o $(call answer_links,$(1),$(2),$(3),$(4))
	$$(say) LINK $$@
	$(Q)$(NVCC) $(call gencode,$(call target_of,$(2))) -o $$@ $$^ $(ch$(2).libs)
# The tests' check of the same change: compiled by the front ends alone
# (nvcc -fdevice-syntax-only: no device code, a tenth of the time) and
# linked as above; make answers builds the programs in full.
build/check/answers/$(1): build/answers/$(1).cu $(HEADERS) build/$(4).flags \
    $(call answer_links,$(1),$(2),$(3),$(4))
	@mkdir -p $$(@D); rm -f $$@
	$$(say) CHECK $$@
	$(Q)$(NVCC) $(call syntax_flags,$(4),$(2)) -Itangle -c $$< -o $$@.o \
	  > $$@.log 2>&1 || { cat $$@.log >&2; exit 1; }
	$(Q)$(NVCC) $(call gencode,$(call target_of,$(2))) -o $$@ $$@.o \
	  $(call answer_links,$(1),$(2),$(3),$(4)) $(ch$(2).libs)
endef
$(foreach b,$(notdir $(ANSWER_BINS)),\
  $(eval $(call answer_rules,$(b),$(call answer_chapter,$(b)),$(call answer_target,$(b)),$(call answer_source,$(b)))))
answers: $(ANSWER_BINS)
check-answers: $(ANSWER_BINS:build/answers/%=build/check/answers/%)
.PHONY: answers check-answers

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
# its ptxas report is theirs together, and so is its machine code: each
# object's is read once (build/sass-obj-O.txt), not again in every
# program that links it.
build/sass-obj-%.txt: build/%.o book/tools/sass
	$(say) SASS $@
	$(Q)book/tools/sass $< > $@.tmp && mv $@.tmp $@
build/sass-obj-%.tsv: build/sass-obj-%.txt book/tools/sass-count
	$(Q)book/tools/sass-count --object $< > $@.tmp && mv $@.tmp $@
define facts_rules   # $(1) program, $(2) chapter
build/ptxas-$(1).csv: $(1) build/kernels-$(1).tsv book/tools/ptxas
	$$(say) PTXAS $$@
	$(Q)book/tools/ptxas build/kernels-$(1).tsv \
	  $(foreach o,ch$(2) $(ch$(2).links),build/$(o).log) > $$@
build/sass-$(1).txt: $(foreach o,ch$(2) $(ch$(2).links),build/sass-obj-$(o).txt)
	$(Q)cat $$^ > $$@
build/sass-$(1).csv: $(foreach o,ch$(2) $(ch$(2).links),build/sass-obj-$(o).tsv) \
  build/kernels-$(1).tsv book/tools/sass-count
	$$(say) SASS $$@
	$(Q)book/tools/sass-count build/kernels-$(1).tsv \
	  $(foreach o,ch$(2) $(ch$(2).links),build/sass-obj-$(o).tsv) > $$@
endef
$(foreach n,$(BUILDABLE),$(foreach p,$(ch$(n).programs),\
  $(eval $(call facts_rules,$(p),$(n)))))

# The manifests as one table, chapter<TAB>field<TAB>value, for the tools,
# with what only make knows: the ARCH and the chapters it allows
# (build/arch.flags holds the ARCH of the last make).
ifneq ($(wildcard build/.),)
$(call keep_flags,arch,$(ARCH))
endif
build/manifest.tsv: $(MANIFESTS) $(wildcard build/arch.flags) book/tools/bookdata \
    book/bookdata/manifest.py
	@mkdir -p build
	@$(BOOKDATA) manifest --tsv $(ARCH) > $@.tmp && mv $@.tmp $@

# (build/sass-P.txt: the program's machine code in one file, for the
# reader; the book reads each object's, build/sass-obj-O.txt)
PROGRAM_FACTS := $(foreach p,$(HARNESS_BINS),build/ptxas-$(p).csv build/sass-$(p).csv \
  build/sass-$(p).txt) $(foreach n,$(BUILDABLE),build/sass-obj-ch$(n).txt)

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

# --- the library (make lib, make install, make examples) -----------------
# libsgemmbook: chapter 14's dispatchers and the chapters they link,
# compiled again with the default stream of each host thread, code that
# can go into a shared library, and every symbol hidden but those marked
# for export, and the library's own file, tangle/sgemmbook.cu, in the
# harness's place (appendix: chapter 14's dispatchers as a library).
# The static library is one object whose hidden symbols are made local,
# so that a program that links it meets only the names sgemmbook_*.
LIB_TARGET := sm_90a
LIB_CHAPTERS := 5 8 9 10 11 12 14
LIB_OBJS := $(LIB_CHAPTERS:%=build/lib/ch%.o) build/lib/sgemmbook.o
CUDA_LIB := $(abspath $(dir $(shell command -v $(NVCC)))../lib64)
PREFIX ?= /usr/local
# (chapters 5, 8, 9, 10, 11 and 14 also for Ampere and Ada: code for sm_80,
# sm_86 and sm_89, and sm_80's PTX for the GPUs after them: the library's
# kernels on GPUs other than Hopper)
LIB_AMPERE := 5 8 9 10 11 14
LIB_OTHERS := sm_86 sm_89
lib_flags = $(call gencode,$(LIB_TARGET)) $(subst -Xptxas -v,,$(NVCCFLAGS)) \
  --default-stream per-thread -Xcompiler -fPIC,-fvisibility=hidden -Itangle
lib_arch = $(if $(filter $(1),$(LIB_AMPERE)),$(call gencode,sm_80) \
  $(foreach t,$(LIB_OTHERS),-gencode=arch=compute_$(patsubst sm_%,%,$(t)),code=$(t)))
# (whatever ARCH is: the library holds code for Hopper and for Ampere)
lib: build/lib/libsgemmbook.a build/lib/libsgemmbook.so
# (and on the Makefile, which holds their flags)
build/lib/ch%.o: tangle/ch%.cu $(HEADERS) build/stamp/ch%.cu $(call stamp,$(HEADERS)) Makefile
	@mkdir -p build/lib
	$(say) NVCC $@
	$(Q)book/tools/stamps build/stamp $(filter tangle/%,$^) > /dev/null; \
	  $(NVCC) $(lib_flags) $(call lib_arch,$*) $(ch$*.flags) -DBOOK_CHAPTER=$* -c $< -o $@ 2> $@.log; \
	  rc=$$?; grep -v -e '^ptxas info' $@.log >&2; exit $$rc
build/lib/sgemmbook.o: tangle/sgemmbook.cu tangle/sgemmbook.h tangle/sgemmbook-check.h $(HEADERS) Makefile \
  $(call stamp,tangle/sgemmbook.cu tangle/sgemmbook.h tangle/sgemmbook-check.h $(HEADERS))
	@mkdir -p build/lib
	$(say) NVCC $@
	$(Q)book/tools/stamps build/stamp $(filter tangle/%,$^) > /dev/null; \
	  $(NVCC) $(lib_flags) -c $< -o $@ 2> $@.log; \
	  rc=$$?; grep -v -e '^ptxas info' $@.log >&2; exit $$rc
build/lib/libsgemmbook.a: $(LIB_OBJS)
	$(say) AR $@
	$(Q)ld -r -o build/lib/sgemmbook-all.o $^ \
	  && objcopy --localize-hidden build/lib/sgemmbook-all.o \
	  && rm -f $@ && ar rcs $@ build/lib/sgemmbook-all.o
build/lib/libsgemmbook.so: $(LIB_OBJS)
	$(say) LINK $@
	$(Q)$(CXX) -shared -Wl,-soname,libsgemmbook.so -Wl,--no-undefined -o $@ $^ \
	  -L$(CUDA_LIB) -lcudart
install: lib
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 644 build/lib/libsgemmbook.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 build/lib/libsgemmbook.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 tangle/sgemmbook.h $(DESTDIR)$(PREFIX)/include/
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' \
	  'includedir=$${prefix}/include' '' 'Name: sgemmbook' \
	  'Description: the dispatchers of Fast Matrix Multiplication on NVIDIA GPUs' \
	  "Version: $$(sed -n 's/^#define SGEMMBOOK_VERSION "\(.*\)".*/\1/p' tangle/sgemmbook.h)" \
	  'Libs: -L$${libdir} -Wl,-rpath,$${libdir} -lsgemmbook' \
	  'Libs.private: -L$(CUDA_LIB) -lcudart -lstdc++ -lm' \
	  'Cflags: -I$${includedir}' > $(DESTDIR)$(PREFIX)/lib/pkgconfig/sgemmbook.pc
	@echo "make install: the library, sgemmbook.h and sgemmbook.pc are in $(DESTDIR)$(PREFIX)"
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libsgemmbook.a $(DESTDIR)$(PREFIX)/lib/libsgemmbook.so \
	  $(DESTDIR)$(PREFIX)/include/sgemmbook.h $(DESTDIR)$(PREFIX)/lib/pkgconfig/sgemmbook.pc
# The example: a C program that finds the library through pkg-config,
# here in a copy installed under build/stage.
examples: examples/gemm
examples/gemm: examples/gemm.c tangle/sgemmbook.h $(LIB_OBJS)
	@$(MAKE) -s install PREFIX=$(CURDIR)/build/stage > /dev/null
	$(say) CC $@
	$(Q)PKG_CONFIG_PATH=$(CURDIR)/build/stage/lib/pkgconfig; export PKG_CONFIG_PATH; \
	  $(CC) $(CFLAGS) -Werror -I$(CUDA_INC) $$(pkg-config --cflags sgemmbook) $< -o $@ \
	  $$(pkg-config --libs sgemmbook) -L$(CUDA_LIB) -lcublas -lcudart -lm
.PHONY: lib install uninstall examples

readme: build/manifest.tsv
	@$(BOOKDATA) readme '$(RESULTS)' $(NW)

# --- tests ----------------------------------------------------------------
# tests/run checks the committed tangle/ before it builds anything, then
# builds (make all) and tests what was built.
tests/unit: tests/unit.c $(COMMON_OBJS) $(HEADERS)
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS) -I$(CUDA_INC) -Itangle -c tests/unit.c \
	  -o build/unit.o
	$(say) LINK $@
	$(Q)$(NVCC) -o $@ build/unit.o $(COMMON_OBJS) -lcublas

tests/plans: tests/plans.c tangle/plan14.h
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS) -std=c99 -pedantic -Werror -Itangle tests/plans.c -o $@

# The library as a C99 program links it (no CUDA header): the static
# library, and the shared one.
tests/libcheck: tests/libcheck.c tangle/sgemmbook.h build/lib/libsgemmbook.a
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS) -std=c99 -Wall -Wextra -pedantic -Werror -Itangle tests/libcheck.c \
	  build/lib/libsgemmbook.a -L$(CUDA_LIB) -lcudart -lstdc++ -lm -o $@
# (libverify holds the library to the harness's bound: tolerance())
tests/libverify: tests/libverify.c tangle/sgemmbook.h build/lib/libsgemmbook.so build/harness.o
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS) -std=gnu99 -Werror -I$(CUDA_INC) -Itangle tests/libverify.c build/harness.o \
	  -Lbuild/lib -Wl,-rpath,$(CURDIR)/build/lib -lsgemmbook -L$(CUDA_LIB) -lcublas -lcudart -lpthread -lm -o $@
tests/libcheck-so: tests/libcheck.c tangle/sgemmbook.h build/lib/libsgemmbook.so
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS) -std=c99 -Wall -Wextra -pedantic -Werror -Itangle tests/libcheck.c \
	  -Lbuild/lib -Wl,-rpath,$(CURDIR)/build/lib -lsgemmbook -o $@

# (+: tests/run runs make, which shares this make's jobs)
test:
	+@CHAPTERS="$(CHAPTERS)" RESULTS="$(RESULTS)" tests/run

# What the tests build after checking tangle/.
test-facts: $(PROGRAM_FACTS) build/manifest.tsv

# The other way of compiling each chapter's code gives no warning either:
# the copy tangled with #line directives (build/src/) where the build
# compiled tangle/, and tangle/ where it compiled the copy; by the front
# ends alone (nvcc -fdevice-syntax-only, and the host compiler's
# -fsyntax-only: the build compiled the same code in full), which give the
# warnings, in a tenth of a full compile.  A stamp build/check/P.ok per
# file, remade when its source, headers or flags change; make -k
# check-compile runs them all.
CHECKED := $(foreach n,$(BUILDABLE),ch$(n) $(ch$(n).micro))
define check_rules   # $(1) program, $(2) chapter
build/check/$(1).ok: tangle/$(1).cu $(HEADERS) build/$(1).flags $(call nw_upto,$(2))
	@mkdir -p build/check; rm -f $$@
	$$(say) CHECK $(1).cu
	$(Q)if [ "$$$$(cat build/$(1).src 2>/dev/null)" = tangle/$(1).cu ]; then \
	  notangle -L -R$(1).cu $(call nw_upto,$(2)) > build/check/$(1).cu \
	    || { echo "$(1).cu: notangle -L failed" > build/check/$(1).log; exit 1; }; \
	  other=build/check/$(1).cu; else other=tangle/$(1).cu; fi; \
	$(NVCC) $(call syntax_flags,$(1),$(2)) -Xcompiler -fsyntax-only -Itangle \
	  -c $$$$other -o build/check/$(1).o > build/check/$(1).log 2>&1 \
	  || { sed -i "1i $$$$other does not compile:" build/check/$(1).log; exit 1; }; \
	if [ -s build/check/$(1).log ]; then sed -i "1i $$$$other:" build/check/$(1).log; exit 1; fi; \
	rm -f build/check/$(1).o; echo $$$$other > $$@
endef
$(foreach n,$(BUILDABLE),$(foreach p,ch$(n) $(ch$(n).micro),\
  $(eval $(call check_rules,$(p),$(n)))))
check-compile: $(CHECKED:%=build/check/%.ok)
.PHONY: check-compile
# What make test builds before its tests (tests/run): the programs, the
# book and the tests' inputs; it makes the instructor's edition and the
# slides beside the tests.  test-build is all of it at once.
test-inputs: all tests/unit tests/plans test-facts \
  tests/libcheck tests/libcheck-so tests/libverify examples/gemm
test-build: test-inputs instructor slides
.PHONY: test-inputs test-build test-facts

clean:
	rm -rf build $(foreach n,$(CHAPTERS),$(ch$(n).programs) $(ch$(n).micro) lab$(n)) \
	  tests/unit tests/plans tests/libcheck tests/libcheck-so tests/libverify examples/gemm
