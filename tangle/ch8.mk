programs := ch8
roots := ch8.h
links := ch5
extra_runs := --size 8192
needs := sm_75
libs := -lcublas
headline := warptile
sass := warptile:LDS.128 warptile:STS.128 warptile:LDG.E.128 \
        warptile:STG.E.128
lab := Which rows and columns of the warp tile a lane computes
lab_kernel := sgemm_warptile
model.ch8_ffma_share := 100 / ch8.warptile.ncu.inst_per_ffma | %.0f
