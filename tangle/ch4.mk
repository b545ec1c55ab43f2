slide_figure := fig-outer-product
slide_intro := Each thread computes a tile of $C$ as outer products: a column of $A$ and a row of $B$ in registers | In 2D, an $8\times8$ tile: 16 loads for 64 FFMAs
slide_bound := Sixteen values feed 64 FFMAs; with 128-bit loads, $(8/4 + 8/4)/64 = 1/16$ shared loads per FFMA, twenty times fewer than chapter 3's | 64 accumulators, 16 operands and the addresses take about 100 registers: {{model.ch4_tile2d_warps}} warps per SM, {{model.ch4_tile2d_occ_pct}}\% occupancy | Shared-load ceiling {{model.ch4_tile2d_ceiling_tflops}} TFLOP/s; with fewer warps to hide latency, we predict {{model.ch4_tile2d_expect_tflops}}
slide_question := Twenty times fewer shared loads per FFMA, but only {{model.ch4_tile2d_occ_pct}}\% occupancy. Faster or slower than chapter 3, and by how much?
slide_notes := Occupancy is a means, not the goal: work per thread (instruction-level parallelism) replaces warps. Derive the $1/16$ loads per FFMA and the register count; then the ceiling. The 2D kernel runs at {{ch4.tile2d.4096.tflops}} TFLOP/s.
slide_idea := Each thread computes a tile of $C$ as outer products of registers \
    | Shared load instructions per FFMA fall to {{ch4.tile2d.ncu.lds_per_ffma}} \
    | The 1D kernel's prediction: {{verdict.ch4_tile1d}}; the 2D kernel runs at {{ch4.tile2d.4096.tflops}} TFLOP/s, {{ch4.4096.speedup}} times chapter 3's speed at $4096^3$
programs := ch4
needs := sm_75
libs := -lcublas
headline := tile2d
lab := Accumulate outer products
lab_kernel := sgemm_tile2d
lab_hours := 0.75
lab_speed := 0.9
lab_needs := lab 3
lab_entries := tile1d tile2d
model.ch4_tile2d_block_regs := ch4.tile2d.ncu.regs_alloc \
                               * ch4.tile2d.ncu.block_size | %d
model.ch4_tile2d_reg_blocks := int(dev.regs_per_sm \
                               / model.ch4_tile2d_block_regs) | %d
model.ch4_tile2d_warps := model.ch4_tile2d_reg_blocks \
                          * ch4.tile2d.ncu.block_size / 32 | %d
model.ch4_tile2d_occ_pct := 100 * model.ch4_tile2d_warps \
                            / dev.warps_per_sm | %.0f
model.ch4_max_regs_two_blocks := dev.regs_per_sm \
                                 / (2 * ch4.tile2d.ncu.block_size) | %d
model.ch4_regs_plus1 := int(((ch4.tile2d.ncu.regs_alloc + 1) * 32 \
                             + 255) / 256) * 256 / 32 | %d
model.ch4_block_regs_plus1 := model.ch4_regs_plus1 \
                              * ch4.tile2d.ncu.block_size | %d
model.ch4_blocks_plus1 := int(dev.regs_per_sm \
                              / model.ch4_block_regs_plus1) | %d
model.ch4_tile1d_warps := ch4.tile1d.ncu.occ_limit_regs \
                          * ch4.tile1d.ncu.block_size / 32 | %d
model.ch4_tile2d_ceiling_tflops := ceil.ffma_tflops / (1 + 1 / 16)
model.ch4_tile2d_ceiling_x := model.ch4_tile2d_ceiling_tflops \
                              / ch3.smem.4096.tflops | %.1f
model.ch4_tile1d_ceiling_tflops := 32 / 0.375 * ceil.sms * 2 \
                                   * ceil.clock_mhz / 1e6
model.ch4_tile2d_expect_tflops := model.ch4_tile2d_ceiling_tflops \
                                  * model.ch3_pct_of_lsu / 100
model.ch4_tile2d_expect_x := model.ch4_tile2d_expect_tflops \
                             / ch3.smem.4096.tflops | %.1f
model.ch4_tile1d_expect_tflops := model.ch4_tile1d_ceiling_tflops \
                                  * model.ch3_pct_of_lsu / 100
model.ch4_tile2d_pct_of_ceiling := 100 * ch4.tile2d.4096.tflops \
                                   / model.ch4_tile2d_ceiling_tflops | %.0f
model.tiles128_1024 := (1024 / 128)^2 | %d
model.idle_sms_1024 := gpu.sms - model.tiles128_1024 | %d
model.tiles128_1111 := int((1111 + 127) / 128)^2 | %d
model.work_ratio_1111 := (1111 / 1024)^3 | %.2f
model.k_ratio_1111 := 1111 / 1024 | %.2f
model.ch4_time_ratio_1111 := ch4.tile2d.1111.ms / ch4.tile2d.1024.ms | %.2f
model.min_size_full_wave := 128 * int(sqrt(gpu.sms) + 0.999) | %d
model.ch4_ans_lds_wf_x := ch4.tile2d.ncu.lds_wavefronts / 1.5 | %.1f
model.ch4_ans_t4x4_ceiling := ceil.ffma_tflops / (1 + 1 / 8)
model.ch4_ans_t16x8_ceiling := ceil.ffma_tflops / (1 + 3 / 64)
model.ch4_ans_ai_over_ridge := 32 / ceil.ridge | %.1f
verdict.ch4_tile1d := ch4.tile1d.4096.tflops ; ch3.smem.4096.tflops ; \
    ch4.tile2d.4096.tflops ; \
    ch4.tile1d.4096.tflops * ch4.tile1d.4096.spread_pct / 100
compare.ch4_tile1d_smem := ch4.tile1d.4096.tflops ; ch3.smem.4096.tflops ; \
    ch4.tile1d.4096.spread_pct ; ch3.smem.4096.spread_pct
compare.ch4_tile2d_1111 := ch4.tile2d.1111.tflops ; ch4.tile2d.1024.tflops ; \
    ch4.tile2d.1111.spread_pct ; ch4.tile2d.1024.spread_pct
