programs := ch3
needs := sm_75
libs := -lcublas
headline := smem
sass := smem:LDS.128
lab := Shared-memory tiled kernel
model.ch3_lsu_tflops := 32 / 1.25 * ceil.sms * 2 * ceil.clock_mhz / 1e6
model.ch3_pct_of_lsu := 100 * ch3.smem.4096.tflops \
                        / model.ch3_lsu_tflops | %.0f
model.ch3_wavefront_tflops := model.ch3_lsu_tflops \
                              / ch3.smem.ncu.lds_wavefronts
model.ch3_pct_of_wavefront := 100 * ch3.smem.4096.tflops \
                              / model.ch3_wavefront_tflops | %.0f
