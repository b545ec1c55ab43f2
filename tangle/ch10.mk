slide_figure := fig-mma-mainloop
slide_intro := Tensor cores: \texttt{mma.sync} on fragments loaded with \texttt{ldmatrix} | TF32 keeps FP32's range with a 10-bit mantissa; BF16 keeps 7 bits
slide_bound := Measured \texttt{mma.sync} ceiling: {{ch10.micro.mma_tf32.tflops}} TFLOP/s in TF32, {{ch10.micro.mma_bf16.tflops}} in BF16 | Instructions per \texttt{mma}: {{model.ch10_mma_inst_per_mma}} in TF32: the issue slots left for copies
slide_question := TF32 rounds each operand to 10 bits of mantissa. What error against float64 will TF32 show at $4096^3$, and what rate at $8192^3$?
slide_notes := The error: $2^{-11}$ relative per operand, growing as $\sqrt{K}$ over the sum. The rate: the ceiling times the share of issue slots the copies leave. Measured: error {{ch10.mma.4096.error}}, {{ch10.mma.8192.tflops}} TFLOP/s.
slide_idea := Tensor cores: \texttt{mma.sync} on fragments loaded with \texttt{ldmatrix}, TF32 and BF16 \
    | TF32 at $8192^3$: {{ch10.mma.8192.tflops}} TFLOP/s, {{model.mma_pct_ceiling}}\% of the \texttt{mma.sync} ceiling \
    | Predictions: issue {{verdict.ch10_issue}}, rate {{verdict.ch10_rate}}
programs := ch10 ch10sweep
budget := 1360
roots := ch10.h
links := ch9 ch8 ch5
micro := ch10peak
sweep := ch10sweep --size 1024,4096,8192
extra_runs := --size 8192
emulated := mma bf16
needs := sm_80
libs := -lcublas
headline := mma
sass := mma:HMMA.1688.F32.TF32 mma:LDSM.16.M88.4 bf16:HMMA.16816.F32.BF16 \
        bf16:LDSM.16.MT88.4 wmma:HMMA.1684.F32.TF32
lab := Load the TF32 fragments of step [[kk]] of stage [[s]] into buffer [[buf]]
lab_kernel := tf32_mma
lab_hours := 1.5
lab_speed := 0.9
lab_needs := lab 9, mma.sync fragment layouts, sm_80
lab_entries := mma
lab_race_at := 67x45x301 256x512x320
lab_also := Load the BF16 fragments of step [[kk]] of stage [[s]] into buffer [[buf]]
model.mma_pct_ceiling := 100 * ch10.mma.8192.tflops \
    / ch10.micro.mma_tf32.tflops | %.0f
compare.ch10_cublas_tf32_peak := ch10.mma.8192.cublas_tflops ; \
    ch10.micro.mma_tf32.tflops ; ch10.mma.8192.cublas_spread_pct ; \
    50 * (ch10.micro.mma_tf32.tflops_max - ch10.micro.mma_tf32.tflops_min) \
    / ch10.micro.mma_tf32.tflops | higher than / lower than
compare.ch10_cublas_bf16_peak := ch10.bf16.8192.cublas_tflops ; \
    ch10.micro.mma_bf16.tflops ; ch10.bf16.8192.cublas_spread_pct ; \
    50 * (ch10.micro.mma_bf16.tflops_max - ch10.micro.mma_bf16.tflops_min) \
    / ch10.micro.mma_bf16.tflops | higher than / lower than
compare.ch10_r1_4096 := ch10.tf32-128x256-w64x64-s3-b1-r1-t1.4096.tflops ; \
    ch10.tf32-128x256-w64x64-s3-b1-r2-t1.4096.tflops ; \
    ch10.tf32-128x256-w64x64-s3-b1-r1-t1.4096.spread_pct ; \
    ch10.tf32-128x256-w64x64-s3-b1-r2-t1.4096.spread_pct
compare.ch10_r1_8192 := ch10.tf32-128x256-w64x64-s3-b1-r1-t1.8192.tflops ; \
    ch10.tf32-128x256-w64x64-s3-b1-r2-t1.8192.tflops ; \
    ch10.tf32-128x256-w64x64-s3-b1-r1-t1.8192.spread_pct ; \
    ch10.tf32-128x256-w64x64-s3-b1-r2-t1.8192.spread_pct
compare.ch10_r0_4096 := ch10.tf32-128x256-w64x64-s3-b1-r0-t1.4096.tflops ; \
    ch10.tf32-128x256-w64x64-s3-b1-r2-t1.4096.tflops ; \
    ch10.tf32-128x256-w64x64-s3-b1-r0-t1.4096.spread_pct ; \
    ch10.tf32-128x256-w64x64-s3-b1-r2-t1.4096.spread_pct
compare.ch10_r3_4096 := ch10.tf32-128x256-w64x64-s3-b1-r3-t1.4096.tflops ; \
    ch10.tf32-128x256-w64x64-s3-b1-r2-t1.4096.tflops ; \
    ch10.tf32-128x256-w64x64-s3-b1-r3-t1.4096.spread_pct ; \
    ch10.tf32-128x256-w64x64-s3-b1-r2-t1.4096.spread_pct
compare.ch10_r3_8192 := ch10.tf32-128x256-w64x64-s3-b1-r3-t1.8192.tflops ; \
    ch10.tf32-128x256-w64x64-s3-b1-r2-t1.8192.tflops ; \
    ch10.tf32-128x256-w64x64-s3-b1-r3-t1.8192.spread_pct ; \
    ch10.tf32-128x256-w64x64-s3-b1-r2-t1.8192.spread_pct
compare.ch10_large_8192 := ch10.tf32-128x256-w64x64-s4-b1-r2-t1.8192.tflops ; \
    ch10.tf32-128x128-w64x64-s3-b2-r2-t1.8192.tflops ; \
    ch10.tf32-128x256-w64x64-s4-b1-r2-t1.8192.spread_pct ; \
    ch10.tf32-128x128-w64x64-s3-b2-r2-t1.8192.spread_pct
compare.ch10_large_4096 := ch10.tf32-128x256-w64x64-s4-b1-r2-t1.4096.tflops ; \
    ch10.tf32-128x128-w64x64-s3-b2-r2-t1.4096.tflops ; \
    ch10.tf32-128x256-w64x64-s4-b1-r2-t1.4096.spread_pct ; \
    ch10.tf32-128x128-w64x64-s3-b2-r2-t1.4096.spread_pct
compare.ch10_large_1024 := ch10.tf32-128x256-w64x64-s4-b1-r2-t1.1024.tflops ; \
    ch10.tf32-128x128-w64x64-s3-b2-r2-t1.1024.tflops ; \
    ch10.tf32-128x256-w64x64-s4-b1-r2-t1.1024.spread_pct ; \
    ch10.tf32-128x128-w64x64-s3-b2-r2-t1.1024.spread_pct
verdict.ch10_issue := ch10.mma.ncu.issue_pct ; 0 ; 50 ; 0
verdict.ch10_rate := model.mma_pct_ceiling ; 90 ; inf ; \
    model.mma_pct_ceiling * ch10.mma.8192.spread_pct / 100
model.ch10_mma_inst_per_mma := ch10.mma.ncu.inst_ginst \
    / ch10.mma.ncu.hmma_ginst | %.1f
model.ch10_bf16_inst_per_mma := ch10.bf16.ncu.inst_ginst \
    / ch10.bf16.ncu.hmma_ginst | %.1f
model.ch10_ans_noswz_tflops := 2 * 16 * 8 * 8 * 32 / 144 * ceil.sms \
    * ceil.clock_mhz / 1e6 | %.0f
model.ch10_ans_mma_cycles := 2 * 16 * 8 * 8 * 4 * ceil.sms * ceil.clock_mhz \
    / (ch10.micro.mma_tf32.tflops * 1e6) | %.1f
model.ch10_ans_waves_1024 := 32 / ceil.sms | %.2f
model.ch10_ans_idle_1024 := ceil.sms - 32 | %.0f
model.ch10_large_bytes := 4 * (128 + 256) * 128 | %d
model.ch10_tf32_large_4096 := (32 * 16 >= 2 * ceil.sms \
    && ceil.smem_per_block_optin >= model.ch10_large_bytes) | %d
model.ch10_bf16_large_8192 := (32 * 64 >= 8 * ceil.sms \
    && ceil.smem_per_block_optin >= model.ch10_large_bytes) | %d
model.ch10_waves_2560 := 20 * 10 / ceil.sms | %.2f
model.ch10_waves_3072 := 24 * 12 / ceil.sms | %.2f
model.ch10_ans_waves_4096 := 32 * 16 / ceil.sms | %.1f
model.ch10_ans_waves_8192 := 64 * 32 / ceil.sms | %.1f
model.ch10_ans_last_pct_3072 := 100 * (288 - int(288 / ceil.sms) \
    * ceil.sms) / ceil.sms | %.0f
model.ch10_ans_waves_6144 := 48 * 24 / ceil.sms | %.1f
model.ch10_ans_mma_latency := 2 * 16 * 8 * 8 * 4 * ceil.sms * ceil.clock_mhz \
    / (ch10.ex4.micro.mma_tf32_w4_a1.tflops * 1e6) | %.0f
model.ch10_ans_ex8_inst_per_mma := ch10.ex8.mma.ncu.inst_ginst \
    / ch10.ex8.mma.ncu.hmma_ginst | %.1f
compare.ch10_ans_ex8 := ch10.ex8.mma.4096.tflops ; ch10.ex8.before.mma.4096.tflops ; \
    ch10.ex8.mma.4096.spread_pct ; ch10.ex8.before.mma.4096.spread_pct
