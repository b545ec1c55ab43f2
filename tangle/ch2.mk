programs := ch2
needs := sm_75
libs := -lcublas
headline := coalesced
lab := Coalesced kernel
model.ch2_lsu_tflops := 16 * ceil.sms * 2 * ceil.clock_mhz / 1e6
model.ch2_pct_of_lsu := 100 * ch2.coalesced.4096.tflops \
                        / model.ch2_lsu_tflops | %.0f
