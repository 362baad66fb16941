import { connect } from 'node:net';
import { encodeCommand, parseReply } from '@credit/test-world/redis-cleanup';

/** How many keys match `pattern` (one SCAN pass over a small test Redis), through plain RESP. */
export async function countRedisKeys(redisUrl: string, pattern: string): Promise<number> {
  const url = new URL(redisUrl);
  const socket = connect(Number(url.port || 6379), url.hostname);
  try {
    let cursor = '0';
    let count = 0;
    do {
      const reply = await new Promise<[string, string[]]>((resolve, reject) => {
        let buffer = '';
        socket.on('data', function onData(chunk: Buffer) {
          buffer += chunk.toString('utf8');
          const parsed = parseReply(buffer);
          if (parsed === undefined) return;
          socket.off('data', onData);
          resolve(parsed.value as [string, string[]]);
        });
        socket.once('error', reject);
        socket.write(encodeCommand(['SCAN', cursor, 'MATCH', pattern, 'COUNT', '1000']));
      });
      cursor = reply[0];
      count += reply[1].length;
    } while (cursor !== '0');
    return count;
  } finally {
    socket.destroy();
  }
}
