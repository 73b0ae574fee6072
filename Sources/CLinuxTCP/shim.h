// Linux's TCP_INFO for OnAirNet (the only Swift target that imports it).
//
// glibc's <netinet/tcp.h> stops `struct tcp_info` at tcpi_total_retrans (the 2.6 layout); the counters ABR
// reads — bytes acknowledged, bytes not yet sent, the minimum RTT, time limited by the receiver's window —
// are only in the kernel's UAPI <linux/tcp.h>. That header cannot be included here: it redefines glibc's
// `struct tcp_info`, `tcphdr` … and Clang refuses the two modules side by side in one Swift target. So the
// struct is mirrored, as far as the fields read, with each offset asserted against the kernel's ABI (it only
// ever appends fields; getsockopt copies min(len, sizeof), so an older kernel leaves newer fields zero).
#ifndef ONAIR_CLINUXTCP_SHIM_H
#define ONAIR_CLINUXTCP_SHIM_H

#include <stddef.h>
#include <stdint.h>

/// `struct tcp_info` of linux/tcp.h up to tcpi_sndbuf_limited (Linux 4.10+); the option is TCP_INFO (11).
typedef struct onair_tcp_info {
    uint8_t tcpi_state, tcpi_ca_state, tcpi_retransmits, tcpi_probes, tcpi_backoff, tcpi_options;
    uint8_t tcpi_wscale;                 /* snd_wscale : 4, rcv_wscale : 4 */
    uint8_t tcpi_flags;                  /* delivery_rate_app_limited : 1, fastopen_client_fail : 2 */
    uint32_t tcpi_rto, tcpi_ato, tcpi_snd_mss, tcpi_rcv_mss;
    uint32_t tcpi_unacked, tcpi_sacked, tcpi_lost, tcpi_retrans, tcpi_fackets;
    uint32_t tcpi_last_data_sent, tcpi_last_ack_sent, tcpi_last_data_recv, tcpi_last_ack_recv;
    uint32_t tcpi_pmtu, tcpi_rcv_ssthresh, tcpi_rtt, tcpi_rttvar, tcpi_snd_ssthresh, tcpi_snd_cwnd, tcpi_advmss,
        tcpi_reordering;
    uint32_t tcpi_rcv_rtt, tcpi_rcv_space;
    uint32_t tcpi_total_retrans;
    uint64_t tcpi_pacing_rate, tcpi_max_pacing_rate;
    uint64_t tcpi_bytes_acked, tcpi_bytes_received;
    uint32_t tcpi_segs_out, tcpi_segs_in;
    uint32_t tcpi_notsent_bytes, tcpi_min_rtt;
    uint32_t tcpi_data_segs_in, tcpi_data_segs_out;
    uint64_t tcpi_delivery_rate;
    uint64_t tcpi_busy_time, tcpi_rwnd_limited, tcpi_sndbuf_limited;
} onair_tcp_info;

static inline int onair_TCP_INFO(void) { return 11; }

_Static_assert(offsetof(onair_tcp_info, tcpi_rto) == 8, "tcp_info ABI: tcpi_rto");
_Static_assert(offsetof(onair_tcp_info, tcpi_snd_mss) == 16, "tcp_info ABI: tcpi_snd_mss");
_Static_assert(offsetof(onair_tcp_info, tcpi_unacked) == 24, "tcp_info ABI: tcpi_unacked");
_Static_assert(offsetof(onair_tcp_info, tcpi_rtt) == 68, "tcp_info ABI: tcpi_rtt");
_Static_assert(offsetof(onair_tcp_info, tcpi_pacing_rate) == 104, "tcp_info ABI: tcpi_pacing_rate");
_Static_assert(offsetof(onair_tcp_info, tcpi_bytes_acked) == 120, "tcp_info ABI: tcpi_bytes_acked");
_Static_assert(offsetof(onair_tcp_info, tcpi_notsent_bytes) == 144, "tcp_info ABI: tcpi_notsent_bytes");
_Static_assert(offsetof(onair_tcp_info, tcpi_min_rtt) == 148, "tcp_info ABI: tcpi_min_rtt");
_Static_assert(offsetof(onair_tcp_info, tcpi_delivery_rate) == 160, "tcp_info ABI: tcpi_delivery_rate");
_Static_assert(offsetof(onair_tcp_info, tcpi_rwnd_limited) == 176, "tcp_info ABI: tcpi_rwnd_limited");
_Static_assert(sizeof(onair_tcp_info) == 192, "tcp_info ABI: size up to tcpi_sndbuf_limited");

#endif
