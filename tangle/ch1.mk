slide_figure := fig-warp-mapping
slide_intro := One thread per element of $C$: the dot product of a row of $A$ and a column of $B$ | Consecutive threads of a warp have consecutive x; here x picks the row
slide_bound := Each FFMA needs two loads: 8 bytes for 2 flops, 0.25 flops per byte if the caches reuse nothing | With x as the row, a warp's 32 loads of $A$ lie $K$ floats apart: 32 sectors of 32 bytes for one request | The L1's bandwidth then bounds the kernel at {{model.ch1_l1_tflops}} TFLOP/s
slide_question := The naive kernel does the same $2N^3$ flops as cuBLAS. At $4096^3$ will it run at a tenth of cuBLAS's speed, a hundredth, or a thousandth?
slide_notes := Draw a warp on a column of $C$: its 32 threads read 32 rows of $A$, each in another cache line, and all read the same element of $B$. Count the sectors: 32 per request where 4 would do. The measured answer is {{ch1.naive.4096.pct_cublas}}\% of cuBLAS: about a hundredth.
slide_idea := One thread per element of $C$: a dot product of a row of $A$ and a column of $B$ \
    | x picks the row, so a warp's loads of $A$ are $K$ floats apart: {{ch1.naive.ncu.sectors_per_req}} sectors per request \
    | Prediction, the L1's bandwidth is the limit: {{verdict.ch1_l1}}
programs := ch1
needs := sm_75
libs := -lcublas
headline := naive
lab := Naive kernel
lab_kernel := sgemm_naive
lab_hours := 0.5
lab_needs := C
model.ch1_l1_tflops := ceil.sms * 2 * ceil.clock_mhz / 1e6
verdict.ch1_l1 := ch1.naive.4096.tflops / model.ch1_l1_tflops ; 0.75 ; \
    1.25 ; ch1.naive.4096.tflops / model.ch1_l1_tflops \
    * ch1.naive.4096.spread_pct / 100
model.t_ffma_4096_ms := 2 * 4096^3 / ceil.ffma_tflops / 1e9
model.naive_dram_s := 8 * 4096^3 / ceil.copy_tbs / 1e12
model.naive_dram_tflops := ceil.copy_tbs / 4
model.ch1_ans_b16_tflops := ch1.naive.4096.tflops * 33 / 17
model.ch1_ans_skinny_tflops := ch1.naive.4096.tflops * 4 / ceil.sms
model.ch1_ans_skinny_s := 2 * 64 * 64 * 1048576 \
                          / (model.ch1_ans_skinny_tflops * 1e12) | %.2f
