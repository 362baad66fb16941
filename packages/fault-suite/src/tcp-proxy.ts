import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './ports';

/**
 * A TCP proxy in front of a real service that can be "blackholed": while it is, new connections
 * are accepted but never reach the service, and bytes on open ones are held, not forwarded, as a
 * network that drops packets looks to both ends. `heal()` forwards what was held and connects the
 * waiting clients, as TCP retransmission would.
 */
export interface TcpProxy {
  readonly port: number;
  blackhole(): void;
  heal(): void;
  close(): Promise<void>;
}

interface Pipe {
  client: Socket;
  upstream?: Socket;
  held: { toUpstream: Buffer[]; toClient: Buffer[] };
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const port = await freePort();
  let blackholed = false;
  const pipes = new Set<Pipe>();

  const open = (pipe: Pipe) => {
    const upstream = connect(target.port, target.host);
    pipe.upstream = upstream;
    upstream.on('data', (chunk: Buffer) => (blackholed ? pipe.held.toClient.push(chunk) : pipe.client.write(chunk)));
    upstream.on('error', () => pipe.client.destroy());
    upstream.on('close', () => pipe.client.destroy());
    for (const chunk of pipe.held.toUpstream.splice(0)) upstream.write(chunk);
  };

  const server: Server = createServer((client) => {
    const pipe: Pipe = { client, held: { toUpstream: [], toClient: [] } };
    pipes.add(pipe);
    client.on('data', (chunk: Buffer) => (blackholed || !pipe.upstream ? pipe.held.toUpstream.push(chunk) : pipe.upstream.write(chunk)));
    client.on('error', () => undefined);
    client.on('close', () => {
      pipes.delete(pipe);
      pipe.upstream?.destroy();
    });
    if (!blackholed) open(pipe);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    port,
    blackhole: () => void (blackholed = true),
    heal() {
      blackholed = false;
      for (const pipe of pipes) {
        if (!pipe.upstream) open(pipe);
        else for (const chunk of pipe.held.toUpstream.splice(0)) pipe.upstream.write(chunk);
        for (const chunk of pipe.held.toClient.splice(0)) pipe.client.write(chunk);
      }
    },
    async close() {
      for (const pipe of pipes) {
        pipe.client.destroy();
        pipe.upstream?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
