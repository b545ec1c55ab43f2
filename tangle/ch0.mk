slide_figure := roofline
slide_chunk := The serial CPU version
slide_intro := $C = \alpha AB + \beta C$ in FP32, row-major, any $M$, $N$, $K$ and leading dimensions | Every kernel is checked against a float64 product and timed beside cuBLAS in the same run | Each chapter asks one question first: which resource runs out?
slide_bound := Work: $2MNK$ flops. Data, at the least: $4(MK + KN + 2MN)$ bytes | At $N^3$: $2N^3$ flops over $16N^2$ bytes, an intensity of $N/8$ flops per byte: 512 at $4096^3$ | Our GPU's ridge: {{ceil.peak_fp32_tflops}} TFLOP/s over {{ceil.copy_tbs}} TB/s, {{ceil.ridge}} flops per byte | Far above the ridge the product is bound by arithmetic: the target is the FP32 peak
slide_question := cuBLAS multiplies two $4096\times4096$ FP32 matrices. What share of the {{ceil.peak_fp32_tflops}} TFLOP/s peak will it reach, and what keeps it from all of it?
slide_notes := Derive $N/8$ on the board: $2N^3$ flops, $A$ and $B$ read once, $C$ read and written. Then the ridge, peak over bandwidth: the product sits thirty times above it, so memory is not the bound if every value is reused; the rest of the book is how to reuse it. The answer to the question: {{ch0.cublas.4096.pct_peak}}\% of the peak, because not every issued instruction is an FFMA and the clock under load is lower than the peak assumes.
slide_idea := $C = \alpha AB + \beta C$, row-major FP32: $2MNK$ flops for $4(MK + KN + 2MN)$ bytes \
    | Our GPU: {{gpu.sms}} SMs; FP32 peak {{ceil.peak_fp32_tflops}} TFLOP/s, FFMA measured {{ceil.ffma_tflops}}, copy {{ceil.copy_tbs}} TB/s \
    | cuBLAS FP32 at $4096^3$: {{ch0.cublas.4096.tflops}} TFLOP/s, {{ch0.cublas.4096.pct_peak}}\% of the peak: the target \
    | Every kernel is checked against a float64 product and timed with CUDA events, inputs rotated past the L2
model.day1_lab_hours := ch1.lab_hours + ch2.lab_hours + ch3.lab_hours \
    + ch4.lab_hours | %g
model.day1_hours := model.day1_lab_hours + 3 | %g
model.day3a_lab_hours := ch1.lab_hours + ch2.lab_hours + ch3.lab_hours | %g
model.day3a_hours := model.day3a_lab_hours + 4 | %g
model.day3b_lab_hours := ch4.lab_hours + ch5.lab_hours + ch6.lab_hours \
    + ch7.lab_hours + ch8.lab_hours | %g
model.day3b_hours := model.day3b_lab_hours + 3 | %g
model.day3c_lab_hours := ch9.lab_hours + ch10.lab_hours + ch11.lab_hours | %g
model.day3c_hours := model.day3c_lab_hours + 3 | %g
model.days3_hours := model.day3a_hours + model.day3b_hours \
    + model.day3c_hours | %g
lab_none := chapter 0 has no kernel of its own: it measures cuBLAS, the harness and the GPU
programs := ch0
budget := 1515
roots := harness.h harness.c main.c
common := harness
needs := sm_75
libs := -lcublas
headline := cublas
extra_runs := --cpu --size 256,512
ceilings := --ceilings
model.t_flops_4096_ms := 2 * 4096^3 / ceil.peak_fp32_tflops / 1e9
model.t_bytes_4096_ms := 12 * 4096^2 / ceil.copy_tbs / 1e9
model.ridge_multiple_4096 := 4096 / 6 / (ceil.peak_fp32_tflops / ceil.copy_tbs)
model.t_peak_256_us := 2 * 256^3 / ceil.peak_fp32_tflops / 1e6
