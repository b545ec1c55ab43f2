slide_figure := fig-cpasync-pipeline
slide_intro := Double buffering, then a \texttt{cp.async} pipeline: the next tiles load while these are multiplied | Tiles chosen by the shape; split-K and stream-K fill the last wave
slide_bound := Issue-bound ceiling: {{model.ch9_issue_bound_tflops}} TFLOP/s | At $4097^3$, 128-row tiles leave a last wave of {{model.last_4097}} tiles on {{gpu.sms}} SMs
slide_question := With the copies hidden behind arithmetic, how close to cuBLAS FP32 can a kernel on CUDA cores come at $4096^3$?
slide_notes := The stages: wait for the group $S-2$ back, synchronize, issue the copy $S-1$ ahead, multiply. Then waves: tiles over SMs, and what an unfilled last wave costs. Measured: {{ch9.tuned.4096.pct_cublas}}\% of cuBLAS at $4096^3$.
slide_idea := Double buffering and a \texttt{cp.async} pipeline: the next tiles load while these are multiplied \
    | Tiles chosen by the shape; split-K and stream-K fill the last wave \
    | {{ch9.tuned.4096.pct_cublas}}\% of cuBLAS at $4096^3$, {{ch9.tuned.8192.pct_cublas}}\% at $8192^3$
programs := ch9 ch9sweep
roots := ch9.h
links := ch8 ch5
extra_runs := --size 8192
emulated := tuned
sweep := ch9sweep --size 1024,4096,4097,8192,1111
spills := dbuf
may_spill := sk-256x128x16-w64x64-t16x8-b1
needs := sm_75
libs := -lcublas
headline := tuned
sass := pipe:LDGSTS.E pipe:LDGSTS.E.BYPASS.128.ZFILL pipe:LDS.128 \
        dbuf:LDS.128 dbuf:LDG.E.128 tuned:LDS.128 tuned:LDG.E.128 \
        tuned:REDG.E.ADD.F32.FTZ.RN.STRONG.GPU|RED.E.ADD.F32.FTZ.RN.STRONG.GPU
lab := Pipelined main loop
lab_kernel := sgemm_pipe
lab_race_at := 67x45x133 130x200x136
lab_hours := 1
lab_speed := 0.9
lab_needs := lab 8, C++ templates, inline PTX (cp.async), sm_80
model.waves_4096 := 16 * 32 / gpu.sms | %.2f
model.waves_4097 := 17 * 33 / gpu.sms | %.2f
model.last_4097 := 17 * 33 - int(17 * 33 / gpu.sms) * gpu.sms | %d
model.wave_count_4097 := int((17 * 33 + gpu.sms - 1) / gpu.sms) | %d
model.idle_last_4097 := gpu.sms - model.last_4097 | %d
model.split_rows_4097 := int((model.last_4097 + 32) / 33) | %d
model.full_waves_4097 := (17 - model.split_rows_4097) * 33 / gpu.sms | %.2g
model.split_tiles_4097 := 33 * model.split_rows_4097 | %d
model.split_4097 := int(gpu.sms / model.split_tiles_4097) | %d
model.splits_last_4097 := (2 * model.last_4097 <= gpu.sms \
    && model.split_4097 >= 2) | %d
model.tiles128x64_1024 := (1024 / 128) * (1024 / 64) | %d
model.small_1024 := (model.tiles128x64_1024 <= gpu.sms) | %d
model.idle_sms_1024_small := (model.small_1024 \
    ? gpu.sms - model.tiles128x64_1024 : 0) | %d
model.sk_steps_1111 := 81 * 70 / gpu.sms | %.1f
model.ch9_ffma_busy := ch9.tuned.ncu.issue_pct \
    / ch9.tuned.ncu.inst_per_ffma | %.0f
model.ch9_pct_ceiling := 100 * ch9.tuned.4096.tflops / ceil.ffma_tflops | %.0f
model.ch9_issue_bound_tflops := ceil.ffma_tflops \
    / ch8.warptile.ncu.inst_per_ffma | %.1f
model.ch9_ans_large_overhead := ch9.tuned.ncu.inst_per_ffma \
    - (1 + 6 / 128 + 24 / 2048) | %.2f
model.ch9_ans_small_ipf := 1 + 3 / 32 + 12 / 512 \
    + model.ch9_ans_large_overhead | %.2f
model.ch9_ans_step_cycles := ch9.pipe.4096.ms * 1e-3 * gpu.clock_mhz * 1e6 \
    / 256 / (1024 / (2 * gpu.sms)) | %.0f
model.ch9_ans_scale_us := 2 * 1111 * 1111 * 4 / (ceil.copy_tbs * 1e12) \
    * 1e6 | %.1f
model.ch9_ans_scale_pct := 100 * model.ch9_ans_scale_us \
    / (1000 * ch9.tuned.1111.ms) | %.1f
model.ch9_ans_sk_saving_1111 := 100 * (1 - model.sk_steps_1111 / 70) | %.0f
model.ch9_ans_last_4096 := 512 - int(512 / gpu.sms) * gpu.sms | %d
model.ch9_ans_split_gain := (int(561 / gpu.sms) + 1) \
    / (int(561 / gpu.sms) + 1 / model.split_4097) | %.2f
model.ch9_ans_sk_steps_4097 := 561 * 257 / gpu.sms | %.0f
model.ch9_ans_split_steps_4097 := int((257 + model.split_4097 - 1) \
    / model.split_4097) | %d
model.ch9_ans_full_waves_4097 := int((17 - model.split_rows_4097) * 33 \
    / gpu.sms) | %d
model.ch9_ans_waves_steps_4097 := model.ch9_ans_full_waves_4097 * 257 \
    + model.ch9_ans_split_steps_4097 | %.0f
model.ch9_ans_rows_4096 := int((model.ch9_ans_last_4096 + 31) / 32) | %d
model.ch9_ans_split_waves_4097 := int(561 / gpu.sms) \
    + 1 / model.split_4097 | %.2f
model.ch9_ans_sk_mid_steps_4097 := 33 * 33 * 257 / 2 / gpu.sms | %.0f
model.ch9_ans_sk_steps_4096 := 512 * 256 / gpu.sms | %.0f
model.ch9_ans_waves_steps_4096 := (int(512 / gpu.sms) + 1) * 256 | %.0f
model.ch9_ans_sk_mid_gain_4097 := 100 * (1 - model.ch9_ans_sk_mid_steps_4097 \
    / model.ch9_ans_waves_steps_4097) | %.0f
model.ch9_ans_sk_gain_4096 := 100 * (1 - model.ch9_ans_sk_steps_4096 \
    / model.ch9_ans_waves_steps_4096) | %.0f
model.ch9_ans_scale_meas_us := 1000 * ch9.ex5.scale_kernel.ncu.time_ms | %.1f
model.ch9_ans_scale_ratio := model.ch9_ans_scale_meas_us \
    / model.ch9_ans_scale_us | %.1f
model.ch9_ans_sk_meas_us := 1000 * ch9.ex5.sgemm_streamk.ncu.time_ms | %.0f
model.ch9_ans_red_adds_m := 32 * ch9.ex5.sgemm_streamk.ncu.red_inst \
    / 1e6 | %.1f
model.ch9_ans_red_sectors_m := ch9.ex5.sgemm_streamk.ncu.red_sectors \
    / 1e6 | %.1f
model.ch9_ans_red_per_inst := ch9.ex5.sgemm_streamk.ncu.red_sectors \
    / ch9.ex5.sgemm_streamk.ncu.red_inst | %.1f
model.ch9_ans_split_meas_4100 := ch9.ex6.tuned.4100.tflops \
    / ch9.ex6.unsplit.4100.tflops | %.2f
model.ch9_ans_split_meas_4160 := ch9.ex6.tuned.4160.tflops \
    / ch9.ex6.unsplit.4160.tflops | %.2f
model.ch9_ans_split_meas_4200 := ch9.ex6.tuned.4200.tflops \
    / ch9.ex6.unsplit.4200.tflops | %.2f
model.ch9_ans_ex9_adds_before_m := 32 \
    * ch9.ex9.before.sgemm_streamk.ncu.red_inst / 1e6 | %.1f
model.ch9_ans_ex9_adds_m := 32 * ch9.ex9.sgemm_streamk.ncu.red_inst \
    / 1e6 | %.1f
model.ch9_ans_ex9_scale_us := 1000 * ch9.ex9.scale_split.ncu.time_ms | %.0f
model.ch9_ans_ex9_scale_before_us := 1000 \
    * ch9.ex9.before.scale_kernel.ncu.time_ms | %.0f
model.ch9_ans_sk_saving_meas_1111 := 100 * (1 \
    - ch9.dbuf-128x128x16-w32x64-t8x8-b1.1111.tflops \
    / ch9.sk-128x128x16-w32x64-t8x8-b1.1111.tflops) | %.0f
model.ch9_ans_ex9_scale_inst_ratio := ch9.ex9.scale_split.ncu.inst_ginst \
    / ch9.ex9.before.scale_kernel.ncu.inst_ginst | %.1f
compare.ch9_dbuf_4096 := ch9.dbuf.4096.tflops ; ch8.warptile.4096.tflops ; \
    ch9.dbuf.4096.spread_pct ; ch8.warptile.4096.spread_pct
compare.ch9_dbuf1_4096 := ch9.dbuf-128x128x16-w32x64-t8x8-b1.4096.tflops ; \
    ch8.warptile.4096.tflops ; \
    ch9.dbuf-128x128x16-w32x64-t8x8-b1.4096.spread_pct ; ch8.warptile.4096.spread_pct
compare.ch9_dbuf1_1024 := ch9.dbuf-128x128x16-w32x64-t8x8-b1.1024.tflops ; \
    ch8.warptile.1024.tflops ; \
    ch9.dbuf-128x128x16-w32x64-t8x8-b1.1024.spread_pct ; ch8.warptile.1024.spread_pct
compare.ch9_dbuf1_4097 := ch9.dbuf-128x128x16-w32x64-t8x8-b1.4097.tflops ; \
    ch8.warptile.4097.tflops ; \
    ch9.dbuf-128x128x16-w32x64-t8x8-b1.4097.spread_pct ; ch8.warptile.4097.spread_pct
compare.ch9_pipe_4096 := ch9.pipe.4096.tflops ; ch9.dbuf.4096.tflops ; \
    ch9.pipe.4096.spread_pct ; ch9.dbuf.4096.spread_pct
compare.ch9_dbuf_pipe_4097 := ch9.dbuf.4097.tflops ; ch9.pipe.4097.tflops ; \
    ch9.dbuf.4097.spread_pct ; ch9.pipe.4097.spread_pct
model.ch9_sk_best_1024 := max(max(ch9.sk-256x128x16-w64x64-t16x8-b1.1024.tflops, \
    ch9.sk-128x128x16-w32x64-t8x8-b1.1024.tflops), \
    ch9.sk-128x64x16-w32x32-t8x4-b2.1024.tflops)
model.ch9_sk_best_spread_1024 := \
    max(max(ch9.sk-256x128x16-w64x64-t16x8-b1.1024.spread_pct, \
    ch9.sk-128x128x16-w32x64-t8x8-b1.1024.spread_pct), \
    ch9.sk-128x64x16-w32x32-t8x4-b2.1024.spread_pct)
compare.ch9_sk_1024 := model.ch9_sk_best_1024 ; ch9.dbuf-128x64x16-w32x32-t8x4-b2.1024.tflops ; \
    model.ch9_sk_best_spread_1024 ; ch9.dbuf-128x64x16-w32x32-t8x4-b2.1024.spread_pct
compare.ch9_ans_ex3 := ch9.ex3.pipe.4096.tflops ; ch9.ex3.before.pipe.4096.tflops ; \
    ch9.ex3.pipe.4096.spread_pct ; ch9.ex3.before.pipe.4096.spread_pct
compare.ch9_ans_sk_mid_4097 := ch9.sk-128x128x16-w32x64-t8x8-b1.4097.tflops ; ch9.tuned.4097.tflops ; \
    ch9.sk-128x128x16-w32x64-t8x8-b1.4097.spread_pct ; ch9.tuned.4097.spread_pct
compare.ch9_ans_sk_large_4097 := ch9.sk-256x128x16-w64x64-t16x8-b1.4097.tflops ; ch9.tuned.4097.tflops ; \
    ch9.sk-256x128x16-w64x64-t16x8-b1.4097.spread_pct ; ch9.tuned.4097.spread_pct
compare.ch9_ans_ex8 := ch9.ex8.tuned.4096.tflops ; ch9.ex8.before.tuned.4096.tflops ; \
    ch9.ex8.tuned.4096.spread_pct ; ch9.ex8.before.tuned.4096.spread_pct
