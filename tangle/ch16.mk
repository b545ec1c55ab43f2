programs := ch16
roots := ch16.h
links := ch14 ch12 ch10 ch9 ch8 ch5
micro_links := ch16 ch14 ch12 ch10 ch9 ch8 ch5
micro := ch16nccl
events := ch16nccl --events
needs := sm_90a
libs := -lcublas -lnccl
headline := split-n
lab_none := chapter 16 writes no kernel: its cuts run chapter 14's dispatcher over NCCL, and its exercises are its lab
slide_figure := timeline-ch16
slide_chunk := Split $N$
slide_intro := One product on several GPUs: each holds a $p$th of $A$ and $B$ | Split $N$ all-gathers $A$; split $K$ reduce-scatters $C$; in pieces, the sending hides behind the arithmetic
slide_bound := A rank receives $(p-1)/p \cdot MKs$ bytes in split $N$, $(p-1)/p \cdot 4MN$ in split $K$: on two H200s, {{model.ch16_link_bf16_16384_p2}} ms for BF16 at $16384^3$
slide_question := The sending takes a few percent of the arithmetic. Will two GPUs be twice as fast as one?
slide_notes := The arithmetic per byte sent is $2N/(s(p-1))$ for split $N$; compare it with the GPU's rate over the link's. Then ask what else the overlap needs: the link's blocks need SMs, which the product holds.
slide_idea := One product on several GPUs, one process each, over NCCL \
    | Split $N$ gathers $A$ in pieces while the product runs; split $K$ reduces $C$ in pieces \
    | On one GPU the cut costs {{model.ch16_cost1_bf16_16384}} times the dispatcher in BF16 at $16384^3$; the model gives two GPUs {{model.ch16_s_bf16_16384_p2}} times one
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
model.ch16_link_fp32_16384_p4 := (4 - 1) / 4 * 16384^2 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_fp32_16384_p4 := ch16.micro.one_fp32_16384.ms / max(model.ch16_link_fp32_16384_p4 / 4 + ch16.micro.n1_fp32_16384.ms / 4, \
    model.ch16_link_fp32_16384_p4 + ch16.micro.n1_fp32_16384.ms / 16) | %.2f
model.ch16_link_fp32_16384_p8 := (8 - 1) / 8 * 16384^2 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_fp32_16384_p8 := ch16.micro.one_fp32_16384.ms / max(model.ch16_link_fp32_16384_p8 / 4 + ch16.micro.n1_fp32_16384.ms / 8, \
    model.ch16_link_fp32_16384_p8 + ch16.micro.n1_fp32_16384.ms / 32) | %.2f
model.ch16_cost1_fp32_16384 := ch16.micro.n1_fp32_16384.ms / ch16.micro.one_fp32_16384.ms | %.2f
model.ch16_link_fp32_32768_p2 := (2 - 1) / 2 * 32768^2 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_fp32_32768_p2 := ch16.micro.one_fp32_32768.ms / max(model.ch16_link_fp32_32768_p2 / 4 + ch16.micro.n1_fp32_32768.ms / 2, \
    model.ch16_link_fp32_32768_p2 + ch16.micro.n1_fp32_32768.ms / 8) | %.2f
model.ch16_link_fp32_32768_p4 := (4 - 1) / 4 * 32768^2 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_fp32_32768_p4 := ch16.micro.one_fp32_32768.ms / max(model.ch16_link_fp32_32768_p4 / 4 + ch16.micro.n1_fp32_32768.ms / 4, \
    model.ch16_link_fp32_32768_p4 + ch16.micro.n1_fp32_32768.ms / 16) | %.2f
model.ch16_link_fp32_32768_p8 := (8 - 1) / 8 * 32768^2 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_fp32_32768_p8 := ch16.micro.one_fp32_32768.ms / max(model.ch16_link_fp32_32768_p8 / 4 + ch16.micro.n1_fp32_32768.ms / 8, \
    model.ch16_link_fp32_32768_p8 + ch16.micro.n1_fp32_32768.ms / 32) | %.2f
model.ch16_cost1_fp32_32768 := ch16.micro.n1_fp32_32768.ms / ch16.micro.one_fp32_32768.ms | %.2f
model.ch16_link_bf16_16384_p2 := (2 - 1) / 2 * 16384^2 * 2 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_bf16_16384_p2 := ch16.micro.one_bf16_16384.ms / max(model.ch16_link_bf16_16384_p2 / 4 + ch16.micro.n1_bf16_16384.ms / 2, \
    model.ch16_link_bf16_16384_p2 + ch16.micro.n1_bf16_16384.ms / 8) | %.2f
model.ch16_link_bf16_16384_p4 := (4 - 1) / 4 * 16384^2 * 2 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_bf16_16384_p4 := ch16.micro.one_bf16_16384.ms / max(model.ch16_link_bf16_16384_p4 / 4 + ch16.micro.n1_bf16_16384.ms / 4, \
    model.ch16_link_bf16_16384_p4 + ch16.micro.n1_bf16_16384.ms / 16) | %.2f
model.ch16_link_bf16_16384_p8 := (8 - 1) / 8 * 16384^2 * 2 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_bf16_16384_p8 := ch16.micro.one_bf16_16384.ms / max(model.ch16_link_bf16_16384_p8 / 4 + ch16.micro.n1_bf16_16384.ms / 8, \
    model.ch16_link_bf16_16384_p8 + ch16.micro.n1_bf16_16384.ms / 32) | %.2f
model.ch16_cost1_bf16_16384 := ch16.micro.n1_bf16_16384.ms / ch16.micro.one_bf16_16384.ms | %.2f
model.ch16_link_bf16_32768_p2 := (2 - 1) / 2 * 32768^2 * 2 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_bf16_32768_p2 := ch16.micro.one_bf16_32768.ms / max(model.ch16_link_bf16_32768_p2 / 4 + ch16.micro.n1_bf16_32768.ms / 2, \
    model.ch16_link_bf16_32768_p2 + ch16.micro.n1_bf16_32768.ms / 8) | %.2f
model.ch16_link_bf16_32768_p4 := (4 - 1) / 4 * 32768^2 * 2 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_bf16_32768_p4 := ch16.micro.one_bf16_32768.ms / max(model.ch16_link_bf16_32768_p4 / 4 + ch16.micro.n1_bf16_32768.ms / 4, \
    model.ch16_link_bf16_32768_p4 + ch16.micro.n1_bf16_32768.ms / 16) | %.2f
model.ch16_link_bf16_32768_p8 := (8 - 1) / 8 * 32768^2 * 2 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_bf16_32768_p8 := ch16.micro.one_bf16_32768.ms / max(model.ch16_link_bf16_32768_p8 / 4 + ch16.micro.n1_bf16_32768.ms / 8, \
    model.ch16_link_bf16_32768_p8 + ch16.micro.n1_bf16_32768.ms / 32) | %.2f
model.ch16_cost1_bf16_32768 := ch16.micro.n1_bf16_32768.ms / ch16.micro.one_bf16_32768.ms | %.2f
model.ch16_link_n_bf16_long_p2 := (2 - 1) / 2 * 4096 * 65536 * 2 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_n_bf16_long_p2 := ch16.micro.one_bf16_long.ms / max(model.ch16_link_n_bf16_long_p2 / 4 + ch16.micro.n1_bf16_long.ms / 2, \
    model.ch16_link_n_bf16_long_p2 + ch16.micro.n1_bf16_long.ms / 8) | %.2f
model.ch16_link_n_bf16_long_p4 := (4 - 1) / 4 * 4096 * 65536 * 2 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_n_bf16_long_p4 := ch16.micro.one_bf16_long.ms / max(model.ch16_link_n_bf16_long_p4 / 4 + ch16.micro.n1_bf16_long.ms / 4, \
    model.ch16_link_n_bf16_long_p4 + ch16.micro.n1_bf16_long.ms / 16) | %.2f
model.ch16_link_n_bf16_long_p8 := (8 - 1) / 8 * 4096 * 65536 * 2 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_n_bf16_long_p8 := ch16.micro.one_bf16_long.ms / max(model.ch16_link_n_bf16_long_p8 / 4 + ch16.micro.n1_bf16_long.ms / 8, \
    model.ch16_link_n_bf16_long_p8 + ch16.micro.n1_bf16_long.ms / 32) | %.2f
model.ch16_cost1_n_bf16_long := ch16.micro.n1_bf16_long.ms / ch16.micro.one_bf16_long.ms | %.2f
model.ch16_link_k_bf16_long_p2 := (2 - 1) / 2 * 4096 * 1024 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_k_bf16_long_p2 := ch16.micro.one_bf16_long.ms / max(model.ch16_link_k_bf16_long_p2 / 4 + ch16.micro.k1_bf16_long.ms / 2, \
    model.ch16_link_k_bf16_long_p2 + ch16.micro.k1_bf16_long.ms / 8) | %.2f
model.ch16_link_k_bf16_long_p4 := (4 - 1) / 4 * 4096 * 1024 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_k_bf16_long_p4 := ch16.micro.one_bf16_long.ms / max(model.ch16_link_k_bf16_long_p4 / 4 + ch16.micro.k1_bf16_long.ms / 4, \
    model.ch16_link_k_bf16_long_p4 + ch16.micro.k1_bf16_long.ms / 16) | %.2f
model.ch16_link_k_bf16_long_p8 := (8 - 1) / 8 * 4096 * 1024 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_k_bf16_long_p8 := ch16.micro.one_bf16_long.ms / max(model.ch16_link_k_bf16_long_p8 / 4 + ch16.micro.k1_bf16_long.ms / 8, \
    model.ch16_link_k_bf16_long_p8 + ch16.micro.k1_bf16_long.ms / 32) | %.2f
model.ch16_cost1_k_bf16_long := ch16.micro.k1_bf16_long.ms / ch16.micro.one_bf16_long.ms | %.2f
model.ch16_link_n_fp32_long_p2 := (2 - 1) / 2 * 4096 * 65536 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_n_fp32_long_p2 := ch16.micro.one_fp32_long.ms / max(model.ch16_link_n_fp32_long_p2 / 4 + ch16.micro.n1_fp32_long.ms / 2, \
    model.ch16_link_n_fp32_long_p2 + ch16.micro.n1_fp32_long.ms / 8) | %.2f
model.ch16_link_n_fp32_long_p4 := (4 - 1) / 4 * 4096 * 65536 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_n_fp32_long_p4 := ch16.micro.one_fp32_long.ms / max(model.ch16_link_n_fp32_long_p4 / 4 + ch16.micro.n1_fp32_long.ms / 4, \
    model.ch16_link_n_fp32_long_p4 + ch16.micro.n1_fp32_long.ms / 16) | %.2f
model.ch16_link_n_fp32_long_p8 := (8 - 1) / 8 * 4096 * 65536 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_n_fp32_long_p8 := ch16.micro.one_fp32_long.ms / max(model.ch16_link_n_fp32_long_p8 / 4 + ch16.micro.n1_fp32_long.ms / 8, \
    model.ch16_link_n_fp32_long_p8 + ch16.micro.n1_fp32_long.ms / 32) | %.2f
model.ch16_cost1_n_fp32_long := ch16.micro.n1_fp32_long.ms / ch16.micro.one_fp32_long.ms | %.2f
model.ch16_link_k_fp32_long_p2 := (2 - 1) / 2 * 4096 * 1024 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_k_fp32_long_p2 := ch16.micro.one_fp32_long.ms / max(model.ch16_link_k_fp32_long_p2 / 4 + ch16.micro.k1_fp32_long.ms / 2, \
    model.ch16_link_k_fp32_long_p2 + ch16.micro.k1_fp32_long.ms / 8) | %.2f
model.ch16_link_k_fp32_long_p4 := (4 - 1) / 4 * 4096 * 1024 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_k_fp32_long_p4 := ch16.micro.one_fp32_long.ms / max(model.ch16_link_k_fp32_long_p4 / 4 + ch16.micro.k1_fp32_long.ms / 4, \
    model.ch16_link_k_fp32_long_p4 + ch16.micro.k1_fp32_long.ms / 16) | %.2f
model.ch16_link_k_fp32_long_p8 := (8 - 1) / 8 * 4096 * 1024 * 4 / (model.ch16_nvlink_gbs * 1e6) | %.3f
model.ch16_s_k_fp32_long_p8 := ch16.micro.one_fp32_long.ms / max(model.ch16_link_k_fp32_long_p8 / 4 + ch16.micro.k1_fp32_long.ms / 8, \
    model.ch16_link_k_fp32_long_p8 + ch16.micro.k1_fp32_long.ms / 32) | %.2f
model.ch16_cost1_k_fp32_long := ch16.micro.k1_fp32_long.ms / ch16.micro.one_fp32_long.ms | %.2f
