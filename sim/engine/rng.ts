// The only source of chance in sim/. A small, fast, seedable generator (sfc32 seeded through
// splitmix32) whose whole state is four 32-bit integers, so a snapshot can carry it as JSON.
// Every safe integer is a seed of its own stream: the low 32 bits seed splitmix32, and the high
// bits, when there are any, are mixed into the second word and passed on to forks (so seeds in
// [0, 2^32) give the streams they always gave).

function splitmix32(a: number): () => number {
  return () => {
    a |= 0;
    a = (a + 0x9e3779b9) | 0;
    let t = a ^ (a >>> 16);
    t = Math.imul(t, 0x21f0aaad);
    t ^= t >>> 15;
    t = Math.imul(t, 0x735a2d97);
    return (t ^ (t >>> 15)) >>> 0;
  };
}

// fmix32 is MurmurHash3's finalizer: a bijection on 32-bit integers that maps 0 to 0.
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Rng is a seeded pseudo-random generator; equal seeds give equal sequences. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  /** high is floor(seed / 2^32): 0 for seeds in [0, 2^32); forks inherit it. */
  private readonly high: number;

  constructor(seed: number) {
    const sm = splitmix32(seed >>> 0);
    this.a = sm();
    this.b = sm();
    this.c = sm();
    this.d = sm();
    // The first word is a bijection of the low 32 bits, so the second word tells seeds with the
    // same low bits apart: fmix32 is a bijection that is 0 only for 0, and the high part of a
    // safe integer, floor(seed / 2^32), lies in [-2^21, 2^21), where >>> 0 loses nothing.
    const hi = Math.floor(seed / 4294967296);
    this.high = Number.isFinite(hi) && hi !== 0 ? hi : 0;
    if (hi !== 0) this.b = (this.b ^ fmix32(hi >>> 0)) >>> 0;
  }

  /** next returns a uint32 (sfc32). */
  next(): number {
    const { a, b, c, d } = this;
    const t = (((a + b) | 0) + d) | 0;
    this.d = (d + 1) | 0;
    this.a = b ^ (b >>> 9);
    this.b = (c + (c << 3)) | 0;
    this.c = (((c << 21) | (c >>> 11)) + t) | 0;
    return t >>> 0;
  }

  /** float returns a number in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** intn returns an integer in [0, n), as Go's rand.Intn. */
  intn(n: number): number {
    if (n <= 0) throw new Error(`intn: invalid argument ${n}`);
    return Math.floor(this.float() * n);
  }

  /** jitter returns base scaled by a factor in [1 - f, 1 + f], rounded to whole ms. */
  jitter(base: number, f: number): number {
    return Math.max(0, Math.round(base * (1 - f + 2 * f * this.float())));
  }

  /**
   * fork derives an independent generator, so one component's draws don't shift another's. The
   * label is hashed with the first word (a bijection of the seed's low 32 bits), and the seed's
   * high bits carry over, so forks with one label of two distinct seeds are distinct too.
   */
  fork(label: string): Rng {
    let h = this.a ^ 0x811c9dc5;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
    return new Rng((h >>> 0) + this.high * 4294967296);
  }

  /** state returns the generator state for snapshots. */
  state(): [number, number, number, number] {
    return [this.a, this.b, this.c, this.d];
  }
}

/** alphanums is apimachinery's util/rand alphabet: no vowels, no 0, 1 or 3. */
export const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** randString returns n characters from alphanums, as utilrand.String(n). */
export function randString(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphanums[rng.intn(alphanums.length)];
  return s;
}
