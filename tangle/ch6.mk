programs := ch6
needs := sm_75
libs := -lcublas
headline := float4
sass := float4:LDS.128 float4:LDG.E.128 float4:STS.128 \
        float4:STG.E.128
lab := float4 kernel
model.pitched_copy_gb := 2 * 2 * 4097^2 * 4 / 1e9
model.pitched_copy_ms := model.pitched_copy_gb / ceil.copy_tbs
model.idle_sms_1111 := gpu.sms - 81 | %d
model.pitched_copy_pct := 100 * model.pitched_copy_ms \
                          / ch6.float4.4097.ms | %.1f
