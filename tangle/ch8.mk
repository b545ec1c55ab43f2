slide_figure := fig-warp-tile
slide_intro := Threadblock tile $\to$ warp tile $\to$ thread tile | A warp computes a $32\times64$ tile of $C$ from the values of its own rows and columns
slide_bound := A warp's tile needs 96 values per step instead of 144: a third fewer shared loads | FFMAs are {{model.ch8_ffma_share}}\% of the issued instructions
slide_question := The warp tile cuts shared traffic by a third. Will the speed rise by a third?
slide_notes := If FFMAs already take most issue slots, a third fewer loads cannot buy a third more speed: compute the share of load instructions first.
slide_idea := Threadblock tile $\to$ warp tile $\to$ thread tile \
    | A warp's $32\times64$ tile needs 96 values per step instead of 144 \
    | Wavefronts: {{verdict.ch8_wavefronts}}; speed: {{verdict.ch8_speed}}
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
lab_hours := 0.5
lab_speed := 0.9
lab_needs := lab 7
lab_reach := aligned
model.ch8_ffma_share := 100 / ch8.warptile.ncu.inst_per_ffma | %.0f
model.ch8_wait_left_pct := 100 * ch7.swizzled.ncu.stall_short_scoreboard \
    / ch6.float4.ncu.stall_short_scoreboard | %.0f
verdict.ch8_wavefronts := ch8.warptile.ncu.lds_wavefronts ; 1.95 ; 2.05 ; 0
verdict.ch8_speed := ch8.warptile.4096.tflops / ch7.swizzled.4096.tflops ; \
    1.05 ; 1.10 ; ch8.warptile.4096.tflops / ch7.swizzled.4096.tflops \
    * (ch8.warptile.4096.spread_pct + ch7.swizzled.4096.spread_pct) / 100
