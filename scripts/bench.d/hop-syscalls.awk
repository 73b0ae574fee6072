# The hop's critical path inside a relay, from system-call tracepoints (relay.sh's hop_path, issue 31):
# reads `perf script -F tid,time,event,trace` of raw_syscalls:sys_enter/sys_exit and prints the median of three
# gaps per relayed message, in microseconds: epoll_wait returns -> read/recvfrom enters (the event loop reaching
# the socket), read returns -> sendto/write/writev enters (decode, relay, fan-out), sendto returns -> the next
# epoll_wait enters (the tail after the send, while the woken player may preempt the relay).
# x86-64 numbers: read 0, write 1, writev 20, sendto 44, recvfrom 45, sendmsg 46, epoll_wait 232, epoll_pwait 281.
# Output: "epoll_to_read read_to_send send_to_epoll messages"; "n/a n/a n/a 0" when nothing matched.
function median(list, n,    sorted, i, j, t) {
  if (n == 0) return "n/a"
  for (i = 1; i <= n; i++) sorted[i] = list[i]
  for (i = 2; i <= n; i++) { t = sorted[i]; for (j = i - 1; j >= 1 && sorted[j] > t; j--) sorted[j + 1] = sorted[j]; sorted[j + 1] = t }
  return sprintf("%.1f", sorted[int((n + 1) / 2)] * 1e6)
}
{
  if (!match($0, /raw_syscalls:sys_(enter|exit): +NR [0-9]+/)) next
  tid = $1; time = $2; sub(/:$/, "", time)
  kind = ($0 ~ /sys_enter/) ? "enter" : "exit"
  nr = $0; sub(/.*NR /, "", nr); sub(/ .*/, "", nr); nr += 0
  isEpoll = (nr == 232 || nr == 281); isRead = (nr == 0 || nr == 45); isSend = (nr == 1 || nr == 20 || nr == 44 || nr == 46)
  s = state[tid]
  if (kind == "exit" && isEpoll) { state[tid] = "epoll"; since[tid] = time }
  else if (kind == "enter" && isRead && s == "epoll") { a[++na] = time - since[tid]; state[tid] = "reading" }
  else if (kind == "exit" && isRead && s == "reading") { state[tid] = "read"; since[tid] = time }
  else if (kind == "enter" && isSend && s == "read") { b[++nb] = time - since[tid]; state[tid] = "sending" }
  else if (kind == "exit" && isSend && s == "sending") { state[tid] = "sent"; since[tid] = time }
  else if (kind == "enter" && isEpoll && s == "sent") { c[++nc] = time - since[tid]; state[tid] = "" }
}
END { printf "%s %s %s %d\n", median(a, na), median(b, nb), median(c, nc), nb }
