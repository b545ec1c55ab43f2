slide_figure := fig-bank-conflicts
slide_intro := Shared memory has 32 banks of 4 bytes: different words of one bank in one access take a wavefront each | Chapter 6's transposed store puts a column into one bank
slide_bound := Chapter 6's shared loads took {{ch6.float4.ncu.lds_wavefronts}} wavefronts each | An XOR swizzle spreads a column over all the banks: as few wavefronts as the bytes need
slide_question := The conflicts go away and the wavefronts fall. Will the kernel's speed follow them?
slide_notes := Draw the 32 banks and a column of the transposed tile; then the swizzle $r \oplus f(p)$. Whether speed follows depends on whether shared memory was the bound: ask the class what else could be. Wavefronts after the swizzle: {{ch7.swizzled.ncu.lds_wavefronts}}.
slide_idea := 32 banks of 4 bytes: different words of one bank in one access take a wavefront each \
    | Padding or an XOR swizzle: shared loads from {{ch6.float4.ncu.lds_wavefronts}} to {{ch7.swizzled.ncu.lds_wavefronts}} wavefronts \
    | The speed prediction: {{verdict.ch7_speed}}
programs := ch7
roots := ch7.h
links := ch6 ch5
extra_runs := --size 8192
needs := sm_75
libs := -lcublas
headline := swizzled
sass := swizzled:LDS.128 swizzled:STS.128 swizzled:LDG.E.128 \
        padded:LDS.128
lab := Where the swizzled kernel keeps a tile's elements
lab_kernel := sgemm_swizzled
lab_hours := 1
lab_speed := 0.9
lab_needs := lab 6
lab_reach := aligned
model.ch6_ld_conflicts_per_lds := ch6.float4.ncu.bank_conflicts \
    / (ch6.float4.ncu.lds_ginst * 1e9) | %.1f
model.ch6_lds_wavefronts_per_cycle := ch6.float4.ncu.lds_wavefronts \
    * ch6.float4.ncu.lds_ginst * 1e9 \
    / (ch6.float4.ncu.time_ms * 1e-3 * gpu.clock_mhz * 1e6 * gpu.sms) | %.2f
model.ch7_lds_wavefronts_per_cycle := model.ch6_lds_wavefronts_per_cycle \
    * 3 / ch6.float4.ncu.lds_wavefronts | %.2f
model.ch7_ans_ldconf_pct := 100 * (1 - ch7.swizzled.4096.ms \
    / ch7.padded.4096.ms) | %.0f
verdict.ch7_speed := 100 * (ch7.swizzled.4096.tflops / ch6.float4.4096.tflops - 1) ; \
    0 ; 10 ; 100 * ch7.swizzled.4096.tflops / ch6.float4.4096.tflops \
    * (ch7.swizzled.4096.spread_pct + ch6.float4.4096.spread_pct) / 100
