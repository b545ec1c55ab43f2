slide_figure := fig-smem-tiling
slide_intro := Tiles of $32\times32$ of $A$ and $B$ staged in shared memory | A value read from global memory then serves 32 threads | Load, synchronize, multiply, synchronize
slide_bound := Global loads fall 32 times; the FFMAs now read their operands from shared memory | Per FFMA of the loop: $A$'s value is one address for the warp (a broadcast) and $B$'s come 4 at a time (not 2 loads): $(32 + 8)/32 = 1.25$ shared loads | The shared loads' issue rate bounds the kernel at {{model.ch3_lsu_tflops}} TFLOP/s | Counting the wavefronts those loads take: {{model.ch3_wavefront_tflops}} TFLOP/s
slide_question := Global traffic fell 32 times. Will the kernel be 32 times faster than chapter 2's? If not, what runs out first?
slide_notes := The trap is to expect the global saving to carry through: the bound moves to shared memory, 1.25 load instructions per FFMA. Derive the shared-load ceiling from the load/store unit's rate. The kernel reaches {{model.ch3_pct_of_wavefront}}\% of the wavefront ceiling.
slide_idea := Tiles of $32\times32$ of $A$ and $B$ in shared memory: a value read from global memory serves 32 threads \
    | Shared loads become the limit: {{ch3.smem.ncu.lds_per_ffma}} per FFMA, {{ch3.smem.ncu.lds_wavefronts}} wavefronts each \
    | The wavefront ceiling is {{model.ch3_wavefront_tflops}} TFLOP/s; the kernel reaches {{model.ch3_pct_of_wavefront}}\% of it \
    | {{ch3.4096.speedup}} times chapter 2's speed at $4096^3$, not 32 times
programs := ch3
needs := sm_75
libs := -lcublas
headline := smem
sass := smem:LDS.128
lab := Shared-memory tiled kernel
lab_kernel := sgemm_smem
lab_hours := 1
lab_speed := 0.9
lab_needs := lab 2, [[__syncthreads]]
model.ch3_lsu_tflops := 32 / 1.25 * ceil.sms * 2 * ceil.clock_mhz / 1e6
model.ch3_pct_of_lsu := 100 * ch3.smem.4096.tflops \
                        / model.ch3_lsu_tflops | %.0f
model.ch3_wavefront_tflops := model.ch3_lsu_tflops \
                              / ch3.smem.ncu.lds_wavefronts
model.ch3_pct_of_wavefront := 100 * ch3.smem.4096.tflops \
                              / model.ch3_wavefront_tflops | %.0f
model.ch3_lds_wavefronts_counted := (ch3.smem.sass.lds \
    + 2 * ch3.smem.sass.lds128) / (ch3.smem.sass.lds \
    + ch3.smem.sass.lds128) | %.2f
model.ch3_ans_t16_inst := 2 * ch3.smem.ncu.inst_per_ffma - 72 / 32 | %.2f
model.ch3_ans_t16_tflops := ch3.smem.4096.tflops * ch3.smem.ncu.inst_per_ffma \
                            / model.ch3_ans_t16_inst | %.1f
model.ch3_ans_pad_tflops := ch3.smem.4096.tflops * 1.25 \
                            * ch3.smem.ncu.lds_wavefronts / 2 | %.1f
model.ch3_ans_dram_tbs := ch3.smem.ncu.dram_gb / ch3.smem.ncu.time_ms | %.2f
model.ch3_ans_group_ratio := ch3.smem.ncu.dram_gb * 1e9 \
                             / (640 * 1048576) | %.0f
