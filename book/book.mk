# book/book.mk -- builds build/book.pdf and build/book.html from the chapters.
# Included by the top-level Makefile, which defines first:
#   CHAPTERS     chapter numbers in order (0 1 2 ...)
#   NW           chapters/ch0.nw chapters/ch1.nw ... in the same order
#   APPENDICES   the chapters' appendices, chapters/chN-NAME.nw, woven last
#   RESULTS      results/<gpu> whose numbers the book shows (may be empty)
#   TOOLS_STAMP  file that exists once noweb, pandoc and TeX are installed
#   PROGRAM_FACTS build/ptxas-P.csv, build/sass-P.csv for each program P
#   BOOKDATA     book/tools/bookdata; Q and say, for its quiet output;
#   DRY_RUN      not empty under make -n or make -q
#   rules for those, build/manifest.tsv and tangle/
# Targets: build/book.pdf build/book.html book (both) book-pdf book-html
#          build/results.keys book-clean book-shots
#          instructor: build/instructor.pdf and build/instructor.html, the
#          book with the answers to the exercises (answers/chN.tex)
# Nothing here depends on a compiled binary: a prose edit re-weaves and
# re-typesets only.  Everything generated goes under build/.

BOOK_OUT      := build
# Results: the CSVs of $(RESULTS) (if any), ptxas reports and machine code,
# tangled code (for the staleness hashes).  Set BOOK_FACTS= to build the
# book without nvcc.
BOOK_CSV      := $(if $(strip $(RESULTS)),$(wildcard $(RESULTS)/*.csv))
BOOK_FACTS    ?= $(PROGRAM_FACTS)
BOOK_CU       := $(wildcard tangle/*.cu tangle/*.c tangle/*.h)
# Figures: figures/fig-NAME.tex plus the generated charts (progress,
# roofline, the tuning sweep of a chapter that measured one, and the
# timeline of a chapter that traces its steps: manifest field events).
BOOK_FIGS     := $(patsubst figures/%.tex,build/fig/%,$(wildcard figures/fig-*.tex)) \
                 build/fig/progress build/fig/roofline \
                 $(foreach n,$(CHAPTERS),$(if $(strip $(RESULTS)),$(if \
                   $(wildcard $(RESULTS)/sweep-ch$(n).csv),build/fig/sweep-ch$(n)))) \
                 $(foreach n,$(CHAPTERS),$(if $(strip $(ch$(n).events)),build/fig/timeline-ch$(n))) \
                 $(foreach n,$(CHAPTERS),$(if $(strip $(RESULTS)),$(if \
                   $(wildcard $(RESULTS)/suite-ch$(n).csv),build/fig/suite-ch$(n))))
# The chapters' LaTeX, or with -backend cat noweb's token stream for the
# HTML book: noweb's noweave pipeline with the book's own filters.
BOOK_NOWEAVE  := book/tools/weave
# The weave's filters in Python (book/weave/), behind book/tools/finduses,
# hilite, nw2pandoc and subst.
WEAVE_PY      := $(wildcard book/weave/*.py) book/bookdata/indexterms.py book/index-terms.txt
BOOK_PANDOC   := pandoc -f latex -t html5 -s --toc --toc-depth=2 \
  --number-sections --top-level-division=chapter \
  --mathml --self-contained --lua-filter=book/html.lua --css=book/book.css \
  --default-image-extension=svg --resource-path=build/fig \
  --metadata=lang:en

.PHONY: book book-pdf book-html book-clean book-shots instructor course syllabus
book: build/book.pdf build/book.html build/html/index.html build/syllabus.pdf
syllabus: build/syllabus.pdf
instructor: build/instructor.pdf build/instructor.html
course: build/course.pdf
book-pdf: build/book.pdf
book-html: build/book.html

# key<TAB>value file plus build/res/*.tex (tables, chart, \R definitions).
# The directory itself is a prerequisite so that a removed CSV is noticed.
build/results.keys: book/tools/bookdata $(wildcard book/bookdata/*.py) \
    build/manifest.tsv $(wildcard shapes/*.csv) \
    build/res/config $(BOOK_CSV) $(BOOK_FACTS) \
    $(BOOK_CU) $(if $(strip $(RESULTS)),$(wildcard $(RESULTS)))
	$(say) KEYS $@
	$(Q)$(BOOKDATA) keys $(BOOK_OUT) '$(RESULTS)' $(CHAPTERS)

# Records RESULTS and CHAPTERS; rewritten (new date) only when they change,
# so that switching GPUs or adding a chapter regenerates the results.
# (written while make reads this file, as build/P.flags are)
BOOK_CONFIG := $(RESULTS) | $(CHAPTERS)
ifneq ($(wildcard build/.),)
$(shell mkdir -p build/res)
ifneq ($(subst |$(strip $(file < build/res/config))|,,|$(strip $(BOOK_CONFIG))|),)
ifeq ($(DRY_RUN),)
$(file > build/res/config,$(BOOK_CONFIG))
else
build/res/config: flags-changed
endif
endif
endif

# One weave of all chapters (noweb's noweave pipeline, with uses found by
# book/tools/finduses): chunk numbers, cross-references and the indexes
# span the whole book.
# The student's book leaves out each chapter's manifest and its formulas
# (book/tools/weave); the instructor's edition weaves everything.
build/tex/chapters.tex: $(NW) $(APPENDICES) book/tools/weave book/tools/finduses $(WEAVE_PY) \
    book/tools/hilite book/tools/codebreaks book/tools/c-words | $(TOOLS_STAMP)
	@mkdir -p $(@D)
	$(say) WEAVE $@
	$(Q)book/tools/weave $(NW) $(APPENDICES) > $@.tmp
	$(Q)mv $@.tmp $@
build/tex/chapters-all.tex: $(NW) $(APPENDICES) book/tools/weave book/tools/finduses $(WEAVE_PY) \
    book/tools/hilite book/tools/codebreaks book/tools/c-words | $(TOOLS_STAMP)
	@mkdir -p $(@D)
	$(say) WEAVE $@
	$(Q)WEAVE_ALL=1 book/tools/weave $(NW) $(APPENDICES) > $@.tmp
	$(Q)mv $@.tmp $@

# The course edition's: each lab's chunk replaced by the stub the lab
# starts from (bookdata labcut, which reads the manifests).
build/tex/chapters-course.tex: $(NW) $(APPENDICES) $(MANIFESTS) book/tools/weave book/bookdata/labcut.py \
    book/tools/finduses $(WEAVE_PY) book/tools/hilite book/tools/codebreaks \
    book/tools/c-words | $(TOOLS_STAMP)
	@mkdir -p $(@D)
	$(say) WEAVE $@
	$(Q)WEAVE_COURSE=1 book/tools/weave $(NW) $(APPENDICES) > $@.tmp
	$(Q)mv $@.tmp $@

# A figure: one tikzpicture, typeset alone as figures/wrapper.tex does,
# into a cropped PDF page; the SVG for the HTML book is made from that
# PDF.  The preamble (TikZ, pgfplots), read once into a format, is what
# each figure starts from: a figure takes 0.3 s instead of 0.9 s.
FIG_FMT := build/fig/figures.fmt
$(FIG_FMT): figures/preamble.tex | $(TOOLS_STAMP)
	@mkdir -p $(@D)
	$(say) TEXFMT $@
	$(Q)pdftex -ini -interaction=batchmode -halt-on-error -output-directory $(@D) \
	  -jobname figures '&pdflatex' '\input{figures/preamble.tex}\dump' \
	  > /dev/null || { tail -n 20 $(@D)/figures.log; exit 1; }
define book-fig
@mkdir -p $(@D)
$(say) TIKZ $@
$(Q)pdflatex -fmt=$(basename $(FIG_FMT)) -interaction=batchmode -halt-on-error \
  -output-directory $(@D) -jobname $(basename $(@F)) \
  '\def\figfile{$1}\input{figures/page.tex}' \
  > /dev/null || { tail -n 20 $(basename $@).log; exit 1; }
endef
build/fig/%.pdf: figures/%.tex figures/page.tex $(FIG_FMT) | $(TOOLS_STAMP)
	$(call book-fig,$<)
build/fig/progress.pdf: build/results.keys figures/page.tex $(FIG_FMT) | $(TOOLS_STAMP)
	$(call book-fig,build/res/progress-plot.tex)
build/fig/roofline.pdf: build/results.keys figures/page.tex $(FIG_FMT) | $(TOOLS_STAMP)
	$(call book-fig,build/res/roofline-plot.tex)
# A chapter's tuning sweep as a chart (book/bookdata/tables.py).
build/fig/sweep-ch%.pdf: build/results.keys figures/page.tex $(FIG_FMT) | $(TOOLS_STAMP)
	$(call book-fig,build/res/sweep-ch$*-plot.tex)
# A chapter's shape suite as a chart (book/bookdata/tables.py).
build/fig/suite-ch%.pdf: build/results.keys figures/page.tex $(FIG_FMT) | $(TOOLS_STAMP)
	$(call book-fig,build/res/suite-ch$*-plot.tex)
# A chapter's trace of timed steps (book/bookdata/tables.py).
build/fig/timeline-ch%.pdf: build/results.keys figures/page.tex $(FIG_FMT) | $(TOOLS_STAMP)
	$(call book-fig,build/res/timeline-ch$*-plot.tex)
# The SVG asks for 1.55 times the PDF's size, so that the smallest labels
# (5 pt) show at 10 px in the HTML book (book/tools/svgscale), and holds
# the PDF's words as text a reader can find and select (book/tools/svgtext:
# pdftocairo draws glyphs as outlines).
build/fig/%.svg: build/fig/%.pdf book/tools/svgscale book/tools/svgtext | $(TOOLS_STAMP)
	$(say) SVG $@
	$(Q)pdftocairo -svg $< $@.tmp
	$(Q)book/tools/svgscale 1.55 < $@.tmp | book/tools/svgtext $< > $@.tmp2 \
	  && mv $@.tmp2 $@ && rm -f $@.tmp
# An HTML-only build must not delete the PDFs it made on the way.
.SECONDARY: $(BOOK_FIGS:=.pdf) $(BOOK_FIGS:=.svg)

build/book.pdf: book/book.tex book/meta.tex book/preface.tex book/results.sty \
    book/refs.bib book/index.ist book/tools/pdfbook build/tex/chapters.tex build/results.keys \
    $(BOOK_FIGS:=.pdf) | $(TOOLS_STAMP)
	$(say) LATEX $@
	$(Q)book/tools/pdfbook $(BOOK_OUT)

# The instructor's edition: the answers of the chapters that have them,
# in the chapters' order, after the last chapter.
# An answer that changes a chapter's code shows the change: a line
# \answerdiff{chN-exE} becomes the diff answers/chN-exE.diff
# (book/tools/answer-diffs), in build/tex/answers/chN.tex.
ANSWERS := $(wildcard $(CHAPTERS:%=answers/ch%.tex))
ANSWER_TEX := $(ANSWERS:answers/%=build/tex/answers/%)
build/tex/answers/%.tex: answers/%.tex book/tools/answer-diffs $(ANSWER_DIFFS)
	@mkdir -p $(@D)
	$(say) ANSWER $@
	$(Q)book/tools/answer-diffs < $< > $@.tmp
	$(Q)mv $@.tmp $@
build/tex/answers.tex: $(ANSWER_TEX) book/book.mk book/tools/lab-samples \
    $(wildcard $(RESULTS)/lab*-*.txt)
	@mkdir -p $(@D)
	$(say) ANSWERS $@
	$(Q){ printf '\\chapter{Answers to the exercises}\\label{app:answers}\n\n'; \
	  printf 'The marks say how much work an exercise is; a time is for a lab of\n'; \
	  printf 'the chapter done in class, by a student who has read the chapter.\n'; \
	  printf 'Where an answer is a change to the chapter'"'"'s program, it is shown\n'; \
	  printf 'as a diff of the tangled file (\\texttt{-} lines go, \\texttt{+} lines\n'; \
	  printf 'come), and the numbers beside it were measured with the changed\n'; \
	  printf 'program (\\texttt{make answers} builds them). Other answers were\n'; \
	  printf 'measured with the chapter'"'"'s own programs, run with other options,\n'; \
	  printf 'under the profiler or under \\texttt{compute-sanitizer}, as the files\n'; \
	  printf '\\texttt{answers/chN-exE.run} and the preambles of the diffs say.\n\n'; \
	  for f in $(ANSWER_TEX); do printf '\\input{%s}\n' "$$PWD/$${f%.tex}"; done; \
	  book/tools/lab-samples '$(RESULTS)'; } > $@.tmp
	$(Q)mv $@.tmp $@

build/instructor.pdf: book/instructor.tex build/book.pdf build/tex/answers.tex $(ANSWER_TEX) \
    build/tex/chapters-all.tex \
    | $(TOOLS_STAMP)
	$(say) LATEX $@
	$(Q)book/tools/pdfbook $(BOOK_OUT) instructor

# The syllabus (make syllabus): a twelve-week module and its workshops,
# their hours, labs and tracks from the manifests' keys.
build/syllabus.pdf: book/syllabus.tex book/results.sty build/results.keys | $(TOOLS_STAMP)
	$(say) LATEX $@
	$(Q)mkdir -p build/tex && for i in 1 2; do \
	  TEXINPUTS=book:build/tex:build/res: pdflatex -interaction=nonstopmode -halt-on-error \
	    -output-directory build/tex book/syllabus.tex > build/tex/syllabus-pdflatex.out 2>&1 \
	  || { tail -20 build/tex/syllabus-pdflatex.out; exit 1; }; done; \
	  if grep -q "undefined result key" build/tex/syllabus.log; then \
	    grep "undefined result key" build/tex/syllabus.log; exit 1; fi
	$(Q)cp build/tex/syllabus.pdf $@

# The course edition (make course): the student's book, each lab's chunk
# replaced by its stub, for a class that writes the labs; no answers.
build/course.pdf: book/course.tex build/book.pdf build/tex/chapters-course.tex \
    | $(TOOLS_STAMP)
	$(say) LATEX $@
	$(Q)book/tools/pdfbook $(BOOK_OUT) course

# The students' kits (make kit): build/kit/labN for every lab, what a
# student receives for it (bookdata kit: its stub, the harness, the
# earlier chapters' code it links, a Makefile; none of its answer), and
# build/kit/course.pdf.  Hand out lab N's folder when lab N-1 is due.
KIT_LABS = $(foreach n,$(CHAPTERS),$(if $(ch$(n).lab),$(n)))
kit: build/course.pdf | $(TOOLS_STAMP)
	$(Q)rm -rf build/kit && mkdir -p build/kit && cp build/course.pdf build/kit/
	$(Q)for n in $(KIT_LABS); do $(BOOKDATA) kit $$n build/kit/lab$$n > /dev/null || exit 1; done
	@echo "make: the students' kits are build/kit/lab$(firstword $(KIT_LABS)) ... build/kit/lab$(lastword $(KIT_LABS)), with build/kit/course.pdf"
.PHONY: kit

build/html-instructor/instructor.tex: build/html-instructor/book.tex build/tex/answers.tex \
    $(ANSWER_TEX) book/tools/subst $(WEAVE_PY)
	$(say) ANSWERS $@
	$(Q){ sed '/^\\end{document}/,$$d' build/html-instructor/book.tex; \
	  sed 's/\\input{.*}//' build/tex/answers.tex; \
	  for f in $(ANSWER_TEX); do book/tools/subst $(BOOK_OUT) < $$f; done; \
	  printf '\\end{document}\n'; } > $@.tmp
	$(Q)mv $@.tmp $@

# The answers alone, through the same pandoc and filter: what the
# instructor's HTML adds to the book's, converted in seconds, for make
# test (the whole edition, make instructor, takes a minute of pandoc).
build/html-instructor/answers.html: build/html-instructor/instructor.tex book/html.lua book/book.css
	$(say) PANDOC $@
	$(Q){ sed '/^\\begin{document}/q' $<; \
	  sed -n '/^\\chapter{Answers to the exercises}/,$$p' $<; } > $(@D)/answers.tex
	$(Q)grep -q '^\\chapter{Answers to the exercises}' $(@D)/answers.tex \
	  || { echo "make: $< holds no chapter of answers" >&2; exit 1; }
	$(Q)$(BOOK_PANDOC) $(@D)/answers.tex -o $@.tmp
	$(Q)mv $@.tmp $@

build/instructor.html: build/html-instructor/instructor.tex build/book.html
	$(say) PANDOC $@
	$(Q)$(BOOK_PANDOC) build/html-instructor/instructor.tex -o $@.tmp
	$(Q)mv $@.tmp $@

# The same noweave run as the PDF's, up to its back end: the chunks, the
# identifiers and their cross-references are those of the PDF.
# It also has bibtex write build/html-src/book.bbl and lists the \index terms
# in build/html-src/index.tsv, for book/html.lua.
build/html-src/book.tex: $(NW) $(APPENDICES) book/meta.tex book/preface.tex build/results.keys \
    book/refs.bib book/tools/htmlsrc book/tools/nw2pandoc book/tools/subst $(WEAVE_PY) \
    book/tools/hilite book/tools/c-words book/tools/weave book/tools/finduses \
    book/tools/codebreaks book/tools/leave-out-build | $(TOOLS_STAMP)
	@mkdir -p $(@D)
	$(say) HTML $@
	$(Q)NOWEAVE='$(BOOK_NOWEAVE)' book/tools/htmlsrc $(BOOK_OUT) $(NW) $(APPENDICES) > $@.tmp
	$(Q)mv $@.tmp $@
# The instructor's edition's: everything woven, in build/html-instructor.
build/html-instructor/book.tex: $(NW) $(APPENDICES) book/meta.tex book/preface.tex \
    build/results.keys book/refs.bib book/tools/htmlsrc book/tools/nw2pandoc $(WEAVE_PY) \
    book/tools/subst book/tools/hilite book/tools/c-words book/tools/weave \
    book/tools/finduses book/tools/codebreaks | $(TOOLS_STAMP)
	@mkdir -p $(@D)
	$(say) HTML $@
	$(Q)WEAVE_ALL=1 HTML_SUB=html-instructor NOWEAVE='$(BOOK_NOWEAVE)' \
	  book/tools/htmlsrc $(BOOK_OUT) $(NW) $(APPENDICES) > $@.tmp
	$(Q)mv $@.tmp $@

build/book.html: build/html-src/book.tex book/html.lua book/book.css book/meta.tex \
    book/tools/c-words $(BOOK_FIGS:=.svg) | $(TOOLS_STAMP)
	$(say) PANDOC $@
	$(Q)$(BOOK_PANDOC) build/html-src/book.tex -o $@.tmp
	$(Q)mv $@.tmp $@

# The book as a website (bookdata site): build/html/index.html and a page
# per chapter and appendix, made from pandoc's HTML of the whole book with
# its sections marked and its figures left as files.
SITE_PANDOC := $(subst --self-contained,--section-divs,$(BOOK_PANDOC))
build/html/index.html: build/html-src/book.tex book/html.lua book/book.css book/meta.tex \
    book/bookdata/site.py book/tools/c-words $(BOOK_FIGS:=.svg) | $(TOOLS_STAMP)
	$(say) SITE $@
	$(Q)$(SITE_PANDOC) build/html-src/book.tex -o build/site-src.html
	$(Q)$(BOOKDATA) site build/site-src.html build/html build/fig book/book.css > /dev/null

# Screenshots of the HTML book in headless Chromium, to look at (not part
# of the build): a chapter opening, a section of code, a figure, the back
# matter -> build/shots/*.png.
book-shots: build/book.html
	book/tools/shots $(BOOK_OUT) ch:3 sec:timing ch:4 back


book-clean:
	rm -rf build/tex build/res build/fig build/html build/html-src build/html-instructor build/results.keys \
	  build/book.pdf build/book.html build/instructor.pdf build/instructor.html

# Slides: one short beamer deck per chapter, build/slides/chN.pdf, from
# the chapter's own sources and the book's measured numbers
# (book/tools/slides writes its Markdown, pandoc makes it a deck).
SLIDES := $(CHAPTERS:%=build/slides/ch%.pdf)
SLIDE_NOTES := $(CHAPTERS:%=build/slides/ch%-notes.pdf)
.PHONY: slides
slides: $(SLIDES) $(SLIDE_NOTES)
# (the tests build the decks and one chapter's notes: every notes file is
# the same deck typeset again)
slide-decks: $(SLIDES) build/slides/ch3-notes.pdf
.PHONY: slide-decks
build/slides/ch%.md: book/tools/slides book/tools/bookdata build/results.keys build/manifest.tsv $(NW) \
    $(APPENDICES) | $(TOOLS_STAMP)
	@mkdir -p $(@D)
	$(say) SLIDES $@
	$(Q)book/tools/slides $(BOOK_OUT) $* > $@.tmp && mv $@.tmp $@
# pandoc writes the deck's LaTeX and one pdflatex run sets it: a deck has
# no cross-reference, outline or navigation bar, so the second run that
# pandoc's own PDF writer makes sets the same pages.
build/slides/ch%.tex: build/slides/ch%.md book/slides-header.tex | $(TOOLS_STAMP)
	$(Q)pandoc $< -s -t beamer -H book/slides-header.tex -V aspectratio=169 \
	  -V fontsize=11pt -o $@
build/slides/ch%.pdf: build/slides/ch%.tex $(BOOK_FIGS:=.pdf) | $(TOOLS_STAMP)
	$(say) SLIDES $@
	$(Q)cd $(@D) && TEXINPUTS=$(CURDIR)/build/fig: pdflatex -halt-on-error \
	  -interaction=batchmode ch$*.tex > /dev/null \
	  || { grep -A3 '^!' ch$*.log >&2; rm -f ch$*.pdf; exit 1; }
# The lecturer's notes: the same deck, its notes alone.
build/slides/ch%-notes.pdf: build/slides/ch%.tex $(BOOK_FIGS:=.pdf) | $(TOOLS_STAMP)
	$(say) SLIDES $@
	$(Q)cd $(@D) && TEXINPUTS=$(CURDIR)/build/fig: pdflatex -halt-on-error \
	  -interaction=batchmode -jobname ch$*-notes '\def\slidenotes{}\input{ch$*.tex}' > /dev/null \
	  || { grep -A3 '^!' ch$*-notes.log >&2; rm -f ch$*-notes.pdf; exit 1; }
.SECONDARY: $(SLIDES:.pdf=.md) $(SLIDES:.pdf=.tex)
