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
model.ch9_issue_bound_tflops := ceil.ffma_tflops / ch8.warptile.ncu.inst_per_ffma | %.1f
