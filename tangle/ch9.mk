programs := ch9 ch9sweep
extra_runs := --size 8192
sweep := ch9sweep --size 1024,4096,4097,8192,1111
spills := dbuf
needs := sm_80
libs := -lcublas
headline := tuned
sass := pipe:LDGSTS.E pipe:LDGSTS.E.BYPASS.128.ZFILL pipe:LDS.128 \
        dbuf:LDS.128 dbuf:LDG.E.128 tuned:LDS.128 tuned:LDG.E.128 \
        tuned:REDG.E.ADD.F32.FTZ.RN.STRONG.GPU
lab := Pipelined main loop
model.waves_4096 := 16 * 32 / gpu.sms | %.2f
model.waves_4097 := 17 * 33 / gpu.sms | %.2f
model.last_4097 := 17 * 33 - int(17 * 33 / gpu.sms) * gpu.sms | %d
model.split_4097 := int(gpu.sms / model.last_4097) | %d
model.idle_sms_1024 := gpu.sms - model.tiles128_1024 | %d
model.tiles128x64_1024 := (1024 / 128) * (1024 / 64) | %d
model.idle_sms_1024_small := gpu.sms - model.tiles128x64_1024 | %d
model.sk_steps_1111 := 81 * 70 / gpu.sms | %.1f
model.ch9_ffma_busy := ch9.tuned.ncu.issue_pct \
    / ch9.tuned.ncu.inst_per_ffma | %.0f
model.ch9_pct_ceiling := 100 * ch9.tuned.4096.tflops / ceil.ffma_tflops | %.0f
model.ch9_issue_bound_tflops := ceil.ffma_tflops \
    / ch8.warptile.ncu.inst_per_ffma | %.1f
