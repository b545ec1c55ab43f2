slide_figure := fig-warp-mapping
slide_intro := The same computation; x picks the column instead of the row | A warp reads 32 consecutive floats of a row of $B$ and broadcasts one value of $A$
slide_bound := A warp's request for $B$ now covers 4 sectors instead of 32 | The load instructions' issue rate bounds the kernel at {{model.ch2_lsu_tflops}} TFLOP/s, {{model.ch2_lsu_x_naive}} times chapter 1's bound
slide_question := The change is one line: which of x and y is the row. How much faster will the kernel run at $4096^3$: twice, ten times, a hundred times?
slide_notes := Nothing about the arithmetic changes; only the addresses a warp touches at once. Ask for a number with a reason (sectors per request). The measured answer: {{ch2.4096.speedup}} times chapter 1.
slide_idea := Same computation, but x picks the column: a warp reads one row of $B$ and one value of $A$ \
    | {{ch2.coalesced.ncu.sectors_per_req}} sectors per request, against {{ch1.naive.ncu.sectors_per_req}} in chapter 1 \
    | {{ch2.4096.speedup}} times chapter 1's speed at $4096^3$
programs := ch2
needs := sm_75
libs := -lcublas
headline := coalesced
lab := Coalesced kernel
lab_kernel := sgemm_coalesced
lab_hours := 0.5
lab_speed := 0.9
lab_needs := lab 1
model.ch2_lsu_tflops := 16 * ceil.sms * 2 * ceil.clock_mhz / 1e6
model.ch2_lsu_x_naive := model.ch2_lsu_tflops / ch1.naive.4096.tflops | %.0f
model.ch2_l1_limit_tflops := model.ch1_l1_tflops * 33 / 2
model.ch2_pct_of_lsu := 100 * ch2.coalesced.4096.tflops \
                        / model.ch2_lsu_tflops | %.0f
model.ch2_l1_gb := ch2.coalesced.ncu.gld_ginst * ch2.coalesced.ncu.sectors_per_req \
                   * 32 | %.0f
model.ch2_l1_absorb_pct := 100 * (1 - ch2.coalesced.ncu.l2_gb / model.ch2_l1_gb) | %.0f
