programs := ch10 ch10sweep
micro := ch10peak
sweep := ch10sweep --size 1024,4096,8192
extra_runs := --size 8192
needs := sm_80
libs := -lcublas
headline := mma
sass := mma:HMMA.1688.F32.TF32 mma:LDSM.16.M88.4 bf16:HMMA.16816.F32.BF16 \
        bf16:LDSM.16.MT88.4 wmma:HMMA.1684.F32.TF32
lab := The TF32 kernel
model.mma_pct_ceiling := 100 * ch10.mma.8192.tflops \
    / ch10.micro.mma_tf32.tflops | %.0f
