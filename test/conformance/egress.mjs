// Reading `strace -e trace=connect` output: every connect() a host made to an address other than
// loopback. Unix sockets, netlink and loopback (127.0.0.0/8, ::1, ::ffff:127.x) are fine.

/** The lines of an strace connect trace that aim at a non-loopback address. */
export function outsideConnects(trace) {
  return trace.split('\n').filter((line) => {
    if (!line.includes('connect(')) return false;
    const v4 = /sin_addr=inet_addr\("([^"]+)"\)/.exec(line);
    if (v4) return !v4[1].startsWith('127.');
    const v6 = /inet_pton\(AF_INET6, "([^"]+)"/.exec(line);
    if (v6) return !(v6[1] === '::1' || v6[1].startsWith('::ffff:127.') || v6[1] === '::');
    return false;
  });
}
