// MD5 (RFC 1321) of bytes, as lowercase hex. WebCrypto has none, and the legacy notification signature is MD5: this
// keeps the client free of dependencies and of Node-only modules. Not for anything new: MD5 is broken for signing;
// prefer the X-Payrail-Signature header (HMAC-SHA256).

// The per-step shift amounts, and K[i] = floor(|sin(i + 1)| · 2^32) written out: an engine's Math.sin may differ in
// its last bit, the table may not.
const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const SINES = [
  0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122,
  0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6,
  0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60,
  0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
  0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

function padded(message: Uint8Array): DataView {
  const length = Math.ceil((message.length + 9) / 64) * 64;
  const bytes = new Uint8Array(length);
  bytes.set(message);
  bytes[message.length] = 0x80;
  const view = new DataView(bytes.buffer);
  const bits = message.length * 8;
  view.setUint32(length - 8, bits >>> 0, true); // the message length in bits, little-endian, 64 bits
  view.setUint32(length - 4, Math.floor(bits / 2 ** 32), true);
  return view;
}

function roundOf(step: number, b: number, c: number, d: number): { mixed: number; word: number } {
  if (step < 16) return { mixed: (b & c) | (~b & d), word: step };
  if (step < 32) return { mixed: (d & b) | (~d & c), word: (5 * step + 1) % 16 };
  if (step < 48) return { mixed: b ^ c ^ d, word: (3 * step + 5) % 16 };
  return { mixed: c ^ (b | ~d), word: (7 * step) % 16 };
}

export function md5Hex(message: Uint8Array): string {
  const view = padded(message);
  const state = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
  for (let offset = 0; offset < view.byteLength; offset += 64) {
    let [a, b, c, d] = state as [number, number, number, number];
    for (let step = 0; step < 64; step += 1) {
      const { mixed, word } = roundOf(step, b, c, d);
      const sum = (a + mixed + SINES[step]! + view.getUint32(offset + word * 4, true)) >>> 0;
      const shift = SHIFTS[(step >> 4) * 4 + (step % 4)]!;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << shift) | (sum >>> (32 - shift)))) >>> 0;
    }
    state[0] = (state[0]! + a) >>> 0;
    state[1] = (state[1]! + b) >>> 0;
    state[2] = (state[2]! + c) >>> 0;
    state[3] = (state[3]! + d) >>> 0;
  }
  const digest = new DataView(new ArrayBuffer(16));
  for (const [index, word] of state.entries()) digest.setUint32(index * 4, word, true);
  return Array.from(new Uint8Array(digest.buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
