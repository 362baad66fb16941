import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Abi, Hex } from 'viem';

/** The package root: both `src/` and `dist/` sit one level below it. */
export const PACKAGE_ROOT = join(__dirname, '..');
export const SOLIDITY_DIR = join(PACKAGE_ROOT, 'src', 'solidity');
export const DEFAULT_ARTIFACT_PATH = join(PACKAGE_ROOT, 'artifacts', 'contracts.json');

/** Compiler settings; part of the cache key. `cancun` runs on anvil and on today's L1/L2s. */
export const COMPILER_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  viaIR: false,
} as const;

export interface ContractArtifact {
  abi: Abi;
  /** Creation code (constructor included). */
  bytecode: Hex;
  /** Runtime code (what anvil_setCode installs). */
  deployedBytecode: Hex;
}

export interface ArtifactFile {
  /** SHA-256 over the compiler version, settings and every source file (name and content). */
  sourceHash: string;
  compilerVersion: string;
  contracts: Record<string, ContractArtifact>;
}

export function readSources(dir = SOLIDITY_DIR): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.sol'))
    .sort()) {
    sources[name] = readFileSync(join(dir, name), 'utf8');
  }
  return sources;
}

function solcVersion(): string {
  // solc's package version equals the bundled compiler's release, without loading the compiler
  // (loading the emscripten build costs about a second).
  return (JSON.parse(readFileSync(require.resolve('solc/package.json'), 'utf8')) as { version: string }).version;
}

export function sourceHash(sources: Record<string, string>): string {
  const hash = createHash('sha256');
  hash.update(`solc ${solcVersion()}\n${JSON.stringify(COMPILER_SETTINGS)}\n`);
  for (const [name, content] of Object.entries(sources).sort(([a], [b]) => a.localeCompare(b))) {
    hash.update(`${name}\n${content.length}\n${content}`);
  }
  return hash.digest('hex');
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
}

/** Compiles every source with solc-js (bundled compiler, no download). Contract names must be unique. */
export function compileSources(sources: Record<string, string>): ArtifactFile {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require('solc') as { compile(input: string): string; version(): string };
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: {
      ...COMPILER_SETTINGS,
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contracts: Record<string, ContractArtifact> = {};
  for (const [file, byName] of Object.entries(output.contracts ?? {})) {
    for (const [name, contract] of Object.entries(byName)) {
      if (contract.evm.bytecode.object === '') continue; // interfaces, abstract contracts
      if (contracts[name]) throw new Error(`Contract name ${name} is defined twice (${file})`);
      contracts[name] = {
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
      };
    }
  }
  return { sourceHash: sourceHash(sources), compilerVersion: solc.version(), contracts };
}

export interface LoadArtifactsOptions {
  sourcesDir?: string;
  artifactPath?: string;
  /** Compile even when the cached artifact matches. */
  force?: boolean;
}

const memory = new Map<string, ArtifactFile>();

/**
 * The compiled contracts: from memory, else from the JSON artifact when its source hash matches,
 * else compiled now and written there (atomically; a read-only package directory only skips the
 * write).
 */
export function loadArtifacts(options: LoadArtifactsOptions = {}): ArtifactFile {
  const sources = readSources(options.sourcesDir);
  const hash = sourceHash(sources);
  const path = options.artifactPath ?? DEFAULT_ARTIFACT_PATH;
  if (!options.force) {
    const cached = memory.get(hash);
    if (cached) return cached;
    if (existsSync(path)) {
      try {
        const file = JSON.parse(readFileSync(path, 'utf8')) as ArtifactFile;
        if (file.sourceHash === hash) {
          memory.set(hash, file);
          return file;
        }
      } catch {
        // unreadable or half-written: compile again
      }
    }
  }
  const file = compileSources(sources);
  try {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(file, null, 1)}\n`);
    renameSync(tmp, path);
  } catch {
    // not writable: keep it in memory only
  }
  memory.set(hash, file);
  return file;
}

export function artifact(name: string, file: ArtifactFile = loadArtifacts()): ContractArtifact {
  const found = file.contracts[name];
  if (!found) throw new Error(`No compiled contract ${name} (have: ${Object.keys(file.contracts).join(', ')})`);
  return found;
}
