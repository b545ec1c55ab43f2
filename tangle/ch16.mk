programs := ch16
roots := ch16.h
links := ch14 ch12 ch11 ch10 ch9 ch8 ch5
micro_links := ch16 ch14 ch12 ch11 ch10 ch9 ch8 ch5
micro := ch16nccl
events := ch16nccl --events
needs := sm_90a
libs := -lcublas -lnccl
headline := split-n
lab_none := chapter 16 writes no kernel: its cuts run chapter 14's dispatcher over NCCL, and its exercises are its lab
slide_figure := timeline-ch16
slide_chunk := Split $N$
slide_intro := One product on several GPUs: each holds a $p$th of $A$ and $B$ | Split $N$ all-gathers $A$; split $K$ reduce-scatters $C$; in pieces, the sending hides behind the arithmetic
slide_bound := A rank receives $(p-1)/p \cdot MKs$ bytes in split $N$, $(p-1)/p \cdot 4MN$ in split $K$: for BF16 at $16384^3$ on two GPUs, {{model.ch16_link_bf16_16384_p2}} ms at NVLink's rate on paper, {{ch16.micro.n2_bf16_16384_link.ms}} ms measured
slide_question := The sending takes a few percent of the arithmetic. Will two GPUs be twice as fast as one?
slide_notes := The arithmetic per byte sent is $2N/(s(p-1))$ for split $N$; compare it with the GPU's rate over the link's. Then ask what else the overlap needs: the link's blocks need SMs, which the product holds.
slide_idea := One product on several GPUs, one process each, over NCCL \
    | Split $N$ gathers $A$ in pieces while the product runs; split $K$ reduces $C$ in pieces \
    | On one GPU the cut costs {{model.ch16_cost1_bf16_16384}} times the dispatcher in BF16 at $16384^3$; two GPUs measured {{model.ch16_x2_bf16_16384}} times one (the model on paper: {{model.ch16_s_bf16_16384_p2}})
model.ch16_nvlink_gbs := 450 | %d
model.ch16_piece_fp32_ms := 8.589934592 / ch16.micro.one_fp32_16384.tflops | %.2f
model.ch16_piece_bf16_ms := 8.589934592 / ch16.micro.one_bf16_16384.tflops | %.3f
model.ch16_big_gib := 3 * 4 * 2^34 / 2^30 | %.0f
model.ch16_big_min := 2^52 / (ch16.micro.one_fp32_32768.tflops * 1e12) / 60 | %.1f
model.ch16_fp32_16384_half_ms := ch16.micro.one_fp32_16384.ms / 2 | %.1f
model.ch16_gather_fp32_16384_ms := 0.5 * 16384^2 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.2f
model.ch16_bf16_over_fp32 := ch16.micro.one_bf16_16384.tflops / ch16.micro.one_fp32_16384.tflops | %.0f
model.ch16_flops_per_byte_bf16 := 2 * 16384 / 2 | %d
model.ch16_rate_over_link := 1000 * ch16.micro.one_bf16_16384.tflops / model.ch16_nvlink_gbs | %.0f
model.ch16_link_fp32_16384_p2 := (2 - 1) / 2 * 16384^2 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_fp32_16384_p2 := ch16.micro.one_fp32_16384.ms / max(model.ch16_link_fp32_16384_p2 / 4 + ch16.micro.n1_fp32_16384.ms / 2, \
    model.ch16_link_fp32_16384_p2 + ch16.micro.n1_fp32_16384.ms / 8) | %.2f
model.ch16_cost1_fp32_16384 := ch16.micro.n1_fp32_16384.ms / ch16.micro.one_fp32_16384.ms | %.2f
model.ch16_x2_fp32_16384 := ch16.micro.one_fp32_16384.ms / ch16.micro.n2_fp32_16384.ms | %.2f
model.ch16_xw_fp32_16384 := ch16.micro.one_fp32_16384.ms / ch16.micro.n2_fp32_16384_whole.ms | %.2f
model.ch16_hid_fp32_16384 := 100 * (ch16.micro.n2_fp32_16384_link.ms + ch16.micro.n2_fp32_16384_math.ms - ch16.micro.n2_fp32_16384.ms) / ch16.micro.n2_fp32_16384_link.ms | %.0f
model.ch16_t2_fp32_16384 := max(ch16.micro.n2_fp32_16384_link.ms / 4 + ch16.micro.n2_fp32_16384_math.ms, ch16.micro.n2_fp32_16384_link.ms + ch16.micro.n2_fp32_16384_math.ms / 4)
model.ch16_m2_fp32_16384 := ch16.micro.one_fp32_16384.ms / model.ch16_t2_fp32_16384 | %.2f
model.ch16_int_fp32_16384 := 100 * (ch16.micro.n2_fp32_16384.ms / model.ch16_t2_fp32_16384 - 1) | %.0f
model.ch16_m4_fp32_16384 := ch16.micro.one_fp32_16384.ms / max(ch16.micro.n2_fp32_16384_link.ms * 2 * (4 - 1) / 4 / 4 + ch16.micro.n2_fp32_16384_math.ms * 2 / 4, \
    ch16.micro.n2_fp32_16384_link.ms * 2 * (4 - 1) / 4 + ch16.micro.n2_fp32_16384_math.ms * 2 / 4 / 4) | %.2f
model.ch16_m8_fp32_16384 := ch16.micro.one_fp32_16384.ms / max(ch16.micro.n2_fp32_16384_link.ms * 2 * (8 - 1) / 8 / 4 + ch16.micro.n2_fp32_16384_math.ms * 2 / 8, \
    ch16.micro.n2_fp32_16384_link.ms * 2 * (8 - 1) / 8 + ch16.micro.n2_fp32_16384_math.ms * 2 / 8 / 4) | %.2f
verdict.ch16_fp32_16384 := ch16.micro.one_fp32_16384.ms / ch16.micro.n2_fp32_16384.ms ; 1.9 ; inf ; \
    ch16.micro.one_fp32_16384.ms / ch16.micro.n2_fp32_16384.ms * (ch16.micro.one_fp32_16384.spread_pct + ch16.micro.n2_fp32_16384.spread_pct) / 100
model.ch16_link_fp32_32768_p2 := (2 - 1) / 2 * 32768^2 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_fp32_32768_p2 := ch16.micro.one_fp32_32768.ms / max(model.ch16_link_fp32_32768_p2 / 4 + ch16.micro.n1_fp32_32768.ms / 2, \
    model.ch16_link_fp32_32768_p2 + ch16.micro.n1_fp32_32768.ms / 8) | %.2f
model.ch16_cost1_fp32_32768 := ch16.micro.n1_fp32_32768.ms / ch16.micro.one_fp32_32768.ms | %.2f
model.ch16_x2_fp32_32768 := ch16.micro.one_fp32_32768.ms / ch16.micro.n2_fp32_32768.ms | %.2f
model.ch16_xw_fp32_32768 := ch16.micro.one_fp32_32768.ms / ch16.micro.n2_fp32_32768_whole.ms | %.2f
model.ch16_hid_fp32_32768 := 100 * (ch16.micro.n2_fp32_32768_link.ms + ch16.micro.n2_fp32_32768_math.ms - ch16.micro.n2_fp32_32768.ms) / ch16.micro.n2_fp32_32768_link.ms | %.0f
model.ch16_t2_fp32_32768 := max(ch16.micro.n2_fp32_32768_link.ms / 4 + ch16.micro.n2_fp32_32768_math.ms, ch16.micro.n2_fp32_32768_link.ms + ch16.micro.n2_fp32_32768_math.ms / 4)
model.ch16_m2_fp32_32768 := ch16.micro.one_fp32_32768.ms / model.ch16_t2_fp32_32768 | %.2f
model.ch16_int_fp32_32768 := 100 * (ch16.micro.n2_fp32_32768.ms / model.ch16_t2_fp32_32768 - 1) | %.0f
model.ch16_m4_fp32_32768 := ch16.micro.one_fp32_32768.ms / max(ch16.micro.n2_fp32_32768_link.ms * 2 * (4 - 1) / 4 / 4 + ch16.micro.n2_fp32_32768_math.ms * 2 / 4, \
    ch16.micro.n2_fp32_32768_link.ms * 2 * (4 - 1) / 4 + ch16.micro.n2_fp32_32768_math.ms * 2 / 4 / 4) | %.2f
model.ch16_m8_fp32_32768 := ch16.micro.one_fp32_32768.ms / max(ch16.micro.n2_fp32_32768_link.ms * 2 * (8 - 1) / 8 / 4 + ch16.micro.n2_fp32_32768_math.ms * 2 / 8, \
    ch16.micro.n2_fp32_32768_link.ms * 2 * (8 - 1) / 8 + ch16.micro.n2_fp32_32768_math.ms * 2 / 8 / 4) | %.2f
verdict.ch16_fp32_32768 := ch16.micro.one_fp32_32768.ms / ch16.micro.n2_fp32_32768.ms ; 1.9 ; inf ; \
    ch16.micro.one_fp32_32768.ms / ch16.micro.n2_fp32_32768.ms * (ch16.micro.one_fp32_32768.spread_pct + ch16.micro.n2_fp32_32768.spread_pct) / 100
model.ch16_link_bf16_16384_p2 := (2 - 1) / 2 * 16384^2 * 2 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_bf16_16384_p2 := ch16.micro.one_bf16_16384.ms / max(model.ch16_link_bf16_16384_p2 / 4 + ch16.micro.n1_bf16_16384.ms / 2, \
    model.ch16_link_bf16_16384_p2 + ch16.micro.n1_bf16_16384.ms / 8) | %.2f
model.ch16_cost1_bf16_16384 := ch16.micro.n1_bf16_16384.ms / ch16.micro.one_bf16_16384.ms | %.2f
model.ch16_x2_bf16_16384 := ch16.micro.one_bf16_16384.ms / ch16.micro.n2_bf16_16384.ms | %.2f
model.ch16_xw_bf16_16384 := ch16.micro.one_bf16_16384.ms / ch16.micro.n2_bf16_16384_whole.ms | %.2f
model.ch16_hid_bf16_16384 := 100 * (ch16.micro.n2_bf16_16384_link.ms + ch16.micro.n2_bf16_16384_math.ms - ch16.micro.n2_bf16_16384.ms) / ch16.micro.n2_bf16_16384_link.ms | %.0f
model.ch16_t2_bf16_16384 := max(ch16.micro.n2_bf16_16384_link.ms / 4 + ch16.micro.n2_bf16_16384_math.ms, ch16.micro.n2_bf16_16384_link.ms + ch16.micro.n2_bf16_16384_math.ms / 4)
model.ch16_m2_bf16_16384 := ch16.micro.one_bf16_16384.ms / model.ch16_t2_bf16_16384 | %.2f
model.ch16_int_bf16_16384 := 100 * (ch16.micro.n2_bf16_16384.ms / model.ch16_t2_bf16_16384 - 1) | %.0f
model.ch16_m4_bf16_16384 := ch16.micro.one_bf16_16384.ms / max(ch16.micro.n2_bf16_16384_link.ms * 2 * (4 - 1) / 4 / 4 + ch16.micro.n2_bf16_16384_math.ms * 2 / 4, \
    ch16.micro.n2_bf16_16384_link.ms * 2 * (4 - 1) / 4 + ch16.micro.n2_bf16_16384_math.ms * 2 / 4 / 4) | %.2f
model.ch16_m8_bf16_16384 := ch16.micro.one_bf16_16384.ms / max(ch16.micro.n2_bf16_16384_link.ms * 2 * (8 - 1) / 8 / 4 + ch16.micro.n2_bf16_16384_math.ms * 2 / 8, \
    ch16.micro.n2_bf16_16384_link.ms * 2 * (8 - 1) / 8 + ch16.micro.n2_bf16_16384_math.ms * 2 / 8 / 4) | %.2f
verdict.ch16_bf16_16384 := ch16.micro.one_bf16_16384.ms / ch16.micro.n2_bf16_16384.ms ; 1.9 ; inf ; \
    ch16.micro.one_bf16_16384.ms / ch16.micro.n2_bf16_16384.ms * (ch16.micro.one_bf16_16384.spread_pct + ch16.micro.n2_bf16_16384.spread_pct) / 100
model.ch16_link_bf16_32768_p2 := (2 - 1) / 2 * 32768^2 * 2 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_bf16_32768_p2 := ch16.micro.one_bf16_32768.ms / max(model.ch16_link_bf16_32768_p2 / 4 + ch16.micro.n1_bf16_32768.ms / 2, \
    model.ch16_link_bf16_32768_p2 + ch16.micro.n1_bf16_32768.ms / 8) | %.2f
model.ch16_cost1_bf16_32768 := ch16.micro.n1_bf16_32768.ms / ch16.micro.one_bf16_32768.ms | %.2f
model.ch16_x2_bf16_32768 := ch16.micro.one_bf16_32768.ms / ch16.micro.n2_bf16_32768.ms | %.2f
model.ch16_xw_bf16_32768 := ch16.micro.one_bf16_32768.ms / ch16.micro.n2_bf16_32768_whole.ms | %.2f
model.ch16_hid_bf16_32768 := 100 * (ch16.micro.n2_bf16_32768_link.ms + ch16.micro.n2_bf16_32768_math.ms - ch16.micro.n2_bf16_32768.ms) / ch16.micro.n2_bf16_32768_link.ms | %.0f
model.ch16_t2_bf16_32768 := max(ch16.micro.n2_bf16_32768_link.ms / 4 + ch16.micro.n2_bf16_32768_math.ms, ch16.micro.n2_bf16_32768_link.ms + ch16.micro.n2_bf16_32768_math.ms / 4)
model.ch16_m2_bf16_32768 := ch16.micro.one_bf16_32768.ms / model.ch16_t2_bf16_32768 | %.2f
model.ch16_int_bf16_32768 := 100 * (ch16.micro.n2_bf16_32768.ms / model.ch16_t2_bf16_32768 - 1) | %.0f
model.ch16_m4_bf16_32768 := ch16.micro.one_bf16_32768.ms / max(ch16.micro.n2_bf16_32768_link.ms * 2 * (4 - 1) / 4 / 4 + ch16.micro.n2_bf16_32768_math.ms * 2 / 4, \
    ch16.micro.n2_bf16_32768_link.ms * 2 * (4 - 1) / 4 + ch16.micro.n2_bf16_32768_math.ms * 2 / 4 / 4) | %.2f
model.ch16_m8_bf16_32768 := ch16.micro.one_bf16_32768.ms / max(ch16.micro.n2_bf16_32768_link.ms * 2 * (8 - 1) / 8 / 4 + ch16.micro.n2_bf16_32768_math.ms * 2 / 8, \
    ch16.micro.n2_bf16_32768_link.ms * 2 * (8 - 1) / 8 + ch16.micro.n2_bf16_32768_math.ms * 2 / 8 / 4) | %.2f
verdict.ch16_bf16_32768 := ch16.micro.one_bf16_32768.ms / ch16.micro.n2_bf16_32768.ms ; 1.9 ; inf ; \
    ch16.micro.one_bf16_32768.ms / ch16.micro.n2_bf16_32768.ms * (ch16.micro.one_bf16_32768.spread_pct + ch16.micro.n2_bf16_32768.spread_pct) / 100
model.ch16_link_n_bf16_long_p2 := (2 - 1) / 2 * 4096 * 65536 * 2 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_n_bf16_long_p2 := ch16.micro.one_bf16_long.ms / max(model.ch16_link_n_bf16_long_p2 / 4 + ch16.micro.n1_bf16_long.ms / 2, \
    model.ch16_link_n_bf16_long_p2 + ch16.micro.n1_bf16_long.ms / 8) | %.2f
model.ch16_cost1_n_bf16_long := ch16.micro.n1_bf16_long.ms / ch16.micro.one_bf16_long.ms | %.2f
model.ch16_x2_n_bf16_long := ch16.micro.one_bf16_long.ms / ch16.micro.n2_bf16_long.ms | %.2f
model.ch16_xw_n_bf16_long := ch16.micro.one_bf16_long.ms / ch16.micro.n2_bf16_long_whole.ms | %.2f
model.ch16_hid_n_bf16_long := 100 * (ch16.micro.n2_bf16_long_link.ms + ch16.micro.n2_bf16_long_math.ms - ch16.micro.n2_bf16_long.ms) / ch16.micro.n2_bf16_long_link.ms | %.0f
model.ch16_t2_n_bf16_long := max(ch16.micro.n2_bf16_long_link.ms / 4 + ch16.micro.n2_bf16_long_math.ms, ch16.micro.n2_bf16_long_link.ms + ch16.micro.n2_bf16_long_math.ms / 4)
model.ch16_m2_n_bf16_long := ch16.micro.one_bf16_long.ms / model.ch16_t2_n_bf16_long | %.2f
model.ch16_int_n_bf16_long := 100 * (ch16.micro.n2_bf16_long.ms / model.ch16_t2_n_bf16_long - 1) | %.0f
model.ch16_m4_n_bf16_long := ch16.micro.one_bf16_long.ms / max(ch16.micro.n2_bf16_long_link.ms * 2 * (4 - 1) / 4 / 4 + ch16.micro.n2_bf16_long_math.ms * 2 / 4, \
    ch16.micro.n2_bf16_long_link.ms * 2 * (4 - 1) / 4 + ch16.micro.n2_bf16_long_math.ms * 2 / 4 / 4) | %.2f
model.ch16_m8_n_bf16_long := ch16.micro.one_bf16_long.ms / max(ch16.micro.n2_bf16_long_link.ms * 2 * (8 - 1) / 8 / 4 + ch16.micro.n2_bf16_long_math.ms * 2 / 8, \
    ch16.micro.n2_bf16_long_link.ms * 2 * (8 - 1) / 8 + ch16.micro.n2_bf16_long_math.ms * 2 / 8 / 4) | %.2f
model.ch16_link_k_bf16_long_p2 := (2 - 1) / 2 * 4096 * 1024 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_k_bf16_long_p2 := ch16.micro.one_bf16_long.ms / max(model.ch16_link_k_bf16_long_p2 / 4 + ch16.micro.k1_bf16_long.ms / 2, \
    model.ch16_link_k_bf16_long_p2 + ch16.micro.k1_bf16_long.ms / 8) | %.2f
model.ch16_cost1_k_bf16_long := ch16.micro.k1_bf16_long.ms / ch16.micro.one_bf16_long.ms | %.2f
model.ch16_x2_k_bf16_long := ch16.micro.one_bf16_long.ms / ch16.micro.k2_bf16_long.ms | %.2f
model.ch16_xw_k_bf16_long := ch16.micro.one_bf16_long.ms / ch16.micro.k2_bf16_long_whole.ms | %.2f
model.ch16_hid_k_bf16_long := 100 * (ch16.micro.k2_bf16_long_link.ms + ch16.micro.k2_bf16_long_math.ms - ch16.micro.k2_bf16_long.ms) / ch16.micro.k2_bf16_long_link.ms | %.0f
model.ch16_t2_k_bf16_long := max(ch16.micro.k2_bf16_long_link.ms / 4 + ch16.micro.k2_bf16_long_math.ms, ch16.micro.k2_bf16_long_link.ms + ch16.micro.k2_bf16_long_math.ms / 4)
model.ch16_m2_k_bf16_long := ch16.micro.one_bf16_long.ms / model.ch16_t2_k_bf16_long | %.2f
model.ch16_int_k_bf16_long := 100 * (ch16.micro.k2_bf16_long.ms / model.ch16_t2_k_bf16_long - 1) | %.0f
model.ch16_m4_k_bf16_long := ch16.micro.one_bf16_long.ms / max(ch16.micro.k2_bf16_long_link.ms * 2 * (4 - 1) / 4 / 4 + ch16.micro.k2_bf16_long_math.ms * 2 / 4, \
    ch16.micro.k2_bf16_long_link.ms * 2 * (4 - 1) / 4 + ch16.micro.k2_bf16_long_math.ms * 2 / 4 / 4) | %.2f
model.ch16_m8_k_bf16_long := ch16.micro.one_bf16_long.ms / max(ch16.micro.k2_bf16_long_link.ms * 2 * (8 - 1) / 8 / 4 + ch16.micro.k2_bf16_long_math.ms * 2 / 8, \
    ch16.micro.k2_bf16_long_link.ms * 2 * (8 - 1) / 8 + ch16.micro.k2_bf16_long_math.ms * 2 / 8 / 4) | %.2f
model.ch16_link_n_fp32_long_p2 := (2 - 1) / 2 * 4096 * 65536 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_n_fp32_long_p2 := ch16.micro.one_fp32_long.ms / max(model.ch16_link_n_fp32_long_p2 / 4 + ch16.micro.n1_fp32_long.ms / 2, \
    model.ch16_link_n_fp32_long_p2 + ch16.micro.n1_fp32_long.ms / 8) | %.2f
model.ch16_cost1_n_fp32_long := ch16.micro.n1_fp32_long.ms / ch16.micro.one_fp32_long.ms | %.2f
model.ch16_x2_n_fp32_long := ch16.micro.one_fp32_long.ms / ch16.micro.n2_fp32_long.ms | %.2f
model.ch16_xw_n_fp32_long := ch16.micro.one_fp32_long.ms / ch16.micro.n2_fp32_long_whole.ms | %.2f
model.ch16_hid_n_fp32_long := 100 * (ch16.micro.n2_fp32_long_link.ms + ch16.micro.n2_fp32_long_math.ms - ch16.micro.n2_fp32_long.ms) / ch16.micro.n2_fp32_long_link.ms | %.0f
model.ch16_t2_n_fp32_long := max(ch16.micro.n2_fp32_long_link.ms / 4 + ch16.micro.n2_fp32_long_math.ms, ch16.micro.n2_fp32_long_link.ms + ch16.micro.n2_fp32_long_math.ms / 4)
model.ch16_m2_n_fp32_long := ch16.micro.one_fp32_long.ms / model.ch16_t2_n_fp32_long | %.2f
model.ch16_int_n_fp32_long := 100 * (ch16.micro.n2_fp32_long.ms / model.ch16_t2_n_fp32_long - 1) | %.0f
model.ch16_m4_n_fp32_long := ch16.micro.one_fp32_long.ms / max(ch16.micro.n2_fp32_long_link.ms * 2 * (4 - 1) / 4 / 4 + ch16.micro.n2_fp32_long_math.ms * 2 / 4, \
    ch16.micro.n2_fp32_long_link.ms * 2 * (4 - 1) / 4 + ch16.micro.n2_fp32_long_math.ms * 2 / 4 / 4) | %.2f
model.ch16_m8_n_fp32_long := ch16.micro.one_fp32_long.ms / max(ch16.micro.n2_fp32_long_link.ms * 2 * (8 - 1) / 8 / 4 + ch16.micro.n2_fp32_long_math.ms * 2 / 8, \
    ch16.micro.n2_fp32_long_link.ms * 2 * (8 - 1) / 8 + ch16.micro.n2_fp32_long_math.ms * 2 / 8 / 4) | %.2f
model.ch16_link_k_fp32_long_p2 := (2 - 1) / 2 * 4096 * 1024 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_k_fp32_long_p2 := ch16.micro.one_fp32_long.ms / max(model.ch16_link_k_fp32_long_p2 / 4 + ch16.micro.k1_fp32_long.ms / 2, \
    model.ch16_link_k_fp32_long_p2 + ch16.micro.k1_fp32_long.ms / 8) | %.2f
model.ch16_cost1_k_fp32_long := ch16.micro.k1_fp32_long.ms / ch16.micro.one_fp32_long.ms | %.2f
model.ch16_x2_k_fp32_long := ch16.micro.one_fp32_long.ms / ch16.micro.k2_fp32_long.ms | %.2f
model.ch16_xw_k_fp32_long := ch16.micro.one_fp32_long.ms / ch16.micro.k2_fp32_long_whole.ms | %.2f
model.ch16_hid_k_fp32_long := 100 * (ch16.micro.k2_fp32_long_link.ms + ch16.micro.k2_fp32_long_math.ms - ch16.micro.k2_fp32_long.ms) / ch16.micro.k2_fp32_long_link.ms | %.0f
model.ch16_t2_k_fp32_long := max(ch16.micro.k2_fp32_long_link.ms / 4 + ch16.micro.k2_fp32_long_math.ms, ch16.micro.k2_fp32_long_link.ms + ch16.micro.k2_fp32_long_math.ms / 4)
model.ch16_m2_k_fp32_long := ch16.micro.one_fp32_long.ms / model.ch16_t2_k_fp32_long | %.2f
model.ch16_int_k_fp32_long := 100 * (ch16.micro.k2_fp32_long.ms / model.ch16_t2_k_fp32_long - 1) | %.0f
model.ch16_m4_k_fp32_long := ch16.micro.one_fp32_long.ms / max(ch16.micro.k2_fp32_long_link.ms * 2 * (4 - 1) / 4 / 4 + ch16.micro.k2_fp32_long_math.ms * 2 / 4, \
    ch16.micro.k2_fp32_long_link.ms * 2 * (4 - 1) / 4 + ch16.micro.k2_fp32_long_math.ms * 2 / 4 / 4) | %.2f
model.ch16_m8_k_fp32_long := ch16.micro.one_fp32_long.ms / max(ch16.micro.k2_fp32_long_link.ms * 2 * (8 - 1) / 8 / 4 + ch16.micro.k2_fp32_long_math.ms * 2 / 8, \
    ch16.micro.k2_fp32_long_link.ms * 2 * (8 - 1) / 8 + ch16.micro.k2_fp32_long_math.ms * 2 / 8 / 4) | %.2f
model.ch16_mathx_fp32_16384 := ch16.micro.one_fp32_16384.ms / ch16.micro.n2_fp32_16384_math.ms | %.2f
compare.ch16_pc_fp32_16384 := ch16.micro.n2_fp32_16384.ms ; ch16.micro.n2_fp32_16384_whole.ms ; ch16.micro.n2_fp32_16384.spread_pct ; \
    ch16.micro.n2_fp32_16384_whole.spread_pct | slower than / faster than
compare.ch16_pc_fp32_32768 := ch16.micro.n2_fp32_32768.ms ; ch16.micro.n2_fp32_32768_whole.ms ; ch16.micro.n2_fp32_32768.spread_pct ; \
    ch16.micro.n2_fp32_32768_whole.spread_pct | slower than / faster than
compare.ch16_pc_bf16_16384 := ch16.micro.n2_bf16_16384.ms ; ch16.micro.n2_bf16_16384_whole.ms ; ch16.micro.n2_bf16_16384.spread_pct ; \
    ch16.micro.n2_bf16_16384_whole.spread_pct | slower than / faster than
compare.ch16_pc_bf16_32768 := ch16.micro.n2_bf16_32768.ms ; ch16.micro.n2_bf16_32768_whole.ms ; ch16.micro.n2_bf16_32768.spread_pct ; \
    ch16.micro.n2_bf16_32768_whole.spread_pct | slower than / faster than
model.ch16_w_lo := min(min(ch16.micro.n2_fp32_16384_link.gbs, ch16.micro.n2_fp32_32768_link.gbs), min(ch16.micro.n2_bf16_16384_link.gbs, ch16.micro.n2_bf16_32768_link.gbs)) | %.0f
model.ch16_w_hi := max(max(ch16.micro.n2_fp32_16384_link.gbs, ch16.micro.n2_fp32_32768_link.gbs), max(ch16.micro.n2_bf16_16384_link.gbs, ch16.micro.n2_bf16_32768_link.gbs)) | %.0f
model.ch16_w_pct_lo := 100 * model.ch16_w_lo / model.ch16_nvlink_gbs | %.0f
model.ch16_w_pct_hi := 100 * model.ch16_w_hi / model.ch16_nvlink_gbs | %.0f
