programs := ch10 ch10sweep
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
lab := The TF32 kernel
lab_kernel := tf32_mma
model.mma_pct_ceiling := 100 * ch10.mma.8192.tflops \
    / ch10.micro.mma_tf32.tflops | %.0f
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
