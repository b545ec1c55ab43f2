# Fast Matrix Multiplication on NVIDIA GPUs: a literate program.
#
#   make             the programs ./ch0 ... ./chN and build/book.{pdf,html}
#   make chapterN    just ./chN
#   make bench       measure every chapter on this GPU -> results/<gpu>/
#   make test        the tests (those that need a GPU run when one is here)
#
# The programs are built from tangle/, which `make` writes from
# chapters/ with noweb.  On a machine without noweb (a GPU box with only
# the CUDA Toolkit) `make bench` builds from the committed tangle/.

SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:

CHAPTERS := $(shell ls chapters | sed -n 's/^ch\([0-9]*\)\.nw$$/\1/p' \
                    | sort -n)
NW := $(CHAPTERS:%=chapters/ch%.nw)
BINS := $(CHAPTERS:%=ch%)
TANGLED := tangle/harness.h tangle/harness.c $(CHAPTERS:%=tangle/ch%.cu)

ARCH ?= sm_90
NVCC ?= nvcc
CC ?= gcc
CUDA_INC := $(abspath $(dir $(shell command -v $(NVCC)))../include)
CFLAGS ?= -std=c11 -O2 -Wall -Wextra
NVCCFLAGS ?= -O3 -std=c++17 -Xcompiler -Wall,-Wextra -Xptxas -v
GPU_RESULTS := $(patsubst %/,%,$(firstword $(sort $(wildcard results/*/))))
RESULTS ?= $(GPU_RESULTS)
GPU_DIR ?= $(RESULTS)
TOOLS_STAMP := build/tools.stamp
BENCH_SIZES ?= 256,512,1024,1111,2048,4096,4097

.PHONY: all programs book tangle bench profile test clean readme tools
.PRECIOUS: build/ch%.o

all: programs book readme

programs: $(BINS)

chapter%: ch%
	@:

# --- tools ---------------------------------------------------------------
tools: $(TOOLS_STAMP)
$(TOOLS_STAMP): book/tools/need-tools
	@book/tools/need-tools
	@mkdir -p build && touch $@

# --- tangling --------------------------------------------------------------
# Chapter N's program may use chunks of every chapter up to N.  cpif in
# book/tools/tangle keeps a file's date when its code did not change, so an
# edit to prose recompiles nothing.
# Without noweb (a reader who only wants `make chapter4`, or a GPU box)
# the committed tangle/ is used as it is; `make` installs noweb for the
# book, and the tests check that tangle/ matches chapters/.
tangle: $(TANGLED)
ifneq ($(NO_TANGLE),1)
ifneq ($(shell command -v notangle 2>/dev/null),)
tangle/harness.h tangle/harness.c tangle/ch0.cu: chapters/ch0.nw
	@book/tools/tangle $(notdir $@) $@ $^
define tangle_rule
tangle/ch$(1).cu: $(filter $(foreach c,$(CHAPTERS),$(if $(shell \
	[ $(c) -le $(1) ] && echo y),chapters/ch$(c).nw)),$(NW))
	@book/tools/tangle ch$(1).cu $$@ $$^
endef
$(foreach n,$(filter-out 0,$(CHAPTERS)),$(eval $(call tangle_rule,$(n))))
endif
endif

# --- compiling ------------------------------------------------------------
# Compiler output is kept in build/*.log: the ptxas report (registers,
# shared memory, spills) feeds the book and the tests.
build/harness.o: tangle/harness.c tangle/harness.h
	@mkdir -p build
	$(CC) $(CFLAGS) -I$(CUDA_INC) -c $< -o $@ 2> build/harness.log; \
	  rc=$$?; cat build/harness.log >&2; exit $$rc

build/ch%.o: tangle/ch%.cu tangle/harness.h
	@mkdir -p build
	$(NVCC) -arch=$(ARCH) $(NVCCFLAGS) -Itangle -c $< -o $@ \
	  2> build/ch$*.log; rc=$$?; \
	  grep -v -e '^ptxas info' -e 'bytes stack frame' build/ch$*.log >&2; \
	  exit $$rc

build/ptxas-ch%.csv: build/ch%.o book/tools/ptxas.awk
	awk -f book/tools/ptxas.awk build/ch$*.log > $@

# The machine code, for the book and the tests; needs no GPU.
build/sass-ch%.txt: build/ch%.o book/tools/sass
	book/tools/sass $< > $@

ch%: build/ch%.o build/harness.o
	$(NVCC) -arch=$(ARCH) -o $@ $^ -lcublas

# --- measuring ------------------------------------------------------------
# Never tangles or installs anything: a GPU machine needs only nvcc and
# cuBLAS.
bench:
	$(MAKE) NO_TANGLE=1 programs
	book/tools/bench "$(BENCH_SIZES)" $(CHAPTERS)

# Hardware counters (Nsight Compute) and the disassembly, for the book.
profile:
	$(MAKE) NO_TANGLE=1 programs
	book/tools/profile $(GPU_DIR) $(CHAPTERS)

# --- the book -------------------------------------------------------------
include book/book.mk

readme: README.md
README.md: $(wildcard $(RESULTS)/*.csv) $(NW) book/tools/readme-table
	@book/tools/splice-readme '$(RESULTS)' $(NW)

# --- tests ----------------------------------------------------------------
tests/unit: tests/unit.c build/harness.o tangle/harness.h
	$(CC) $(CFLAGS) -I$(CUDA_INC) -Itangle -c tests/unit.c \
	  -o build/unit.o
	$(NVCC) -o $@ build/unit.o build/harness.o -lcublas

test: all tests/unit $(CHAPTERS:%=build/ptxas-ch%.csv) \
		$(CHAPTERS:%=build/sass-ch%.txt)
	@CHAPTERS="$(CHAPTERS)" RESULTS="$(RESULTS)" tests/run

clean:
	rm -rf build $(BINS) tests/unit
