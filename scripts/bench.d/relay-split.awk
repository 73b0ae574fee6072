# Splits a relay server's perf samples (`perf script -F comm,ip,sym,dso` of `perf record -g`) by what the
# kernel or the process was doing, for the relay bench (issue 31): prints
#   "total send peers_rx acks user other"  (sample counts)
#  - peers_rx: loopback delivery into the peers' sockets, run in the sender's process by the softirq that its own
#    transmit raised (process_backlog / net_rx_action under the send): the receivers' TCP work, which a real
#    network does on the receiving machine;
#  - acks: acknowledgements the peers sent while the server held the socket, processed when it lets go
#    (__release_sock);
#  - send: the rest of the transmit path (sendto, tcp_sendmsg, the device queue);
#  - user: samples whose leaf is in user space (the relay's own code, libc, the Swift runtime);
#  - other: the rest of the kernel (epoll, read, timers, the scheduler).
function finish() {
  if (!inside) return
  total++
  if (leafuser) user++
  else if (stack ~ / (process_backlog|__netif_receive_skb[a-z_]*|net_rx_action) /) peers++
  else if (stack ~ / __release_sock /) acks++
  else if (stack ~ / (tcp_sendmsg|tcp_sendmsg_locked|__sys_sendto|__sys_sendmsg|sock_sendmsg|__x64_sys_sendto|__x64_sys_writev|do_writev) /) send++
  else other++
  inside = 0
}
/^[^ \t]/ { finish(); inside = 1; stack = " "; leafuser = -1; next }
/^[ \t]*$/ { finish(); next }
{
  line = $0; sub(/^[ \t]*[0-9a-f]+ /, "", line)
  sym = line; sub(/ \([^()]*\)$/, "", sym); sub(/\+0x[0-9a-f]+$/, "", sym)
  if (leafuser == -1) leafuser = (line !~ /\[kernel\.kallsyms\]/)
  stack = stack sym " "
}
END { finish(); printf "%d %d %d %d %d %d\n", total, send, peers, acks, user, other }
