import { spawn } from 'node:child_process';
import { subjectOfRoute } from './routes';
import { SUBJECTS } from '@credit/contracts/subjects';

/** A bash command run to its end in `cwd`; stdout, stderr and the exit code. */
export function runBash(
  command: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface CurlResult {
  status: number;
  body: unknown;
}

/**
 * A README curl example run as the user would, after the README's variable lines, against the
 * stack's port; `-w` appends the status on its own line.
 */
export async function runCurlExample(
  example: string,
  setup: { variables: string[]; port: number; cwd: string; env: NodeJS.ProcessEnv },
): Promise<CurlResult> {
  const curl = example.replace(/localhost:8080/g, `localhost:${setup.port}`).replace(/^curl /, `curl -w '\\n%{http_code}' `);
  const { stdout } = await runBash([...setup.variables, curl].join('\n'), { cwd: setup.cwd, env: setup.env, timeoutMs: 60_000 });
  const cut = stdout.lastIndexOf('\n');
  const text = stdout.slice(0, cut);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text: the check below names it
  }
  return { status: Number(stdout.slice(cut + 1)), body };
}

/** The method and path (with its query) a curl example calls. */
export function requestOf(example: string): { method: string; path: string } {
  const url = /localhost:\d+(\/[^\s"']*)/.exec(example)?.[1] ?? '/';
  return { method: /-X\s+(\w+)/.exec(example)?.[1] ?? 'GET', path: url };
}

/** Why an example's answer is not what the README documents (200 and the route's reply shape), or undefined. */
export function exampleProblem(example: string, result: CurlResult): string | undefined {
  if (result.status !== 200) return `status ${result.status}: ${JSON.stringify(result.body).slice(0, 300)}`;
  const { method, path } = requestOf(example);
  if (path.startsWith('/users/me')) {
    const keys = Object.keys(result.body as object)
      .sort()
      .join(',');
    return keys === 'email,id,is_active,is_verified' ? undefined : `/users/me answered ${JSON.stringify(result.body)}`;
  }
  const subject = subjectOfRoute(method, path.replace(/\$\w+/g, 'x'));
  if (subject === undefined) return `no route for ${method} ${path}`;
  const parsed = SUBJECTS[subject].reply.safeParse(result.body);
  return parsed.success ? undefined : `${subject}: ${parsed.error.issues[0]?.message} in ${JSON.stringify(result.body).slice(0, 300)}`;
}

/** A body without its timestamps, for comparing two runs. */
export function withoutTimestamps(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body, (k, v: unknown) => (/timestamp|_at$|^as_of$/i.test(k) ? undefined : v)));
}
