slide_figure := fig-wgmma-pipeline
slide_intro := Hopper: TMA copies whole tiles; \texttt{wgmma} multiplies from shared memory | A producer warpgroup and two consumer warpgroups share a ring of stages
slide_bound := Each stage has a full barrier (the consumers wait) and an empty one (the producer waits), with a phase bit each | TF32 from FP32 inputs: the two passes that round and lay out $A$ and $B$ move {{model.ch12_pass_mb}} MB at $4096^3$: {{model.ch12_pass_ms}} ms at the copy rate, {{model.ch12_pass_pct}}\% of the TF32 product's time
slide_question := Can a kernel of ours come within 10\% of cuBLAS's BF16 rate at $4096^3$?
slide_notes := Draw the ring: stage $s$ full or empty, its parity flipping each lap. The answer: {{ch12.bf16.4096.pct_cublas}}\% of cuBLAS.
slide_idea := Hopper: TMA copies, \texttt{wgmma} from shared memory, a producer warpgroup and two consumer warpgroups \
    | A ring of stages, each with a full and an empty barrier and their parity \
    | BF16 within 10\% of cuBLAS at $4096^3$: {{verdict.ch12_bf16}}
programs := ch12 ch12sweep
roots := ch12.h hopper.h
links := ch10 ch9 ch8 ch5
sweep := ch12sweep --size 4096,8192
extra_runs := --size 8192 -m 4097 -n 4095 -k 4093
needs := sm_90a
libs := -lcublas
headline := bf16
sass := bf16:HGMMA.64x128x16.F32.BF16 tf32:HGMMA.64x128x8.F32.TF32 \
        3xtf32:HGMMA.64x128x8.F32.TF32 bf16-one:HGMMA.64x128x16.F32.BF16 \
        bf16-one:UTMALDG.2D bf16-ring:HGMMA.64x128x16.F32.BF16
lab := Descriptors of step [[kk]] for operand pair [[op]]
lab_kernel := hopper_gemm
lab_hours := 1.5
lab_speed := 0.9
lab_needs := lab 10, PTX wgmma and its shared-memory descriptors, sm_90a
lab_entries := bf16 tf32
lab_reach := aligned-bf16
lab_race_at := 130x128x520 512x256x520
lab_race_args := --sms 2
sanitize_at := 130x200x520:0
profile_at := 1024:bf16-grouped 1024:bf16 8192:bf16-one 8192:bf16-ring \
    8192:bf16-tiles 8192:bf16-grouped
model.ch12_pass_mb := 2 * 2 * 4 * 4096 * 4096 / 1e6 | %.0f
model.ch12_pass_ms := model.ch12_pass_mb / ceil.copy_tbs / 1000 | %.3f
model.ch12_pass_pct := 100 * model.ch12_pass_ms / ch12.tf32.4096.ms | %.0f
model.ch12_tf32_pred_ms := 2 * ch12.bf16.4096.ms + model.ch12_pass_ms | %.3f
verdict.ch12_tf32 := ch12.tf32.4096.ms ; 0.9 * model.ch12_tf32_pred_ms ; \
    1.1 * model.ch12_tf32_pred_ms ; ch12.tf32.4096.ms * ch12.tf32.4096.spread_pct / 100
model.ch12_x3_pred_ms := 3 * (ch12.tf32.4096.ms - model.ch12_pass_ms) \
    + 1.5 * model.ch12_pass_ms | %.3f
model.ch12_x3_pred_tflops := 2 * 4096^3 / (model.ch12_x3_pred_ms * 1e9) | %.0f
verdict.ch12_x3 := ch12.3xtf32.4096.ms ; 0.9 * model.ch12_x3_pred_ms ; \
    1.1 * model.ch12_x3_pred_ms ; ch12.3xtf32.4096.ms * ch12.3xtf32.4096.spread_pct / 100
model.ch12_x3_l2_x := ch12.3xtf32.ncu.l2_read_gb / ch12.tf32.ncu.l2_read_gb | %.1f
compare.ch12_x3_error := ch12.3xtf32.4096.error ; ch0.cublas.4096.error ; 0 ; 0 \
    | larger than / smaller than
model.ch12_one_req_gb := 2048 * 64 * 24 * 1024 / 1e9 | %.1f
model.ch12_one_l2_tbs := model.ch12_one_req_gb / ch12.bf16-one.4096.ms | %.1f
model.ch12_tiles_l2_gb := 512 * 64 * 48 * 1024 / 1e9 | %.1f
model.ch12_tiles_l2_tbs := model.ch12_tiles_l2_gb / ch12.bf16-tiles.4096.ms | %.1f
model.ch12_tiles_l2_ms := model.ch12_tiles_l2_gb / model.ch12_one_l2_tbs | %.3f
model.ch12_tiles_l2_tflops := 2 * 4096^3 / (model.ch12_tiles_l2_ms * 1e9) | %.0f
model.ch12_ring_4096 := 100 * (ch12.bf16-ring.4096.tflops \
    / ch12.bf16-one.4096.tflops - 1) | %+.1f
verdict.ch12_ring := model.ch12_ring_4096 ; 0 ; inf ; \
    ch12.bf16-ring.4096.spread_pct + ch12.bf16-one.4096.spread_pct
verdict.ch12_l2_bound := ch12.bf16-tiles.4096.tflops ; 0 ; \
    model.ch12_tiles_l2_tflops ; ch12.bf16-tiles.4096.tflops \
    * ch12.bf16-tiles.4096.spread_pct / 100
model.ch12_one_l2_x := ch12.bf16-one.ncu.l2_read_gb / ch12.bf16-tiles.ncu.l2_read_gb | %.1f
compare.ch12_ring_4096 := ch12.bf16-ring.4096.tflops ; ch12.bf16-one.4096.tflops ; \
    ch12.bf16-ring.4096.spread_pct ; ch12.bf16-one.4096.spread_pct
compare.ch12_ring_1024 := ch12.bf16-ring.1024.tflops ; ch12.bf16-one.1024.tflops ; \
    ch12.bf16-ring.1024.spread_pct ; ch12.bf16-one.1024.spread_pct
compare.ch12_ring_8192 := ch12.bf16-ring.8192.tflops ; ch12.bf16-one.8192.tflops ; \
    ch12.bf16-ring.8192.spread_pct ; ch12.bf16-one.8192.spread_pct
compare.ch12_tiles_4096 := ch12.bf16-tiles.4096.tflops ; ch12.bf16-ring.4096.tflops ; \
    ch12.bf16-tiles.4096.spread_pct ; ch12.bf16-ring.4096.spread_pct
compare.ch12_grouped_8192 := ch12.bf16-grouped.8192.tflops ; ch12.bf16-tiles.8192.tflops ; \
    ch12.bf16-grouped.8192.spread_pct ; ch12.bf16-tiles.8192.spread_pct
compare.ch12_grouped_4096 := ch12.bf16-grouped.4096.tflops ; ch12.bf16-tiles.4096.tflops ; \
    ch12.bf16-grouped.4096.spread_pct ; ch12.bf16-tiles.4096.spread_pct
compare.ch12_persist_4096 := ch12.bf16-persistent.4096.tflops ; ch12.bf16-grouped.4096.tflops ; \
    ch12.bf16-persistent.4096.spread_pct ; ch12.bf16-grouped.4096.spread_pct
compare.ch12_persist_8192 := ch12.bf16-persistent.8192.tflops ; ch12.bf16-grouped.8192.tflops ; \
    ch12.bf16-persistent.8192.spread_pct ; ch12.bf16-grouped.8192.spread_pct
compare.ch12_persist_peak_4096 := ch12.bf16-persistent.4096.tflops ; \
    ch10.micro.mma_bf16.tflops ; ch12.bf16-persistent.4096.spread_pct ; \
    50 * (ch10.micro.mma_bf16.tflops_max - ch10.micro.mma_bf16.tflops_min) \
    / ch10.micro.mma_bf16.tflops | above / below
compare.ch12_persist_peak_8192 := ch12.bf16-persistent.8192.tflops ; \
    ch10.micro.mma_bf16.tflops ; ch12.bf16-persistent.8192.spread_pct ; \
    50 * (ch10.micro.mma_bf16.tflops_max - ch10.micro.mma_bf16.tflops_min) \
    / ch10.micro.mma_bf16.tflops | above / below
compare.ch12_store_2048 := ch12.bf16.2048.tflops ; ch12.bf16-persistent.2048.tflops ; \
    ch12.bf16.2048.spread_pct ; ch12.bf16-persistent.2048.spread_pct
compare.ch12_store_4096 := ch12.bf16.4096.tflops ; ch12.bf16-persistent.4096.tflops ; \
    ch12.bf16.4096.spread_pct ; ch12.bf16-persistent.4096.spread_pct
compare.ch12_store_8192 := ch12.bf16.8192.tflops ; ch12.bf16-persistent.8192.tflops ; \
    ch12.bf16.8192.spread_pct ; ch12.bf16-persistent.8192.spread_pct
compare.ch12_pairs_2048 := ch12.bf16-pairs.2048.tflops ; ch12.bf16.2048.tflops ; \
    ch12.bf16-pairs.2048.spread_pct ; ch12.bf16.2048.spread_pct
compare.ch12_pairs_4096 := ch12.bf16-pairs.4096.tflops ; ch12.bf16.4096.tflops ; \
    ch12.bf16-pairs.4096.spread_pct ; ch12.bf16.4096.spread_pct
compare.ch12_pairs_8192 := ch12.bf16-pairs.8192.tflops ; ch12.bf16.8192.tflops ; \
    ch12.bf16-pairs.8192.spread_pct ; ch12.bf16.8192.spread_pct
verdict.ch12_store := model.ch12_store_4096 ; 0 ; model.ch12_epi_pct ; \
    ch12.bf16.4096.spread_pct + ch12.bf16-persistent.4096.spread_pct
verdict.ch12_pairs := model.ch12_pairs_4096 ; 0 ; inf ; \
    ch12.bf16-pairs.4096.spread_pct + ch12.bf16.4096.spread_pct
verdict.ch12_bf16 := ch12.bf16.4096.pct_cublas ; 90 ; inf ; \
    ch12.bf16.4096.pct_cublas * (ch12.bf16.4096.spread_pct \
    + ch12.bf16.4096.cublas_spread_pct) / 100
model.ch12_rows_at_once := ceil.sms / (8192 / 128) | %.0f
model.ch12_rows_b_gb := (8192 / 256) / (ceil.sms / (8192 / 128)) \
    * 8192 * 8192 * 2 / 1e9 | %.1f
model.ch12_group_b_gb := (8192 / 256) / 8 * 8192 * 8192 * 2 / 1e9 | %.2f
model.ch12_group_saved_ms := (model.ch12_rows_b_gb - model.ch12_group_b_gb) \
    / ceil.copy_tbs | %.2f
model.ch12_fill_us := ceil.sms * 48 * 1024 / (ceil.copy_tbs * 1e6) | %.1f
model.ch12_stage_us := 2 * 256 * 128 * 64 * ceil.sms \
    / (ch12.bf16.4096.tflops * 1e6) | %.2f
model.ch12_epi_us := 128 * 1024 * ceil.sms / (ceil.copy_tbs * 1e6) | %.1f
model.ch12_tile_us := 64 * model.ch12_stage_us | %.0f
model.ch12_epi_pct := 100 * model.ch12_epi_us / model.ch12_tile_us | %.0f
model.ch12_fill_pct := 100 * model.ch12_fill_us \
    / (64 * model.ch12_stage_us) | %.1f
model.ch12_ans_slack3_us := 2 * model.ch12_stage_us | %.1f
model.ch12_persist_4096 := 100 * (ch12.bf16-persistent.4096.tflops \
    / ch12.bf16-grouped.4096.tflops - 1) | %+.1f
model.ch12_persist_8192 := 100 * (ch12.bf16-persistent.8192.tflops \
    / ch12.bf16-grouped.8192.tflops - 1) | %+.1f
model.ch12_store_2048 := 100 * (ch12.bf16.2048.tflops \
    / ch12.bf16-persistent.2048.tflops - 1) | %+.1f
model.ch12_store_4096 := 100 * (ch12.bf16.4096.tflops \
    / ch12.bf16-persistent.4096.tflops - 1) | %+.1f
model.ch12_store_8192 := 100 * (ch12.bf16.8192.tflops \
    / ch12.bf16-persistent.8192.tflops - 1) | %+.1f
model.ch12_l2_seen_pct := 100 * ch12.bf16.ncu.l2_read_gb \
    / (512 * 64 * 48 * 1024 / 1e9) | %.0f
model.ch12_l2_seen_pairs_pct := 100 * ch12.bf16-pairs.ncu.l2_read_gb \
    / (512 * 64 * 48 * 1024 / 1e9) | %.0f
model.ch12_pairs_2048 := 100 * (ch12.bf16-pairs.2048.tflops \
    / ch12.bf16.2048.tflops - 1) | %+.1f
model.ch12_half_1024 := ch12.bf16.1024.tflops \
    / ch12.bf16-grouped.1024.tflops | %.2f
model.ch12_pairs_4096 := 100 * (ch12.bf16-pairs.4096.tflops \
    / ch12.bf16.4096.tflops - 1) | %+.1f
model.ch12_pairs_8192 := 100 * (ch12.bf16-pairs.8192.tflops \
    / ch12.bf16.8192.tflops - 1) | %+.1f
model.ch12_tiles_1024 := (1024 / 256) * (1024 / 128) | %.0f
model.ch12_idle_1024 := ceil.sms - model.ch12_tiles_1024 | %.0f
model.ch12_ans_pass_pred_ms := 2 * 4096^2 * 4 / ceil.copy_tbs / 1e9 | %.3f
model.ch12_ans_pass_pct := 100 * ch12.ex8.split_rows.ncu.time_ms \
    / (ch12.ex8.split_rows.ncu.time_ms \
       + ch12.ex8.split_transposed.ncu.time_ms \
       + ch12.ex8.tf32.ncu.time_ms) | %.0f
