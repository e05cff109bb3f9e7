import { describe, expect, it } from 'vitest';
import { base32Encode, sha256, toHex, utf8Encode } from './sha256.ts';

describe('sha256', () => {
  it('matches the FIPS 180-4 / NIST test vectors', () => {
    expect(toHex(sha256(''))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(toHex(sha256('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(toHex(sha256('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(
      toHex(
        sha256(
          'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
        ),
      ),
    ).toBe('cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1');
    expect(toHex(sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });
  it('pads correctly around the 55/56/64-byte block boundaries', () => {
    // Lengths where the length field just fits, just does not, and fills a block exactly.
    expect(toHex(sha256('a'.repeat(55)))).toBe(
      '9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318',
    );
    expect(toHex(sha256('a'.repeat(56)))).toBe(
      'b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a',
    );
    expect(toHex(sha256('a'.repeat(64)))).toBe(
      'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb',
    );
  });
  it('hashes strings as UTF-8, as Go hashes []byte(s)', () => {
    expect(Array.from(utf8Encode('é€😀'))).toEqual([
      0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80,
    ]);
    expect(toHex(sha256('é'))).toBe(toHex(sha256(Uint8Array.from([0xc3, 0xa9]))));
  });
});

describe('base32Encode', () => {
  it('matches the RFC 4648 section 10 test vectors', () => {
    const enc = (s: string) => base32Encode(utf8Encode(s));
    expect(enc('')).toBe('');
    expect(enc('f')).toBe('MY======');
    expect(enc('fo')).toBe('MZXQ====');
    expect(enc('foo')).toBe('MZXW6===');
    expect(enc('foob')).toBe('MZXW6YQ=');
    expect(enc('fooba')).toBe('MZXW6YTB');
    expect(enc('foobar')).toBe('MZXW6YTBOI======');
  });
  it('encodes a 32-byte digest to 56 characters with 4 padding characters, as Go StdEncoding', () => {
    const s = base32Encode(sha256('abc'));
    expect(s).toHaveLength(56);
    expect(s.endsWith('====')).toBe(true);
    expect(s.slice(0, 52)).toMatch(/^[A-Z2-7]+$/);
  });
});
