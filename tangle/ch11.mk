slide_figure := fig-3xtf32
slide_intro := 3xTF32: each FP32 operand split into a big and a small TF32 part | Three products: big by big, big by small, small by big
slide_bound := Three times the tensor work of TF32: at best a third of its rate | The dropped small-by-small term is $2^{-22}$ relative: FP32's error, not TF32's
slide_question := Three products for FP32 accuracy: more or less than a third of TF32's speed? And is the error closer to cuBLAS FP32's {{ch0.cublas.4096.error}} or to TF32's?
slide_notes := Ask whether more than a third is possible, since the copies and the epilogue do not triple, and what the three products' shared operands cost. Measured error: {{ch11.3xtf32.4096.error}}.
slide_idea := 3xTF32: each FP32 operand split into a big and a small TF32 part, three products \
    | Error at $4096^3$ against float64: {{ch11.3xtf32.4096.error}}; cuBLAS FP32's: {{ch0.cublas.4096.error}} \
    | More than a third of TF32's speed: {{verdict.ch11_third}}
programs := ch11
roots := ch11.h
links := ch10 ch9 ch8 ch5
extra_runs := --size 8192
needs := sm_80
libs := -lcublas
headline := 3xtf32
sass := 3xtf32:HMMA.1688.F32.TF32 3xtf32:LDSM.16.M88.4
lab := Split a TF32 operand into a big and a small part
lab_kernel := tf32x3_mma
lab_hours := 0.75
lab_speed := 0.9
lab_needs := lab 10
lab_entries := 3xtf32
lab_race_at := 67x45x301 256x512x320
model.third_tf32_4096 := ch11.tf32.4096.tflops / 3 | %.0f
model.x3_over_tf32 := 100 * ch11.3xtf32.4096.tflops \
    / (ch11.tf32.4096.tflops / 3) | %.0f
model.x3_over_tf32_spread := model.x3_over_tf32 \
    * (ch11.3xtf32.4096.spread_pct + ch11.tf32.4096.spread_pct) / 100 | %.1f
verdict.ch11_third := model.x3_over_tf32 ; 100 ; inf ; \
    model.x3_over_tf32_spread
model.ch11_ans_four_tflops := ch11.3xtf32.4096.tflops * 3 / 4 | %.0f
model.ch11_ans_inst_stage := ch11.3xtf32.ncu.inst_ginst * 1e9 \
    / (32 * 32 * 8 * 128) | %.0f
model.ch11_ans_bsplit_pct := 100 * 128 / model.ch11_ans_inst_stage | %.0f
model.ch11_ans_bsplit_inst_pct := 100 * (1 - ch11.ex3.3xtf32.ncu.inst_ginst \
    / ch11.ex3.before.3xtf32.ncu.inst_ginst) | %.0f
model.ch11_ans_int_wrong_512 := ch11.ex4.micro.tf32_512.wrong | %.0f
model.ch11_ans_int_up_512 := ch11.ex4.micro.tf32_512.upward | %.0f
model.ch11_ans_int_elements_512 := ch11.ex4.micro.tf32_512.elements | %.0f
model.ch11_ans_int_wrong_4096 := ch11.ex4.micro.tf32_4096.wrong | %.0f
model.ch11_ans_int_wrong_3x := ch11.ex4.micro.3xtf32_512.wrong \
    + ch11.ex4.micro.3xtf32_4096.wrong + ch11.ex4.micro.fp32_512.wrong \
    + ch11.ex4.micro.fp32_4096.wrong | %.0f
compare.ch11_cublas_4096 := ch11.3xtf32.4096.cublas_tflops ; \
    ch11.fp32.4096.cublas_tflops ; ch11.3xtf32.4096.cublas_spread_pct ; \
    ch11.fp32.4096.cublas_spread_pct
compare.ch11_cublas_8192 := ch11.3xtf32.8192.cublas_tflops ; \
    ch11.fp32.8192.cublas_tflops ; ch11.3xtf32.8192.cublas_spread_pct ; \
    ch11.fp32.8192.cublas_spread_pct
compare.ch11_ans_ex3 := ch11.ex3.3xtf32.4096.tflops ; ch11.ex3.before.3xtf32.4096.tflops ; \
    ch11.ex3.3xtf32.4096.spread_pct ; ch11.ex3.before.3xtf32.4096.spread_pct
