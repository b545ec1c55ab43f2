slide_figure := fig-float4-transpose
slide_intro := 128-bit accesses: four floats per load and store instruction | The tile of $A$ is stored transposed, so that a thread reads its column of $A$ as \texttt{float4}s
slide_bound := Loads become a quarter as many instructions | Instructions issued per FFMA: predicted {{model.ch6_expect_ipf}}, the copies {{model.ch6_copy_ipf}} of them | Predicted gain: {{model.ch6_expect_gain_pct}}\%
slide_question := Most issue slots already go to FFMAs. How much will 128-bit loads buy: 5\%, 25\%, or twice the speed?
slide_notes := Count instructions per FFMA before and after: the gain is bounded by the share of load instructions. The transposed store has a cost the next chapter finds: bank conflicts. Measured gain: {{model.ch6_gain_pct}}\%.
slide_idea := 128-bit accesses: four floats per load and store instruction \
    | The tile of $A$ is stored transposed, so that a thread reads its column as \texttt{float4}s \
    | {{ch6.4096.speedup}} times chapter 5's speed at $4096^3$; rows that are not 16-byte aligned run chapter 5's kernel
programs := ch6
roots := ch6.h
links := ch5
needs := sm_75
libs := -lcublas
headline := float4
sass := float4:LDS.128 float4:LDG.E.128 float4:STS.128 \
        float4:STG.E.128
lab := Outer product of step [[p]], read as float4s
lab_kernel := sgemm_float4
lab_hours := 0.75
lab_speed := 0.9
lab_needs := lab 5
lab_reach := aligned
model.pitched_copy_gb := 2 * 2 * 4097^2 * 4 / 1e9
model.pitched_copy_ms := model.pitched_copy_gb / ceil.copy_tbs
model.pitched_copy_pct := 100 * model.pitched_copy_ms \
                          / ch6.float4.4097.ms | %.1f
model.ch6_copy_ipf := ch5.remap2d.ncu.inst_per_ffma - 1 - 1 / 16 | %.3f
model.ch6_expect_ipf := 1 + 1 / 16 + model.ch6_copy_ipf * 14 / 32 | %.2f
model.ch6_expect_gain_pct := 100 * (ch5.remap2d.ncu.inst_per_ffma \
                             / model.ch6_expect_ipf - 1) | %.0f
model.ch6_gain_pct := 100 * (ch6.4096.speedup - 1) | %.0f
model.ch6_ans_pad3_tflops := ch6.float4.4096.tflops \
    * ch5.remap2d.4097.tflops / ch5.remap2d.4096.tflops
model.ch6_ans_pad3_gain_pct := 100 * (model.ch6_ans_pad3_tflops \
    / ch6.float4.4097.tflops - 1) | %.0f
model.ch6_ans_copy1111_us := 2 * 2 * 1111^2 * 4 \
    / (ceil.copy_tbs * 1e12) * 1e6 | %.1f
model.ch6_ans_copy1111_pct := 100 * model.ch6_ans_copy1111_us \
    / (ch6.float4.1111.ms * 1000) | %.1f
model.ch6_ans_padded_gain_pct := 100 * (ch6.float4.4096.ms \
    / ch7.padded.4096.ms - 1) | %.0f
