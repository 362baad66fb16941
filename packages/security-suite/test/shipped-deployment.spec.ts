import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { gatewayConfig } from '@credit/gateway/config';
import { paymentsConfig } from '@credit/payments/config';

/**
 * The deployments as shipped (docker-compose.yml, infra/k8s) give the x402 parties, the gateway
 * and the payments service, an environment their own config loaders accept, pointing at the
 * stack's services rather than at a default on localhost; x402 is off unless an operator sets it;
 * and the facilitator's signer key, which moves money, reaches the payments service alone.
 */

type Env = Record<string, string>;
type Doc = { kind?: string; metadata?: { name?: string }; [key: string]: unknown };

const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const yamlDocs = (path: string) =>
  parseAllDocuments(read(path))
    .map((d) => d.toJS() as Doc | null)
    .filter((d): d is Doc => d !== null);

// What an operator puts in `.env` (compose) or fills into the ConfigMap and Secrets (Kubernetes).
const PAY_TO = '0x00000000000000000000000000000000000000A1';
const SIGNER = `0x${'11'.repeat(32)}`;
const X402_DOTENV: Env = { X402_PAY_TO: PAY_TO, X402_FACILITATOR_PRIVATE_KEY: SIGNER };

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'shipped-deployment-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every setting that is a URL names a host of the stack: a localhost default inside a container reaches nothing. */
function urlsOnLocalhost(config: object): string[] {
  return Object.entries(config).flatMap(([key, value]) => {
    if (typeof value !== 'string' || !/^[a-z]+:\/\//.test(value)) return [];
    return value.split(',').some((u) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(u.trim()).hostname)) ? [key] : [];
  });
}

// ---------------------------------------------------------------------------------------------
// docker compose

interface ComposeService {
  profiles?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[] };
}
const COMPOSE = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };

/** A service's environment as compose interpolates it from `.env` (`${VAR:-default}`, `${VAR}`). */
function composeEnv(name: string, dotenv: Env): Env {
  const service = COMPOSE.services[name];
  if (service === undefined) throw new Error(`docker-compose.yml has no service ${name}`);
  const interpolate = (value: string) =>
    value.replace(/\$\{(\w+)(?::-([^}]*))?\}/g, (_, variable: string, fallback: string | undefined) => dotenv[variable] || fallback || '');
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
}

/**
 * The container paths of the environment made host paths through the service's bind mounts; a
 * mount whose files are git-ignored copies (`*.example` shipped) is given a scratch directory
 * holding those examples under their real names.
 */
function onHost(name: string, env: Env): Env {
  const mounts = (COMPOSE.services[name]!.volumes ?? [])
    .map((v) => v.split(':'))
    .filter(([host]) => host!.startsWith('./'))
    .map(([host, container]) => {
      const dir = mkdtempSync(join(scratch, 'mount-'));
      for (const file of readdirSync(join(ROOT, host!))) {
        if (file.endsWith('.example')) copyFileSync(join(ROOT, host!, file), join(dir, file.replace(/\.example$/, '')));
      }
      return { container: container!, dir };
    });
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => {
      const mount = mounts.find((m) => v.startsWith(`${m.container}/`));
      return [k, mount ? join(mount.dir, v.slice(mount.container.length)) : v];
    }),
  );
}

describe('docker compose', () => {
  it('runs the payments service, with x402 set in .env, on a configuration it accepts', () => {
    const config = paymentsConfig(onHost('payments', composeEnv('payments', X402_DOTENV)));
    expect(config.NATS_USER).toBe('payments');
    expect(config.x402.payTo).toBe(PAY_TO);
    expect(urlsOnLocalhost(config)).toEqual([]);
    // its health check asks the port it serves
    expect(COMPOSE.services.payments!.healthcheck?.test?.join(' ')).toContain(`:${config.HEALTH_PORT}/ready`);
    // the ledger's tables exist before it starts
    expect(COMPOSE.services.payments!.depends_on?.migrate?.condition).toBe('service_completed_successfully');
  });

  it('gives the gateway the same x402 settings as the payments service', () => {
    const gateway = gatewayConfig(onHost('gateway', composeEnv('gateway', X402_DOTENV)));
    const payments = paymentsConfig(onHost('payments', composeEnv('payments', X402_DOTENV)));
    expect(gateway.X402_PAY_TO).toBe(PAY_TO);
    expect(gateway.X402_NETWORKS_FILE).toBeDefined();
    expect(urlsOnLocalhost(gateway)).toEqual([]);
    const gatewayNetworks = JSON.parse(readFileSync(gateway.X402_NETWORKS_FILE!, 'utf8')) as unknown;
    expect(gatewayNetworks).toEqual(JSON.parse(readFileSync(payments.X402_NETWORKS_FILE!, 'utf8')));
  });

  it('has x402 off without .env: the gateway offers none and the payments service is not started', () => {
    expect(gatewayConfig(onHost('gateway', composeEnv('gateway', {}))).X402_PAY_TO).toBeUndefined();
    expect(COMPOSE.services.payments!.profiles).toEqual(['payments']);
    expect(() => paymentsConfig(onHost('payments', composeEnv('payments', {})))).toThrow(/X402_PAY_TO is required/);
  });

  it('hands the facilitator signer to the payments service only', () => {
    const holders = Object.keys(COMPOSE.services).filter((name) =>
      Object.keys(COMPOSE.services[name]!.environment ?? {}).some((k) => k.startsWith('X402_FACILITATOR_')),
    );
    expect(holders).toEqual(['payments']);
  });
});

// ---------------------------------------------------------------------------------------------
// Kubernetes

interface Container {
  name: string;
  image: string;
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string; optional?: boolean } }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  ports?: { name: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  volumes?: { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] } }[];
}
const KUSTOMIZATION = parse(read('infra/k8s/kustomization.yaml')) as { resources: string[]; images: { name: string }[] };
const MANIFESTS = KUSTOMIZATION.resources.flatMap((file) => yamlDocs(`infra/k8s/${file}`));
const SECRETS = yamlDocs('infra/k8s/secret.example.yaml');
const data = (kind: string, name: string): Env => {
  const doc = [...MANIFESTS, ...SECRETS].find((d) => d.kind === kind && d.metadata?.name === name);
  if (doc === undefined) throw new Error(`no ${kind} ${name} in infra/k8s`);
  return ((doc as { data?: Env; stringData?: Env }).data ?? (doc as { stringData?: Env }).stringData)!;
};
const deployment = (name: string) => {
  const doc = MANIFESTS.find((d) => d.kind === 'Deployment' && d.metadata?.name === name);
  if (doc === undefined) throw new Error(`no Deployment ${name} in the kustomization`);
  return (doc as unknown as { spec: { template: { spec: PodSpec } } }).spec.template.spec;
};

/**
 * A Deployment's container environment as the kubelet builds it: envFrom in order, then env,
 * from the ConfigMap and the example Secrets with `filled` over them (what an operator sets);
 * secret volumes are written to scratch directories and their mount paths mapped there.
 */
function podEnv(name: string, filled: Record<string, Env> = {}): Env {
  const pod = deployment(name);
  const container = pod.containers.find((c) => c.name === name)!;
  const source = (kind: string, ref: string) => ({ ...data(kind, ref), ...filled[ref] });
  const env: Env = {};
  for (const from of container.envFrom ?? []) {
    Object.assign(env, from.configMapRef ? source('ConfigMap', from.configMapRef.name) : source('Secret', from.secretRef!.name));
  }
  for (const e of container.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    env[e.name] = ref ? source('Secret', ref.name)[ref.key]! : e.value!;
  }
  for (const mount of container.volumeMounts ?? []) {
    const secret = pod.volumes?.find((v) => v.name === mount.name)?.secret;
    if (secret === undefined) continue;
    const dir = mkdtempSync(join(scratch, 'volume-'));
    const values = source('Secret', secret.secretName);
    for (const item of secret.items ?? Object.keys(values).map((key) => ({ key, path: key }))) {
      writeFileSync(join(dir, item.path), values[item.key]!);
    }
    for (const [k, v] of Object.entries(env)) if (v.startsWith(`${mount.mountPath}/`)) env[k] = join(dir, v.slice(mount.mountPath.length));
  }
  return env;
}
const X402_FILLED = { 'credit-config': { X402_PAY_TO: PAY_TO }, 'x402-facilitator': { X402_FACILITATOR_PRIVATE_KEY: SIGNER } };

describe('Kubernetes', () => {
  it('runs the payments Deployment, with X402_PAY_TO and its signer filled in, on a configuration it accepts', () => {
    const config = paymentsConfig(podEnv('payments', X402_FILLED));
    expect(config.NATS_USER).toBe('payments');
    expect(config.x402.payTo).toBe(PAY_TO);
    expect(urlsOnLocalhost(config)).toEqual([]);
    // the probes ask the port it serves
    expect(deployment('payments').containers[0]!.ports).toEqual([{ name: 'probe', containerPort: config.HEALTH_PORT }]);
  });

  it('gives the gateway the same x402 settings, and x402 off while X402_PAY_TO is empty', () => {
    const gateway = gatewayConfig(podEnv('gateway', X402_FILLED));
    const payments = paymentsConfig(podEnv('payments', X402_FILLED));
    expect(gateway.X402_PAY_TO).toBe(PAY_TO);
    expect(readFileSync(gateway.X402_NETWORKS_FILE!, 'utf8')).toBe(readFileSync(payments.X402_NETWORKS_FILE!, 'utf8'));
    expect(gateway.X402_OFFERED_NETWORKS).toBe(payments.X402_OFFERED_NETWORKS);
    expect(gatewayConfig(podEnv('gateway')).X402_PAY_TO).toBeUndefined();
  });

  it('hands the facilitator signer to the payments Deployment only, never through credit-secrets', () => {
    expect(Object.keys(data('Secret', 'credit-secrets')).filter((k) => k.startsWith('X402_'))).toEqual([]);
    const holders = MANIFESTS.filter((d) => d.kind === 'Deployment' || d.kind === 'Job' || d.kind === 'StatefulSet')
      .filter((d) => JSON.stringify(d).includes('"x402-facilitator"'))
      .map((d) => d.metadata?.name);
    expect(holders).toEqual(['payments']);
  });

  it('lists every manifest of apps/ and an image for every container of the platform', () => {
    const apps = readdirSync(join(ROOT, 'infra/k8s/apps')).map((f) => `apps/${f}`);
    expect(apps.filter((f) => !KUSTOMIZATION.resources.includes(f))).toEqual([]);
    const images = MANIFESTS.flatMap((d) => JSON.stringify(d).match(/"image":"credit\/[\w-]+"/g) ?? []).map((m) => m.slice(9, -1));
    expect(images).toContain('credit/payments');
    expect([...new Set(images)].filter((image) => !KUSTOMIZATION.images.some((i) => i.name === image))).toEqual([]);
  });
});

describe('images', () => {
  it('every app has its generated Dockerfile', () => {
    const dockerfiles = readdirSync(join(ROOT, 'infra/docker')).filter((f) => f.endsWith('.Dockerfile'));
    const apps = readdirSync(join(ROOT, 'apps')).filter((a) => !a.startsWith('.'));
    expect(apps.filter((a) => !dockerfiles.includes(`${a}.Dockerfile`))).toEqual([]);
    expect(read('infra/docker/payments.Dockerfile')).toMatch(/^ARG APP=payments$/m);
  });
});
