programs := ch9 ch9sweep
extra_runs := --size 8192
sweep := ch9sweep --size 1024,4096,4097,8192,1111
spills := dbuf
needs := sm_80
libs := -lcublas
headline := tuned
sass := pipe:LDGSTS.E pipe:LDGSTS.E.BYPASS.128.ZFILL pipe:LDS.128 \
        dbuf:LDS.128 dbuf:LDG.E.128
lab := Pipelined main loop
model.waves2_4097 := 33 * 33 / (2 * gpu.sms) | %.1f
model.nwaves2_4097 := int(33 * 33 / (2 * gpu.sms)) + 1 | %d
model.waves1_4097 := 33 * 33 / gpu.sms | %.2f
model.blocks128x64_1111 := int((1111 + 127) / 128) * int((1111 + 63) / 64) | %d
model.sms_two_1111 := model.blocks128x64_1111 - gpu.sms | %d
model.ch9_issue_bound_tflops := ceil.ffma_tflops / ch8.warptile.ncu.inst_per_ffma | %.1f
