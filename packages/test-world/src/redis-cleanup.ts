import { connect, type Socket } from 'node:net';

/** A RESP command as Redis expects it on the wire. */
export function encodeCommand(args: readonly string[]): string {
  return `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
}

type Reply = string | number | null | Reply[];

/** Parses one RESP reply at `offset`; undefined when the buffer does not hold all of it yet. */
export function parseReply(buffer: string, offset = 0): { value: Reply; next: number } | undefined {
  const end = buffer.indexOf('\r\n', offset);
  if (end === -1) return undefined;
  const type = buffer[offset];
  const line = buffer.slice(offset + 1, end);
  switch (type) {
    case '+':
      return { value: line, next: end + 2 };
    case '-':
      throw new Error(`redis: ${line}`);
    case ':':
      return { value: Number(line), next: end + 2 };
    case '$': {
      const length = Number(line);
      if (length === -1) return { value: null, next: end + 2 };
      const bytes = Buffer.from(buffer.slice(end + 2), 'utf8');
      if (bytes.length < length + 2) return undefined;
      const text = bytes.subarray(0, length).toString('utf8');
      return { value: text, next: end + 2 + text.length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count === -1) return { value: null, next: end + 2 };
      const items: Reply[] = [];
      let next = end + 2;
      for (let i = 0; i < count; i += 1) {
        const item = parseReply(buffer, next);
        if (item === undefined) return undefined;
        items.push(item.value);
        next = item.next;
      }
      return { value: items, next };
    }
    default:
      throw new Error(`redis: unexpected reply ${JSON.stringify(buffer.slice(offset, offset + 20))}`);
  }
}

function send(socket: Socket, args: readonly string[]): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      try {
        const reply = parseReply(buffer);
        if (reply === undefined) return;
        socket.off('data', onData);
        socket.off('error', reject);
        resolve(reply.value);
      } catch (error) {
        socket.off('data', onData);
        reject(error as Error);
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(encodeCommand(args));
  });
}

/**
 * Deletes every key starting with `prefix:` (the BullMQ queues a throwaway indexer left behind:
 * its job schedulers, metadata, events). A minimal RESP client over plain TCP (redis:// URLs,
 * optional password and db; no TLS), so this package needs no Redis client of its own.
 * Returns the number of keys deleted.
 */
export async function deleteKeysWithPrefix(redisUrl: string, prefix: string): Promise<number> {
  if (!/^[A-Za-z0-9_.:-]+$/.test(prefix)) throw new Error(`refusing to delete by prefix ${JSON.stringify(prefix)}`);
  const url = new URL(redisUrl);
  if (url.protocol !== 'redis:') throw new Error(`only redis:// URLs are supported here, got ${url.protocol}`);
  const socket = connect({ host: url.hostname, port: url.port ? Number(url.port) : 6379 });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  try {
    if (url.password) {
      const user = decodeURIComponent(url.username);
      await send(socket, user ? ['AUTH', user, decodeURIComponent(url.password)] : ['AUTH', decodeURIComponent(url.password)]);
    }
    const db = url.pathname.replace(/^\//, '');
    if (db) await send(socket, ['SELECT', db]);
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = (await send(socket, ['SCAN', cursor, 'MATCH', `${prefix}:*`, 'COUNT', '1000'])) as [string, string[]];
      cursor = next;
      if (keys.length > 0) deleted += (await send(socket, ['DEL', ...keys])) as number;
    } while (cursor !== '0');
    return deleted;
  } finally {
    socket.end();
    socket.destroy();
  }
}
