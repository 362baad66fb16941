import { encodeCommand, parseReply } from '@credit/test-world/redis-cleanup';

describe('RESP encoding and parsing', () => {
  it('encodes a command as an array of bulk strings', () => {
    expect(encodeCommand(['DEL', 'a:b', 'é'])).toBe('*3\r\n$3\r\nDEL\r\n$3\r\na:b\r\n$2\r\né\r\n');
  });

  it('parses a SCAN reply and waits for a complete one', () => {
    const full = '*2\r\n$1\r\n0\r\n*2\r\n$5\r\np:one\r\n$5\r\np:two\r\n';
    expect(parseReply(full)).toEqual({ value: ['0', ['p:one', 'p:two']], next: full.length });
    expect(parseReply(full.slice(0, full.length - 4))).toBeUndefined();
    expect(parseReply(':7\r\n')).toEqual({ value: 7, next: 4 });
    expect(parseReply('$-1\r\n')).toEqual({ value: null, next: 5 });
  });

  it('throws on an error reply', () => {
    expect(() => parseReply('-ERR wrong\r\n')).toThrow(/ERR wrong/);
  });
});
