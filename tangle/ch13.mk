slide_figure := timeline-ch13
slide_chunk := The overlapped job
slide_intro := The whole job: $A$ and $B$ to the GPU, the product, $C$ back | Pinned memory, streams and panels overlap the copies with the product
slide_bound := The copies over the link set a floor: {{model.ch13_floor_4096_ms}} ms at $4096^3$
slide_question := The copies take longer than the product. How close to the copy floor can overlapping bring the whole job?
slide_notes := Panels of $A$ and $C$ on their own streams: the product of panel $i$ runs while panel $i+1$ arrives. The job's time over the floor: {{model.ch13_over_floor}} times.
slide_idea := The whole job: $A$ and $B$ to the GPU, the product, $C$ back \
    | Pinned memory, streams and panels overlap the copies with the product \
    | The floor prediction: {{verdict.ch13_floor}}
lab_none := chapter 13 writes no kernel: its job runs chapter 9's with copies and streams, and its exercises are its lab
programs := ch13
roots := ch13.h
links := ch9 ch8 ch5
micro_links := ch13 ch9 ch8 ch5
micro := ch13job
events := ch13job --events
needs := sm_75
libs := -lcublas -lpthread
headline := overlap
model.copies_1024_ms := 8 * 1024^2 / ch13.micro.h2d_pinned.gbs / 1e6 \
    + 4 * 1024^2 / ch13.micro.d2h_pinned.gbs / 1e6 | %.2f
model.copies_4096_ms := 8 * 4096^2 / ch13.micro.h2d_pinned.gbs / 1e6 \
    + 4 * 4096^2 / ch13.micro.d2h_pinned.gbs / 1e6 | %.2f
model.serial_model_4096_ms := model.copies_4096_ms + ch13.kernel.4096.ms | %.2f
model.overlap_vs_copies_4096 := ch13.overlap.4096.ms / model.copies_4096_ms | %.2f
model.naive_vs_pinned_4096 := ch13.naive.4096.ms / ch13.pinned.4096.ms | %.1f
model.naive_vs_best_1024 := ch13.naive.1024.ms / ch13.overlap.1024.ms | %.1f
model.kernel_eighth_4096_ms := ch13.kernel.4096.ms / 8 | %.2f
model.b_copy_4096_ms := 4 * 4096^2 / ch13.micro.h2d_pinned.gbs / 1e6 | %.2f
model.copies_in_4096_ms := 8 * 4096^2 / ch13.micro.h2d_pinned.gbs / 1e6 | %.2f
model.ch13_panels_saved_ms := (model.copies_4096_ms - model.copies_in_4096_ms) / 8 | %.2f
model.ch13_cpumt_64_pred_ms := 8 * ch13.micro.cpumt_32.ms | %.4f
verdict.ch13_panels := ch13.micro.panels_4096_4.ms - ch13.micro.panels_4096_8.ms ; \
    0 ; model.ch13_panels_saved_ms ; (ch13.micro.panels_4096_4.ms \
    * ch13.micro.panels_4096_4.spread_pct + ch13.micro.panels_4096_8.ms \
    * ch13.micro.panels_4096_8.spread_pct) / 100
compare.ch13_panels_4096 := ch13.micro.panels_4096_4.ms ; \
    ch13.micro.panels_4096_8.ms ; ch13.micro.panels_4096_4.spread_pct ; \
    ch13.micro.panels_4096_8.spread_pct | slower than / faster than
compare.ch13_cpu_job_32 := ch13.micro.cpu_32.ms ; ch13.micro.job_32.ms ; \
    ch13.micro.cpu_32.spread_pct ; ch13.micro.job_32.spread_pct | slower than / faster than
compare.ch13_cpumt_batch_32 := ch13.micro.cpumt_32.ms ; ch13.micro.batch_32.ms ; \
    ch13.micro.cpumt_32.spread_pct ; ch13.micro.batch_32.spread_pct | slower than / faster than
compare.ch13_panels_1024 := ch13.micro.panels_1024_1.ms ; \
    ch13.micro.panels_1024_2.ms ; ch13.micro.panels_1024_1.spread_pct ; \
    ch13.micro.panels_1024_2.spread_pct | slower than / faster than
model.ch13_link_ratio := ceil.copy_tbs * 1000 / ch13.micro.h2d_pinned.gbs | %.0f
model.ch13_floor_4096_ms := (model.copies_in_4096_ms > ch13.kernel.4096.ms \
    ? model.copies_in_4096_ms : ch13.kernel.4096.ms) | %.2f
model.ch13_over_floor := ch13.overlap.4096.ms / model.ch13_floor_4096_ms | %.2f
verdict.ch13_floor := model.ch13_over_floor ; 0 ; 1.2 ; \
    model.ch13_over_floor * ch13.overlap.4096.spread_pct / 100
compare.ch13_overlap_512 := ch13.overlap.512.ms ; ch13.pinned.512.ms ; \
    ch13.overlap.512.spread_pct ; ch13.pinned.512.spread_pct \
    | slower than / faster than
compare.ch13_overlap_256 := ch13.overlap.256.ms ; ch13.pinned.256.ms ; \
    ch13.overlap.256.spread_pct ; ch13.pinned.256.spread_pct \
    | slower than / faster than
model.ch13_ans_register_ms := ch13.ex4.micro.alloc_register_4096.ms \
    + ch13.ex4.micro.alloc_unregister_4096.ms | %.0f
model.ch13_ans_pinning_saves_ms := ch13.naive.4096.ms \
    - ch13.pinned.4096.ms | %.0f
model.ch13_ans_register_jobs := model.ch13_ans_register_ms \
    / model.ch13_ans_pinning_saves_ms | %.1f
model.ch13_ans_3x_job_ms := model.copies_in_4096_ms \
    + ch12.3xtf32.4096.ms / 8 \
    + 4 * 4096^2 / 8 / ch13.micro.d2h_pinned.gbs / 1e6 | %.1f
model.ch13_ans_tiles_ms_4096 := 2 * 4096^3 / ch13.ex5.tiles.4096.tflops \
    / 1e9 | %.1f
model.ch13_ans_panels_ms_4096 := 2 * 4096^3 \
    / ch13.ex5.before.overlap.4096.tflops / 1e9 | %.1f
model.ch13_ans_tiles_ms_8192 := 2 * 8192^3 / ch13.ex5.tiles.8192.tflops \
    / 1e9 | %.1f
model.ch13_ans_panels_ms_8192 := 2 * 8192^3 \
    / ch13.ex5.before.overlap.8192.tflops / 1e9 | %.1f
model.ch13_ans_tile_mults_4096 := 32 * 2 * 512 * 1024 * 4096 \
    / ch13.ex5.before.kernel.512x1024x4096.tflops / 1e9 | %.1f
model.ch13_ans_kernel_ms_4096 := 2 * 4096^3 \
    / ch13.ex5.before.kernel.4096.tflops / 1e9 | %.1f
model.ch13_ans_tile_mults_8192 := 64 * 2 * 1024 * 1024 * 8192 \
    / ch13.ex5.before.kernel.1024x1024x8192.tflops / 1e9 | %.1f
model.ch13_ans_kernel_ms_8192 := 2 * 8192^3 \
    / ch13.ex5.before.kernel.8192.tflops / 1e9 | %.1f
compare.ch13_ans_ex5_2048 := ch13.ex5.tiles.2048.tflops ; ch13.ex5.before.overlap.2048.tflops ; \
    ch13.ex5.tiles.2048.spread_pct ; ch13.ex5.before.overlap.2048.spread_pct
compare.ch13_ans_ex5_4096 := ch13.ex5.tiles.4096.tflops ; ch13.ex5.before.overlap.4096.tflops ; \
    ch13.ex5.tiles.4096.spread_pct ; ch13.ex5.before.overlap.4096.spread_pct
compare.ch13_ans_ex5_8192 := ch13.ex5.tiles.8192.tflops ; ch13.ex5.before.overlap.8192.tflops ; \
    ch13.ex5.tiles.8192.spread_pct ; ch13.ex5.before.overlap.8192.spread_pct
