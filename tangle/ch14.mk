slide_figure := suite-ch14
slide_chunk := The FP32 dispatcher
slide_intro := One entry point per precision, for any $M$, $N$, $K$, leading dimensions, $\alpha$ and $\beta$ | A thin product streams the larger operand; the last wave's tiles are split in $K$
slide_bound := A product with $N = 1$ is a matrix--vector product: bound by the copy bandwidth, {{ceil.copy_tbs}} TB/s, not by arithmetic | A shape's tiles over {{gpu.sms}} SMs decide how full its last wave is
slide_question := Rules tuned on {{ch14.suite.shapes}} shapes: how well will they do on shapes they never saw?
slide_notes := Ask how one would know: tune on one set of shapes, report on another drawn fresh. A rule graded on its own tuning set says nothing about the next shape.
slide_idea := One entry point per precision, for any $M$, $N$, $K$, leading dimensions, $\alpha$, $\beta$ \
    | A thin product streams the larger operand when $M$ or $N$ is small; TF32, and BF16 where it pays, read $A$ and $B$ as they lie, $B^T$ through registers; the last wave's tiles are split in $K$ and joined by each tile's first block \
    | Over {{ch14.suite.shapes}} public shapes, FP32 at {{ch14.suite.fp32.geomean_pct}}\%, TF32 at {{ch14.suite.tf32.geomean_pct}}\%, BF16 at {{ch14.suite.bf16.geomean_pct}}\% of cuBLAS (geometric means)
programs := ch14
budget := 2060
spills := fp32-thin thin_rows<float,0,16>
roots := ch14.h wgmma.h plan14.h
library := sgemmbook.h sgemmbook-check.h sgemmbook.cu
micro := libspeed
links := ch12 ch11 ch10 ch9 ch8 ch5
suite := shapes/suite.csv
validation := 40
needs := sm_80
best_target := sm_90a
extra_runs := -m 2048 -n 3072 -k 5000 --kernel bf16-tiles ; \
    -m 2048 -n 3072 -k 5120 --kernel bf16-tiles ; \
    -m 9897 -n 1 -k 940 --kernel fp32 ; -m 1197 -n 19491 -k 8 --kernel fp32 ; \
    -m 4 -n 708 -k 22803 --kernel fp32 ; -m 5000 -n 3 -k 4096 --kernel fp32
libs := -lcublas
headline := fp32
profile_at := 1x4096x14336:fp32:thin_rows 16x4096x14336:fp32:thin_rows \
    35x8457x2560:fp32:sgemm_streamk 2000x3000x5000:fp32:sgemm_streamk \
    2000x3000x5000:fp32-tiles:sgemm_dbuf 4093x4099x4091:fp32:pad_rows \
    256x256x65536:fp32:sgemm_streamk 1x28672x8192:fp32:thin_rows \
    256x256x65536:fp32-tiles 16x4096x14336:bf16-tiles 16x4096x14336:bf16:direct_gemm 1x4096x14336:bf16:direct_gemm \
    128x4096x14336:tf32:direct_gemm 128x4096x14336:tf32-tiles:split_transposed \
    8192x64x8192:tf32:direct_gemm 8192x64x8192:tf32-tiles:split_rows \
    256x256x65536:bf16:hopper_gemm 2817x1536x4096:tf32:direct_gemm \
    7680x32x2560:bf16:direct_gemm 7680x32x2560:bf16-direct:direct_gemm \
    2000x3000x5000:bf16:direct_gemm 2000x3000x5000:bf16-tiles \
    2560x64x2560:bf16:direct_gemm 4096x128x4096:bf16:direct_gemm \
    128x4096x4096:bf16:direct_gemm 2000x3000x5000:bf16:cublas \
    2817x1536x4096:bf16:cublas 1409x1536x8192:bf16:cublas \
    2560x64x2560:bf16:cublas 4096x128x4096:bf16:cublas \
    128x4096x4096:bf16:cublas 256x256x65536:bf16:cublas \
    7680x32x2560:bf16:cublas 4096x4096x4096:bf16:cublas \
    35x8457x2560:fp32:cublas 3072x128x1024:fp32:cublas \
    35x8457x2560:tf32:cublas 2000x3000x5000:fp32:cublas \
    9897x1x940:fp32:thin_cols 9897x1x940:fp32:cublas \
    1197x19491x8:fp32:thin_rows 1197x19491x8:fp32:cublas \
    4x708x22803:fp32:thin_rows 4x708x22803:fp32:cublas \
    269x1x32092:fp32:thin_cols 7680x32x2560:fp32:sgemm_dbuf \
    7680x32x2560:fp32:cublas 16x4096x14336:fp32:cublas \
    5000x3x4096:fp32:thin_cols 5000x3x4096:fp32:cublas
lab := Stream the rows of $B$ from [[kc]]
lab_kernel := thin_rows
lab_hours := 1
lab_speed := 0.9
lab_needs := lab 6 (16-byte loads), sm_80
lab_entries := fp32-thin
lab_race_at := 67x90x1000 67x96x1000 4x96x4000 1x96x8000
lab_race_args := --sms 1
model.ch14_thin_fp32_tflops := 2 * 16 / 4 * ceil.copy_tbs | %.0f
model.ch14_thin_bf16_tflops := 2 * 16 / 2 * ceil.copy_tbs | %.0f
compare.ch14_thin_bf16 := model.ch14_thin_bf16_tflops ; ceil.ffma_tflops ; 0 ; 0 \
    | more than / less than
model.ch14_pad_mb := 2 * 2 * 2 * 4093 * 4093 / 1e6 | %.0f
model.ch14_pad_us := model.ch14_pad_mb / ceil.copy_tbs | %.0f
model.ch14_copy_gbs := 1000 * ceil.copy_tbs | %.0f
model.ch14_thin_copy_pct := 100 * ch14.suite.fp32.1x4096x14336.gbs / (1000 * ceil.copy_tbs) | %.0f
model.ch14_ans_cublas70_pct := 100 * ch14.suite.fp32.1x28672x8192.cublas_gbs / (1000 * ceil.copy_tbs) | %.0f
model.ch14_thin_copy70_pct := 100 * ch14.suite.fp32.1x28672x8192.gbs / (1000 * ceil.copy_tbs) | %.0f
model.ch14_thin16_copy_pct := 100 * ch14.suite.fp32.16x4096x14336.gbs / (1000 * ceil.copy_tbs) | %.0f
model.ch14_bf16_thin_copy_pct := 100 * ch14.suite.bf16.1x4096x14336.gbs / (1000 * ceil.copy_tbs) | %.0f
compare.ch14_pad := ch14.suite.bf16.4093x4099x4091.tflops ; \
    ch14.suite.bf16-tiles.4093x4099x4091.tflops ; \
    ch14.suite.bf16.4093x4099x4091.spread_pct ; \
    ch14.suite.bf16-tiles.4093x4099x4091.spread_pct | faster than the fallback / slower than the fallback
model.ch14_bf16_b_gb := 2 * 4096 * 14336 / 1e9 | %.3f
model.ch14_narrow_tc_us := ch14.bf16.7680x32x2560.ncu.tensor_elapsed_pct \
    * ch14.suite.bf16.7680x32x2560.ms * 10 | %.1f
model.ch14_narrow_tc_rows_us := ch14.bf16-direct.7680x32x2560.ncu.tensor_elapsed_pct \
    * ch14.suite.bf16-direct.7680x32x2560.ms * 10 | %.1f
model.ch14_narrow_tc_ratio := model.ch14_narrow_tc_us / model.ch14_narrow_tc_rows_us | %.2f
model.ch14_narrow_saved_us := 1000 * (ch14.suite.bf16-direct.7680x32x2560.ms \
    - ch14.suite.bf16.7680x32x2560.ms) | %.1f
model.ch14_narrow_saved_spread_us := 10 * (ch14.suite.bf16-direct.7680x32x2560.ms \
    * ch14.suite.bf16-direct.7680x32x2560.spread_pct \
    + ch14.suite.bf16.7680x32x2560.ms * ch14.suite.bf16.7680x32x2560.spread_pct) | %.1f
model.ch14_narrow_tc_saved_us := model.ch14_narrow_tc_rows_us - model.ch14_narrow_tc_us | %.1f
model.ch14_narrow_busy_pct := ch14.bf16.7680x32x2560.ncu.tensor_elapsed_pct | %.1f
model.ch14_rows_busy_pct := ch14.bf16-direct.7680x32x2560.ncu.tensor_elapsed_pct | %.1f
model.ch14_narrow_tc_share := ch14.bf16.7680x32x2560.ncu.tensor_elapsed_pct | %.0f
model.ch14_narrow_time_ratio := model.ch14_narrow_saved_us / model.ch14_narrow_tc_saved_us | %.2f
verdict.ch14_narrow_time := model.ch14_narrow_time_ratio ; 0.8 ; 1.2 ; \
    model.ch14_narrow_saved_spread_us / model.ch14_narrow_tc_saved_us
model.ch14_narrow_copy_pct := 100 * ch14.suite.bf16.7680x32x2560.gbs / (1000 * ceil.copy_tbs) | %.0f
verdict.ch14_narrow := model.ch14_narrow_tc_ratio ; 0.2 ; 0.3 ; model.ch14_narrow_tc_ratio \
    * (ch14.suite.bf16.7680x32x2560.spread_pct + ch14.suite.bf16-direct.7680x32x2560.spread_pct) / 100
model.ch14_bf16_stages16 := int(200 * 1024 / (16 * 128 + 64 * 128 * 2)) | %d
model.ch14_bf16_flight_kb := model.ch14_bf16_stages16 * 16 | %d
model.ch14_x3_1409 := ch14.suite.3xtf32.1409x1536x8192.pct / 100 | %.2f
model.ch14_x3_2817 := ch14.suite.3xtf32.2817x1536x4096.pct / 100 | %.2f
model.ch14_x3t_1409 := ch14.suite.3xtf32-tiles.1409x1536x8192.pct / 100 | %.2f
model.ch14_x3t_2817 := ch14.suite.3xtf32-tiles.2817x1536x4096.pct / 100 | %.2f
model.ch14_x3_1760 := ch14.suite.3xtf32.1760x7133x1760.pct / 100 | %.2f
model.ch14_x3_4093 := ch14.suite.3xtf32.4093x4099x4091.pct / 100 | %.2f
model.ch14_x3_pass_mb := 3 * 4 * 1024 * 16384 / 1e6 | %.0f
model.ch14_x3_pass_pct := 100 * model.ch14_x3_pass_mb / ceil.copy_tbs \
    / (1000 * ch14.suite.3xtf32.1024x1024x16384.ms) | %.0f
model.ch14_wave_extra := 144 - gpu.sms | %d
model.ch14_wide_rate := 100 * ch9.dbuf-128x256x8-w64x64-t8x16-b1.4096.tflops \
    / ch9.dbuf-256x128x16-w64x64-t16x8-b1.4096.tflops | %.1f
model.ch14_sk_rate := 100 * ch9.sk-128x128x16-w32x64-t8x8-b1.4096.tflops \
    / ch9.dbuf-256x128x16-w64x64-t16x8-b1.4096.tflops | %.0f
model.ch14_sk_rate_8192 := 100 * ch9.sk-128x128x16-w32x64-t8x8-b1.8192.tflops \
    / ch9.dbuf-256x128x16-w64x64-t16x8-b1.8192.tflops | %.0f
model.ch14_fill_l := 100 * 2000 * 3000 / (2 * gpu.sms * 256 * 128) | %.0f
model.ch14_fill_s := 100 * 2000 * 3000 / (16 * 24 * 128 * 128) | %.0f
model.ch14_fill_pred := model.ch14_fill_s * model.ch14_sk_rate / 100 / model.ch14_fill_l | %.2f
model.ch14_fill_x := ch14.suite.fp32-tiles.2000x3000x5000.ms / ch14.suite.fp32.2000x3000x5000.ms | %.2f
verdict.ch14_fill := model.ch14_fill_x ; 0.9 * model.ch14_fill_pred ; 1.1 * model.ch14_fill_pred ; \
    model.ch14_fill_x * (ch14.suite.fp32.2000x3000x5000.spread_pct \
    + ch14.suite.fp32-tiles.2000x3000x5000.spread_pct) / 100
model.ch14_align_pct := 100 * 4 * ceil.ffma_tflops / (1000 * ceil.copy_tbs) | %.0f
model.ch14_unaligned_loss_pct := 100 * (1 - ch14.suite.fp32-tiles.4093x4099x4091.tflops \
    / ch14.suite.fp32-tiles.4096x4096x4096.tflops) | %.0f
model.ch14_align_even := 4 * ceil.ffma_tflops \
    / (ceil.copy_tbs * model.ch14_unaligned_loss_pct / 100) | %.0f
model.ch14_pad_rows_tbs := 2 * ch14.fp32.4093x4099x4091.ncu.dram_gb \
    / ch14.fp32.4093x4099x4091.ncu.time_ms | %.2f
model.ch14_pad_rows_pct := 100 * model.ch14_pad_rows_tbs / ceil.copy_tbs | %.0f
compare.ch14_fp32_pad := ch14.suite.fp32.4093x4099x4091.tflops ; \
    ch14.suite.fp32-tiles.4093x4099x4091.tflops ; \
    ch14.suite.fp32.4093x4099x4091.spread_pct ; \
    ch14.suite.fp32-tiles.4093x4099x4091.spread_pct | faster / slower
model.ch14_ans6_r1 := ch14.fp32-split.1024.ms / ch14.fp32-tiles.1024.ms | %.3f
model.ch14_ans6_r16 := ch14.suite.fp32-split.1024x1024x16384.ms \
    / ch14.suite.fp32-tiles.1024x1024x16384.ms | %.3f
model.ch14_ans6_keep := (16 * model.ch14_ans6_r16 - model.ch14_ans6_r1) / 15 | %.3f
model.ch14_ans6_gain_pct := 100 * (1 - model.ch14_ans6_keep) | %.0f
model.ch14_ans6_fixed := 1024 * (model.ch14_ans6_r1 - model.ch14_ans6_keep) | %.0f
model.ch14_ans6_r2048 := model.ch14_ans6_keep + model.ch14_ans6_fixed / 2048 | %.3f
model.ch14_ans6_cross := model.ch14_ans6_fixed / (1 - model.ch14_ans6_keep) | %.0f
model.ch14_fp32_split_x := ch14.suite.fp32-tiles.2560x64x2560.ms / ch14.suite.fp32.2560x64x2560.ms | %.1f
model.ch14_split_256 := int(gpu.sms / 4) | %d
model.ch14_split_even_stages := int((1024 + model.ch14_split_256 - 1) / model.ch14_split_256) | %d
model.ch14_split_even := int((1024 + model.ch14_split_even_stages - 1) / model.ch14_split_even_stages) | %d
model.ch14_split_slices := 32 | %d
model.ch14_split_stages := int((1024 + model.ch14_split_slices - 1) / model.ch14_split_slices) | %d
model.ch14_split_reads := 3 + 3 + 1 | %d
model.ch14_split_join_mb := model.ch14_split_reads * 64 * 1024 / 1e6 | %.2f
model.ch14_ans9_mb := 2 * 64 * 1024 / 1e6 | %.2f
model.ch14_wave_whole_pct := 100 * 144 * 128 / gpu.sms / 256 | %.0f
model.ch14_wave_mb := 4 * (2817 * 4096 + 4096 * 1536) / 1e6 | %.0f
model.ch14_sq_fill_pct := 100 * 512 / (4 * gpu.sms) | %.0f
model.ch14_wave_pred_pct := 100 * (144 * 128 / gpu.sms / 150) / (512 / (4 * gpu.sms)) | %.0f
model.ch14_wave_whole_rel_pct := 100 * (144 * 128 / gpu.sms / 256) / (512 / (4 * gpu.sms)) | %.0f
model.ch14_wave_ratio_pct := 100 * ch14.suite.tf32.2817x1536x4096.tflops \
    / ch14.suite.tf32-direct.4096x4096x4096.tflops | %.0f
verdict.ch14_wave := model.ch14_wave_ratio_pct ; 0.9 * model.ch14_wave_pred_pct ; \
    1.1 * model.ch14_wave_pred_pct ; model.ch14_wave_ratio_pct \
    * (ch14.suite.tf32.2817x1536x4096.spread_pct + ch14.suite.tf32-direct.4096x4096x4096.spread_pct) / 100
model.ch14_wave_busy_pct := 100 * (gpu.sms * 128 + (144 - gpu.sms) * 128 \
    + (144 - gpu.sms) * 10) / (gpu.sms * 150) | %.0f
model.ch14_wave_extra_2000 := 192 - gpu.sms | %d
model.ch14_bf16_direct_slow := ch14.suite.bf16-tiles.4096x4096x4096.tflops \
    / ch14.suite.bf16-direct.4096x4096x4096.tflops | %.2f
model.ch14_bf16_epi := (ch14.suite.bf16-direct.4096x4096x128.ms \
    - ch14.suite.bf16-tiles.4096x4096x128.ms) / 4 \
    / (ch14.suite.bf16-tiles.4096x4096x4096.ms / 256) | %.1f
model.ch14_a_copy_loss_pct := 100 * (1 - ch14.bf16-tiles.2048x3072x5000.tflops \
    / ch14.bf16-tiles.2048x3072x5120.tflops) | %.0f
model.ch14_a_copy_even := 2 * ch14.bf16-tiles.2048x3072x5120.tflops / ceil.copy_tbs \
    / (model.ch14_a_copy_loss_pct / 100) | %.0f
model.ch14_tf32_long_cublas := 100 * ch14.suite.tf32.2048x2048x32768.tflops \
    / ch14.suite.tf32.2048x2048x32768.pct | %.0f
model.ch14_tf32_sq_cublas := 100 * ch14.suite.tf32.4096x4096x4096.tflops \
    / ch14.suite.tf32.4096x4096x4096.pct | %.0f
model.ch14_cb_tiles_2000 := int((2000 + ch14.cublas-bf16.2000x3000x5000.ncu.tile_rows - 1) \
    / ch14.cublas-bf16.2000x3000x5000.ncu.tile_rows) \
    * int((3000 + ch14.cublas-bf16.2000x3000x5000.ncu.tile_cols - 1) \
    / ch14.cublas-bf16.2000x3000x5000.ncu.tile_cols) | %d
model.ch14_direct_mb := 4 * (14336 * 4096 + 128 * 14336 + 128 * 4096) / 1e6 | %.0f
model.ch14_direct_pred_ms := model.ch14_direct_mb / (ceil.copy_tbs * 1e3) | %.3f
model.ch14_passes_pred_ms := (model.ch14_direct_mb + 2 * 4 * 14336 * 4096 / 1e6) \
    / (ceil.copy_tbs * 1e3) | %.3f
verdict.ch14_direct := model.ch14_direct_ratio ; 0 ; 1.25 ; \
    model.ch14_direct_ratio * ch14.suite.tf32.128x4096x14336.spread_pct / 100
model.ch14_align_pred_pct := model.ch14_unaligned_loss_pct - 100 * 4 * ceil.ffma_tflops \
    / ceil.copy_tbs * (1 / 4099 + 1 / 4093) | %.0f
model.ch14_direct_ratio := ch14.suite.tf32.128x4096x14336.ms / model.ch14_direct_pred_ms | %.2f
model.ch14_split_x_256 := ch14.suite.bf16-tiles.256x256x65536.ms / ch14.suite.bf16.256x256x65536.ms | %.1f
model.ch14_split_mem_ms := (2 * 2 * 256 * 65536 + 4 * 256 * 256) / (ceil.copy_tbs * 1e9) | %.3f
model.ch14_split_pred_ms := max(ch14.suite.bf16-tiles.256x256x65536.ms / model.ch14_split_slices, \
    model.ch14_split_mem_ms) | %.3f
model.ch14_split_ratio := ch14.suite.bf16.256x256x65536.ms / model.ch14_split_pred_ms | %.2f
verdict.ch14_split := model.ch14_split_ratio ; 0 ; 1.25 ; \
    model.ch14_split_ratio * ch14.suite.bf16.256x256x65536.spread_pct / 100
compare.ch14_unseen_fp32 := ch14.validation.fp32.geomean_pct ; ch14.suite.fp32.geomean_pct ; \
    ch14.validation.fp32.geomean_spread_pct ; ch14.suite.fp32.geomean_spread_pct | above / below
compare.ch14_unseen_tf32 := ch14.validation.tf32.geomean_pct ; ch14.suite.tf32.geomean_pct ; \
    ch14.validation.tf32.geomean_spread_pct ; ch14.suite.tf32.geomean_spread_pct | above / below
compare.ch14_unseen_bf16 := ch14.validation.bf16.geomean_pct ; ch14.suite.bf16.geomean_pct ; \
    ch14.validation.bf16.geomean_spread_pct ; ch14.suite.bf16.geomean_spread_pct | above / below
compare.ch14_unseen_3xtf32 := ch14.validation.3xtf32.geomean_pct ; ch14.suite.3xtf32.geomean_pct ; \
    ch14.validation.3xtf32.geomean_spread_pct ; ch14.suite.3xtf32.geomean_spread_pct | above / below
compare.ch14_triton_tf32 := ch14.suite.triton.tf32.configs.best_tflops ; \
    ch10.mma.4096.tflops ; ch14.suite.triton.tf32.configs.best_spread_pct ; \
    ch10.mma.4096.spread_pct | above / below
compare.ch14_triton_3xtf32 := ch14.suite.triton.3xtf32.configs.best_tflops ; \
    ch11.3xtf32.4096.tflops ; ch14.suite.triton.3xtf32.configs.best_spread_pct ; \
    ch11.3xtf32.4096.spread_pct | above / below
compare.ch14_triton_fp32 := ch14.suite.triton.fp32.configs.best_tflops ; \
    ch9.tuned.4096.tflops ; ch14.suite.triton.fp32.configs.best_spread_pct ; \
    ch9.tuned.4096.spread_pct | above / below
compare.ch14_triton_bf16 := ch14.suite.triton.bf16.configs.best_tflops ; \
    ch10.bf16.4096.tflops ; ch14.suite.triton.bf16.configs.best_spread_pct ; \
    ch10.bf16.4096.spread_pct | above / below
verdict.ch14_fp32 := ch14.suite.fp32.geomean_pct ; 95 ; inf ; 1
verdict.ch14_tf32 := ch14.suite.tf32.geomean_pct ; 95 ; inf ; 1
verdict.ch14_bf16 := ch14.suite.bf16.geomean_pct ; 95 ; inf ; 1
verdict.ch14_3x_never := ch14.suite.3xtf32.below100 ; 0 ; 0 ; 0
verdict.ch14_3x_big := ch14.suite.3xtf32.big_min_x ; 2 ; inf ; \
    ch14.suite.3xtf32.big_min_spread
verdict.ch14_3x_err := ch14.suite.3xtf32.err_worse ; 0 ; 0 ; 0
model.ch14_cols_ffma_x := 32e9 * ch14.fp32.9897x1x940.ncu.ffma_ginst / (9897 * 940) | %.1f
model.ch14_cols_inst_x := ch14.fp32.9897x1x940.ncu.inst_ginst / ch14.cublas-fp32.9897x1x940.ncu.inst_ginst | %.1f
model.ch14_short_c_gb := 4 * 1197 * 19491 / 1e9 | %.3f
model.ch14_cols1_pct := 100 * 4 * (9897 * 940 + 940 + 9897) / (ch14.fp32.9897x1x940.ms * 1e9 * ceil.copy_tbs) | %.0f
model.ch14_cols1_cublas_pct := 100 * 4 * (9897 * 940 + 940 + 9897) / (ch14.fp32.9897x1x940.cublas_ms * 1e9 * ceil.copy_tbs) | %.0f
model.ch14_short_pct := 100 * 4 * (1197 * 8 + 8 * 19491 + 1197 * 19491) / (ch14.fp32.1197x19491x8.ms * 1e9 * ceil.copy_tbs) | %.0f
model.ch14_short_cublas_pct := 100 * 4 * (1197 * 8 + 8 * 19491 + 1197 * 19491) / (ch14.fp32.1197x19491x8.cublas_ms * 1e9 * ceil.copy_tbs) | %.0f
model.ch14_long4_pct := 100 * 4 * (4 * 22803 + 22803 * 708 + 4 * 708) / (ch14.fp32.4x708x22803.ms * 1e9 * ceil.copy_tbs) | %.0f
model.ch14_long4_cublas_pct := 100 * 4 * (4 * 22803 + 22803 * 708 + 4 * 708) / (ch14.fp32.4x708x22803.cublas_ms * 1e9 * ceil.copy_tbs) | %.0f
model.ch14_cols3_pct := 100 * 4 * (5000 * 4096 + 4096 * 3 + 5000 * 3) / (ch14.fp32.5000x3x4096.ms * 1e9 * ceil.copy_tbs) | %.0f
model.ch14_cols3_cublas_pct := 100 * 4 * (5000 * 4096 + 4096 * 3 + 5000 * 3) / (ch14.fp32.5000x3x4096.cublas_ms * 1e9 * ceil.copy_tbs) | %.0f
model.ch14_weak_ffma_x := 32e9 * ch14.cublas-fp32.5000x3x4096.ncu.ffma_ginst / (5000 * 3 * 4096) | %.0f
model.ch14_weak_tile_rows := 32e9 * ch14.cublas-fp32.5000x3x4096.ncu.ffma_ginst / (32 * 157 * 4096) | %.0f
verdict.ch14_bound := ch14.bound.fp32.met + ch14.bound.tf32.met \
    + ch14.bound.bf16.met + ch14.bound.3xtf32.met ; 4 * ch14.bound.shapes ; inf ; 0
verdict.ch14_bound_cublas := ch14.bound.fp32.cublas_met + ch14.bound.tf32.cublas_met \
    + ch14.bound.bf16.cublas_met + ch14.bound.3xtf32.cublas_met ; 4 * ch14.bound.shapes ; inf ; 0
verdict.ch14_thin_fp32 := ch14.suite.fp32.1x4096x14336.gbs ; 0.9 * 1000 * ceil.copy_tbs ; inf ; \
    ch14.suite.fp32.1x4096x14336.gbs * ch14.suite.fp32.1x4096x14336.spread_pct / 100
compare.ch14_lib_fp32 := ch14.micro.hopper_fp32_4096.ms ; ch14.fp32.4096.ms ; \
    ch14.micro.hopper_fp32_4096.spread_pct ; ch14.fp32.4096.spread_pct | slower than / faster than
compare.ch14_lib_tf32 := ch14.micro.hopper_tf32_4096.ms ; ch14.tf32.4096.ms ; \
    ch14.micro.hopper_tf32_4096.spread_pct ; ch14.tf32.4096.spread_pct | slower than / faster than
compare.ch14_lib_3xtf32 := ch14.micro.hopper_3xtf32_4096.ms ; ch14.3xtf32.4096.ms ; \
    ch14.micro.hopper_3xtf32_4096.spread_pct ; ch14.3xtf32.4096.spread_pct | slower than / faster than
compare.ch14_lib_bf16 := ch14.micro.hopper_bf16_4096.ms ; ch14.bf16.4096.ms ; \
    ch14.micro.hopper_bf16_4096.spread_pct ; ch14.bf16.4096.spread_pct | slower than / faster than
model.ch14_clock_slow_pct := 100 * (ch14.clock.default.ms / ch14.clock.reps17.ms - 1) | %.0f
model.ch14_clock_drop_pct := 100 * (1 - ch14.clock.default.clock_min_mhz / ch14.clock.default.top_mhz) | %.0f
