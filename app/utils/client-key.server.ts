import net from "node:net";

/**
 * The key a client is counted under: its IPv4 address (also when written IPv4-mapped, `::ffff:1.2.3.4`,
 * as a dual-stack socket reports it), or the /56 network of an IPv6 address (one subscriber's usual
 * allocation: a client cannot escape the limit by moving through its own addresses).
 */
export function clientKey(ip: string | undefined) {
  if (!ip) return "";
  if (net.isIPv4(ip)) return ip;
  if (!net.isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  const groups = expandIPv6(ip);
  // 56 bits: three groups and the high byte of the fourth.
  const fourth = (parseInt(groups[3], 16) & 0xff00).toString(16);
  return `${groups
    .slice(0, 3)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}:${fourth}::/56`;
}

/** The eight 16-bit groups of an IPv6 address (without a zone), in hexadecimal. */
function expandIPv6(ip: string) {
  let address = ip.split("%")[0];
  // A trailing dotted quad (e.g. ::1.2.3.4) is two groups.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    address = `${address.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  return [...left, ...Array.from({ length: tail === undefined ? 0 : missing }, () => "0"), ...right];
}
