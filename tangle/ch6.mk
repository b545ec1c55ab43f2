programs := ch6
needs := sm_75
libs := -lcublas
headline := float4
sass := float4:LDS.128 float4:LDG.E.128 float4:STS.128 \
        float4:STG.E.128
lab := float4 kernel
model.pitched_copy_gb := 2 * 2 * 4097^2 * 4 / 1e9
model.pitched_copy_ms := model.pitched_copy_gb / ceil.copy_tbs
model.pitched_copy_pct := 100 * model.pitched_copy_ms \
                          / ch6.float4.4097.ms | %.1f
model.ch6_copy_ipf := ch5.remap2d.ncu.inst_per_ffma - 1 - 1 / 16 | %.3f
model.ch6_expect_ipf := 1 + 1 / 16 + model.ch6_copy_ipf * 14 / 32 | %.2f
model.ch6_expect_gain_pct := 100 * (ch5.remap2d.ncu.inst_per_ffma \
                             / model.ch6_expect_ipf - 1) | %.0f
model.ch6_gain_pct := 100 * (ch6.4096.speedup - 1) | %.0f
