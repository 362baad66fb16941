import { connect } from 'node:net';
import { ERROR_CODES, ERROR_TABLE } from '@credit/contracts/errors';
import { HTTP_OPERATIONS, OPERATION_IDS, operationPath } from '@credit/contracts/http-operations';
import { http, startTestStack, type TestStack } from '@credit/test-stack/test-stack';

const VITALIK = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

let stack: TestStack;
let key: string;

beforeAll(async () => {
  stack = await startTestStack();
  key = (await stack.createKey()).key;
});
afterAll(() => stack.close());

describe('OpenAPI and the reference', () => {
  it('serves an OpenAPI 3.1 document with every operation, without a key', async () => {
    const res = await http(stack.url, '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    for (const id of OPERATION_IDS) {
      const method = HTTP_OPERATIONS[id].method.toLowerCase();
      for (const variant of ['production', 'sandbox'] as const) {
        const op = res.body.paths[operationPath(id, variant)]?.[method];
        expect(op).toBeDefined();
        expect(op.responses['200'].content['application/json'].schema).toHaveProperty('type', 'object');
      }
    }
    expect(res.body.paths['/users/me'].get).toBeDefined();
    expect(res.body.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ scheme: 'bearer' }));
  });

  it('documents every error status of the error table, with its body shape, on every operation', async () => {
    const doc = (await http(stack.url, '/openapi.json')).body;
    const statuses = [...new Set(ERROR_CODES.map((code) => String(ERROR_TABLE[code].status)))].sort();
    for (const id of OPERATION_IDS) {
      const op = doc.paths[operationPath(id, 'production')][HTTP_OPERATIONS[id].method.toLowerCase()];
      expect(
        Object.keys(op.responses)
          .filter((s) => s !== '200')
          .sort(),
      ).toEqual(statuses);
      for (const code of ERROR_CODES) expect(op.responses[String(ERROR_TABLE[code].status)].description).toContain(`\`${code}\``);
    }
    expect(doc.paths['/api/v2/score/address/{address}'].get.responses['400'].content['application/json'].schema.oneOf).toHaveLength(3);
    expect(doc.paths['/api/v2/score/address/{address}'].get.responses['415'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorDetail',
    });
  });

  it('serves the browsable reference and its assets locally', async () => {
    const page = await fetch(`${stack.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('/openapi.json');
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js']) {
      const res = await fetch(`${stack.url}/docs/assets/${asset}`);
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    expect((await http(stack.url, '/docs/assets/secret.txt')).status).toBe(404);
  });

  it('asset names that are properties of every object are unknown assets (404), and the gateway stays up', async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
      const res = await http(stack.url, `/docs/assets/${name}`);
      expect([name, res.status, res.body]).toEqual([name, 404, { detail: `Not found: /docs/assets/${name}` }]);
    }
    expect((await http(stack.url, '/health')).status).toBe(200);
  });

  it('health is public and says nothing but its status', async () => {
    const res = await http(stack.url, '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('errors keep the error envelope of docs/API.md §7', () => {
  it('unknown route → 404 detail', async () => {
    const res = await http(stack.url, '/api/v2/nothing-here', { key });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });

  it('oversized body → 413 detail', async () => {
    const res = await http(stack.url, `/api/v2/sandbox/report/address/${VITALIK}`, {
      key,
      method: 'POST',
      body: { name: 'x'.repeat(100_000) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });

  it('a body that is not JSON → 415 detail', async () => {
    const res = await http(stack.url, `/api/v2/sandbox/report/address/${VITALIK}`, {
      key,
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      rawBody: 'name=x',
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });

  it('a form-encoded body → 415 detail', async () => {
    const res = await http(stack.url, `/api/v2/sandbox/report/address/${VITALIK}`, {
      key,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'name=x',
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });

  it('a malformed %-escape in the path → 400 detail', async () => {
    const res = await http(stack.url, '/api/v2/sandbox/score/address/%E0%A4%A', { key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Malformed URL' });
  });

  it('an overlong path parameter → 414 detail', async () => {
    const res = await http(stack.url, `/api/v2/sandbox/score/address/${'a'.repeat(400)}.eth`, { key });
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });

  it('an oversized query string → 431 detail', async () => {
    const res = await http(stack.url, `/api/v2/sandbox/score/batch/?address=${'a'.repeat(20_000)}`, { key });
    expect(res.status).toBe(431);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });

  it('echoes a request id, or makes one', async () => {
    const given = await http(stack.url, '/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await http(stack.url, '/health');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('trailing slashes are optional on the list endpoints', async () => {
    for (const path of ['/api/v2/sandbox/score', '/api/v2/sandbox/score/', '/api/v2/sandbox/score/batch']) {
      const res = await http(stack.url, `${path}?address=${VITALIK}`, { key });
      expect([path, res.status]).toEqual([path, 200]);
    }
  });
});

describe('a client that stalls', () => {
  let slow: TestStack;
  beforeAll(async () => {
    slow = await startTestStack({ env: { REQUEST_TIMEOUT_MS: '500' } });
  });
  afterAll(() => slow.close());

  it('a request whose headers never end is cut with 408 detail, and the connection closed', async () => {
    const { port } = new URL(slow.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: '));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ detail: 'The request was not received in time' });
  });
});
