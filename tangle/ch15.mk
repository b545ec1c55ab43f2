programs := ch15
roots := ch15.h
links := ch12 ch10 ch9 ch8 ch5
micro_links := ch15 ch12 ch10 ch9 ch8 ch5
micro := ch15ozaki
extra_runs := --size 8192
needs := sm_90a
libs := -lcublas -lcublasLt
headline := ozaki7
sass := ozaki8:IGMMA.64x128x32.S8.S8 3xtf32:HGMMA.64x128x8.F32.TF32
lab_none := chapter 15's kernels are chapter 12's pipeline with another instruction; its exercises are its lab
slide_figure := fig-wgmma-pipeline
slide_intro := FP32 products from exact INT8 products: scale rows and columns to integers, multiply their remainders, rebuild with the Chinese remainder theorem
slide_bound := Seven moduli give each scaled row about 27 bits | The INT8 products: {{model.ch15_int8_guess_8192_ms}} ms at $8192^3$; the passes {{model.ch15_pass_8192_ms}} ms
slide_question := How many times faster than cuBLAS FP32, at FP32's accuracy?
slide_notes := Count the moduli from the bits FP32 needs, then the INT8 products' time and the passes' bytes.
slide_idea := FP32 from INT8: scale, remainders, INT8 products, the Chinese remainder theorem \
    | Seven INT8 products give FP32's accuracy on well-scaled inputs
model.ch15_int8_peak_tops := 8192 * ceil.sms * gpu.clock_mhz / 1e6 | %.0f
model.ch15_bf16_share := 100 * ch12.bf16.8192.tflops / (4096 * ceil.sms * gpu.clock_mhz / 1e6) | %.0f
model.ch15_int8_guess_tops := model.ch15_int8_peak_tops * model.ch15_bf16_share / 100 | %.0f
model.ch15_int8_guess_8192_ms := 7 * 2 * 8192^3 / (model.ch15_int8_guess_tops * 1e9) | %.2f
model.ch15_pass_8192_gb := 8192^2 * (2 * 4 + 2 * 4 + 2 * 7 + 7 + 4) / 1e9 | %.2f
model.ch15_pass_8192_ms := model.ch15_pass_8192_gb / ceil.copy_tbs | %.2f
model.ch15_pred_8192_ms := model.ch15_int8_guess_8192_ms + model.ch15_pass_8192_ms | %.2f
model.ch15_fp32_8192_ms := 2 * 8192^3 / (ch15.ozaki7.8192.cublas_tflops * 1e9) | %.2f
model.ch15_pred_8192_x := model.ch15_fp32_8192_ms / model.ch15_pred_8192_ms | %.1f
model.ch15_x_8192 := ch15.ozaki7.8192.pct_cublas / 100 | %.2f
model.ch15_x_4096 := ch15.ozaki7.4096.pct_cublas / 100 | %.2f
model.ch15_products_share_8192 := 100 * ch15.micro.products_8192.ms / ch15.micro.ozaki7_8192.ms | %.0f
model.ch15_int8_share := 100 * ch15.micro.products_8192.tflops / model.ch15_int8_peak_tops | %.0f
model.ch15_passes_8192_ms := ch15.micro.scale_8192.ms + ch15.micro.residues_8192.ms + ch15.micro.rebuild_8192.ms | %.2f
model.ch15_passes_vs_copy_8192 := model.ch15_passes_8192_ms / model.ch15_pass_8192_ms | %.1f
model.ch15_modulus_pct := 100 * (ch15.ozaki8.8192.ms - ch15.ozaki7.8192.ms) / ch15.ozaki7.8192.ms | %.0f
model.ch15_scale_x := ch15.micro.scale_8192.ms / (8192^2 * 8 / 1e9 / ceil.copy_tbs) | %.1f
model.ch15_residues_x := ch15.micro.residues_8192.ms / (8192^2 * 22 / 1e9 / ceil.copy_tbs) | %.1f
model.ch15_rebuild_x := ch15.micro.rebuild_8192.ms / (8192^2 * 11 / 1e9 / ceil.copy_tbs) | %.1f
model.ch15_gap_pct := 100 * (ch15.ozaki7.8192.ms - ch15.micro.ozaki7_8192.ms) / ch15.micro.ozaki7_8192.ms | %.0f
model.ch15_gain_7 := ch15.micro.err_phi0_6.error / ch15.micro.err_phi0_7.error | %.0f
model.ch15_gain_8 := ch15.micro.err_phi0_7.error / ch15.micro.err_phi0_8.error | %.0f
verdict.ch15_time := ch15.ozaki7.8192.ms / model.ch15_pred_8192_ms ; 0.9 ; 1.1 ; \
    ch15.ozaki7.8192.ms / model.ch15_pred_8192_ms * ch15.ozaki7.8192.spread_pct / 100
verdict.ch15_error := ch15.micro.err_phi0_7.error / ch15.micro.err_phi0_fp32.error ; 0 ; 1 ; 0
compare.ch15_x3_8192 := ch15.ozaki7.8192.ms ; ch15.3xtf32.8192.ms ; \
    ch15.ozaki7.8192.spread_pct ; ch15.3xtf32.8192.spread_pct | slower than / faster than
compare.ch15_x3_4096 := ch15.ozaki7.4096.ms ; ch15.3xtf32.4096.ms ; \
    ch15.ozaki7.4096.spread_pct ; ch15.3xtf32.4096.spread_pct | slower than / faster than
