slide_figure := fig-flat-index
slide_intro := How threads copy a tile is separated from how they compute on it: one flat thread index for the copies | The 1D kernel's copies of one operand were not coalesced
slide_bound := The 1D kernel, its copies coalesced: ceiling {{model.ch5_remap1d_ceiling_tflops}} TFLOP/s, expected {{model.ch5_remap1d_expect_tflops}} ({{model.ch5_remap1d_expect_x}} times) | The 2D kernel's copies were already coalesced: no change expected
slide_question := Remapping the copies changes no arithmetic. Which of the two kernels will speed up, and which will not?
slide_notes := A prediction that something does not change is a prediction too: the 2D kernel is the control. Check both against the sectors per request of the copies.
slide_idea := How threads copy is separated from how they compute: one flat index for the copies \
    | The 1D kernel is now {{compare.ch5_remap1d_smem}} chapter 3's{{compare.ch5_remap1d_smem.by}} \
    | The 2D kernel's speed unchanged, as predicted: {{verdict.ch5_remap2d}}
programs := ch5
roots := ch5.h
needs := sm_75
libs := -lcublas
headline := remap2d
lab := Load the tiles with a flat thread index
lab_kernel := sgemm_remap2d
lab_hours := 0.5
lab_speed := 0.9
lab_needs := lab 4
lab_entries := remap1d remap2d
model.ch5_remap1d_ceiling_tflops := model.ch4_tile1d_ceiling_tflops \
                                    / ch4.tile1d.ncu.lds_wavefronts
model.ch5_remap1d_expect_tflops := model.ch5_remap1d_ceiling_tflops \
                                   * model.ch3_pct_of_wavefront / 100
model.ch5_remap1d_expect_x := model.ch5_remap1d_expect_tflops \
                              / ch4.tile1d.4096.tflops | %.1f
model.ch5_remap1d_pct_of_expect := 100 * ch5.remap1d.4096.tflops \
                                   / model.ch5_remap1d_expect_tflops | %.0f
compare.ch5_remap1d_smem := ch5.remap1d.4096.tflops ; ch3.smem.4096.tflops ; \
    ch5.remap1d.4096.spread_pct ; ch3.smem.4096.spread_pct
verdict.ch5_remap2d := 100 * ch5.remap2d.4096.tflops / ch4.tile2d.4096.tflops ; \
    97 ; 103 ; 100 * ch5.remap2d.4096.tflops / ch4.tile2d.4096.tflops \
    * (ch5.remap2d.4096.spread_pct + ch4.tile2d.4096.spread_pct) / 100
